#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/replay.bats - what the power-cut helper builds on, beyond
# tests/unit/io.bats: f2replay apply M:N from a cursor image gives what a
# replay from the start gives, f2replay same compares sparse images byte
# for byte, and a process that opens its device twice (mkfs --root: mkfs,
# then populate) leaves one log that replays to its very result.

load ../lib/common
load ../lib/powercut

OPS=(write:0:4096:0x11 write:8192:100:0x22 flush zero:0:10 discard:4096:4096
     write:60000:5536:0x33 write:12288:8192:0x44 flush)

setup() {
	require_prog "$F2REPLAY" "$MKFS"
	T=$(f2_tmp)
	make_image "$T/base" 64K
	"$F2REPLAY" run "$T/base" write:0:65536:0xee
}

@test "apply M:N on an image at prefix M equals apply N, torn writes too" {
	local m n t
	cp "$T/base" "$T/dev"
	F2_IO_RECORD=$T/log "$F2REPLAY" run "$T/dev" "${OPS[@]}"
	for m in 0 1 3 5; do
		for n in $m 6 8; do
			for t in 0 100 5000; do
				cp "$T/base" "$T/a"
				"$F2REPLAY" apply "$T/log" "$T/a" "$n" $([ $t -gt 0 ] && echo $t)
				cp "$T/base" "$T/b"
				"$F2REPLAY" apply "$T/log" "$T/b" "$m"
				"$F2REPLAY" apply "$T/log" "$T/b" "$m:$n" $([ $t -gt 0 ] && echo $t)
				"$F2REPLAY" same "$T/a" "$T/b" || { echo "m=$m n=$n t=$t"; return 1; }
			done
		done
	done
	"$F2REPLAY" same "$T/a" "$T/dev"
	# a range past the log or backwards is refused
	run "$F2REPLAY" apply "$T/log" "$T/b" 3:9
	[ "$status" -eq 1 ] && [[ $output == *"holds only 8 records"* ]]
	run "$F2REPLAY" apply "$T/log" "$T/b" 5:4
	[ "$status" -eq 2 ]
}

@test "same: equal bytes whatever the holes, the first difference, sizes, missing files" {
	make_image "$T/h" 1M
	make_image "$T/z" 1M
	"$F2REPLAY" run "$T/z" write:4096:8192:0 write:900000:10:0
	"$F2REPLAY" same "$T/h" "$T/z"
	"$F2REPLAY" same "$T/z" "$T/h"
	"$F2REPLAY" run "$T/z" write:700001:1:0x01
	run "$F2REPLAY" same "$T/h" "$T/z"
	[ "$status" -eq 1 ] && [[ $output == *"differ at byte 700001" ]]
	make_image "$T/s" 2M
	run "$F2REPLAY" same "$T/h" "$T/s"
	[ "$status" -eq 1 ] && [[ $output == *"differ in size" ]]
	run "$F2REPLAY" same "$T/h" "$T/none"
	[ "$status" -eq 3 ]
}

@test "mkfs --root records mkfs and populate in one log that replays to its result" {
	mkdir -p "$T/tree/d"
	seq 1 2000 >"$T/tree/d/numbers"
	make_image "$T/img" 64M
	cp --sparse=always "$T/img" "$T/start"
	F2_IO_RECORD=$T/log run_mkfs "$MKFS" -f -q -T 1700000000 --root "$T/tree" "$T/img"
	"$F2REPLAY" apply "$T/log" "$T/start" all
	"$F2REPLAY" same "$T/start" "$T/img"
	# a new process starts the log over
	F2_IO_RECORD=$T/log "$F2REPLAY" run "$T/img" write:0:512:0
	[ "$("$F2REPLAY" count "$T/log")" = 1 ]
}
