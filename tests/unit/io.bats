#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# io.bats - the I/O layer through its build products: the C unit tests
# (test_io; test_sparse for Android sparse images), and
# f2replay end to end (record with F2_IO_RECORD, replay every prefix and a
# torn write, fault injection with F2_IO_FAULT, damaged logs).

load ../lib/common

TEST_IO=${TEST_IO:-$F2_BUILD/tests/unit/test_io}
TEST_SPARSE=${TEST_SPARSE:-$F2_BUILD/tests/unit/test_sparse}
F2REPLAY=${F2REPLAY:-$F2_BUILD/tests/tools/f2replay}

# The operations recorded below, one f2replay "run" argument each.
OPS=(write:0:4096:0x11 write:8192:100:0x22 flush zero:0:10 discard:4096:4096
     write:60000:5536:0x33 flush)

setup() {
    require_prog "$F2REPLAY"
    T=$(f2_tmp)
    # A 64 KiB base image that is not all zeroes.
    make_image "$T/base" 64K
    "$F2REPLAY" run "$T/base" write:0:65536:0xee
}

# expect N: the image after the first N operations, done without a log.
expect() {
    cp "$T/base" "$T/expect"
    if [ "$1" -gt 0 ]; then
        "$F2REPLAY" run "$T/expect" "${OPS[@]:0:$1}"
    fi
}

record() {
    cp "$T/base" "$T/dev"
    F2_IO_RECORD=$T/log "$F2REPLAY" run "$T/dev" "${OPS[@]}"
}

@test "test_io unit tests pass" {
    require_prog "$TEST_IO"
    TMPDIR=$T run "$TEST_IO"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = ok ]
}

@test "test_sparse unit tests pass" {
    require_prog "$TEST_SPARSE"
    TMPDIR=$T run "$TEST_SPARSE"
    echo "$output"
    [ "$status" -eq 0 ]
    [ "$output" = ok ]
}

@test "test_io block device tests pass on a loop device" {
    require_prog "$TEST_IO"
    if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
        skip "needs root and losetup"
    fi
    make_image "$T/blk" 4M
    loop=$(losetup -f --show "$T/blk" 2>/dev/null) || skip "no loop device available"
    TMPDIR=$T F2_TEST_BLKDEV=$loop run "$TEST_IO"
    losetup -d "$loop"
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "test_io: write-behind on a full file system fails with ENOSPC, and stays failed" {
    require_prog "$TEST_IO"
    if [ "$(id -u)" != 0 ]; then
        skip "needs root to mount a small tmpfs"
    fi
    mkdir -p "$T/small"
    mount -t tmpfs -o size=4m tmpfs "$T/small" || skip "cannot mount tmpfs"
    TMPDIR=$T F2_TEST_SMALLFS=$T/small run "$TEST_IO"
    umount "$T/small"
    echo "$output"
    [ "$status" -eq 0 ]
}

@test "f2replay count and list describe the recorded operations" {
    record
    run "$F2REPLAY" count "$T/log"
    [ "$status" -eq 0 ]
    [ "$output" -eq ${#OPS[@]} ]
    run "$F2REPLAY" list "$T/log"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "1 write 0 4096" ]
    [ "${lines[1]}" = "2 write 8192 100" ]
    [ "${lines[2]}" = "3 flush 0 0" ]
    [ "${lines[3]}" = "4 zero 0 10" ]
    [ "${lines[4]}" = "5 discard 4096 4096" ]
    [ "${lines[5]}" = "6 write 60000 5536" ]
    [ "${lines[6]}" = "7 flush 0 0" ]
    [ "${#lines[@]}" -eq 7 ]
}

@test "every prefix of the log replays to the state after that many operations" {
    record
    for n in $(seq 0 ${#OPS[@]}); do
        expect "$n"
        cp "$T/base" "$T/img"
        "$F2REPLAY" apply "$T/log" "$T/img" "$n"
        cmp "$T/img" "$T/expect"
    done
    cmp "$T/img" "$T/dev"
    cp "$T/base" "$T/img"
    "$F2REPLAY" apply "$T/log" "$T/img" all
    cmp "$T/img" "$T/dev"
}

@test "a torn write applies only its leading bytes" {
    record
    cp "$T/base" "$T/img"
    "$F2REPLAY" apply "$T/log" "$T/img" 1 50
    expect 1
    "$F2REPLAY" run "$T/expect" write:8192:50:0x22
    cmp "$T/img" "$T/expect"
    # Torn bytes after a non-write record change nothing.
    cp "$T/base" "$T/img"
    "$F2REPLAY" apply "$T/log" "$T/img" 2 50
    expect 2
    cmp "$T/img" "$T/expect"
}

@test "F2_IO_FAULT fails the Nth write and the log stops before it" {
    cp "$T/base" "$T/dev"
    F2_IO_RECORD=$T/log F2_IO_FAULT=write:2 run "$F2REPLAY" run "$T/dev" "${OPS[@]}"
    [ "$status" -eq 1 ]
    [[ "$output" == *"injected"* ]]
    run "$F2REPLAY" count "$T/log"
    [ "$output" = 1 ]
    expect 1
    cmp "$T/dev" "$T/expect"

    F2_IO_FAULT=bogus run "$F2REPLAY" run "$T/dev" flush
    [ "$status" -eq 1 ]
}

@test "a truncated log ends early, a corrupt one is an error" {
    record
    size=$(stat -c %s "$T/log")
    truncate -s $((size - 1)) "$T/log"
    run "$F2REPLAY" count "$T/log"
    [ "$status" -eq 0 ]
    [ "$output" -eq $((${#OPS[@]} - 1)) ]

    # Flip one byte inside the first record's data.
    printf '\xff' | dd of="$T/log" bs=1 seek=100 conv=notrunc status=none
    run "$F2REPLAY" count "$T/log"
    [ "$status" -eq 1 ]
    [[ "$output" == *"malformed write log"* ]]
    cp "$T/base" "$T/img"
    run "$F2REPLAY" apply "$T/log" "$T/img" 1
    [ "$status" -eq 1 ]
    cmp "$T/img" "$T/base"
}

@test "f2replay rejects bad usage with exit 2 and missing files with exit 1" {
    run "$F2REPLAY"
    [ "$status" -eq 2 ]
    [[ "$output" == *usage* ]]
    run "$F2REPLAY" frob x y
    [ "$status" -eq 2 ]
    run "$F2REPLAY" run "$T/base" write:0:1
    [ "$status" -eq 2 ]
    run "$F2REPLAY" run "$T/base" write:0:1:256
    [ "$status" -eq 2 ]
    run "$F2REPLAY" apply "$T/log" "$T/base" -1
    [ "$status" -eq 2 ]
    run "$F2REPLAY" count "$T/no-such-log"
    [ "$status" -eq 1 ]
    record
    run "$F2REPLAY" apply "$T/log" "$T/base" 99
    [ "$status" -eq 1 ]
    [[ "$output" == *"only 7 records"* ]]
    run "$F2REPLAY" run "$T/base" write:65535:2:0
    [ "$status" -eq 1 ]
    [[ "$output" == *"out of range"* ]]
}
