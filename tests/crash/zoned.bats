#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/zoned.bats - power cuts of our writers on a zoned volume
# (issue 8).  A zone refuses writes off its write pointer, so the writers
# run where zones are real: one QEMU boot (Linux 6.1) with a zoned NVMe
# namespace (256 MiB, 4 MiB zones) and a 64 MiB metadata disk
# (tests/crash/guest/zoned.sh) records the write logs of mkfs.f2fs -m -c,
# of gc.f2fs on the volume after the driver aged it, and of defrag.f2fs
# moving a range of the zoned namespace; our fsck checks each result on
# the zoned device, and at the end the driver mounts the volume with every
# md5 intact and no write-pointer complaint.  The
# guest names the devices through symlinks in a directory whose path the
# host gives to image files, so the superblock's device list holds on the
# host, where every prefix of each log (a sample of >= 200 of a longer
# one) and torn writes are replayed onto the start images (zone resets
# are discards there) and judged as in tests/crash/multidev.bats: mkfs
# leaves nothing, refused, or the new volume, fsck clean; gc and defrag
# leave the same tree with every file's content, fsck -n -f clean.  What
# the host cannot judge is the write pointers: the guest's mount after
# the full runs checks those.
load ../lib/common
load ../lib/kernel
load ../lib/powercut

GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	local dir=$BATS_FILE_TMPDIR
	# the device directory: a short path (the superblock keeps 64 bytes
	# a path), the same in the guest and here
	PC=$(mktemp -d /tmp/f2pc.XXXXXX) && echo "$PC" >"$dir/f2pc" || return 1
	kernel_setup || return 0 # each test then skips or fails by itself
	require_prog "$MKFS" "$GC" "$DEFRAG" "$FSCK" "$DUMP" || return 1
	truncate -s 64M "$dir/vda.img" "$dir/start-meta.img"
	truncate -s 256M "$dir/zns.img" "$dir/start-zns.img"
	truncate -s 512M "$dir/logs.tar"
	kernel_add_binary "$FSCK" our-fsck.f2fs || return 1
	kernel_add_binary "$MKFS" && kernel_add_binary "$GC" && kernel_add_binary "$DEFRAG" &&
		kernel_add_binary "$DUMP" || return 1
	KERNEL_FILES="$dir/f2pc:/etc/f2pc" KERNEL_ZONED=$dir/zns.img KERNEL_ZONE_SIZE=4M \
		KERNEL_ZONE_CAP=4M KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=900 \
		kernel_run "$BATS_TEST_DIRNAME/guest/zoned.sh" "$dir/vda.img" \
		"$dir/start-meta.img" "$dir/start-zns.img" "$dir/logs.tar"
	echo $? >"$dir/run/status"
	cp "$KERNEL_OUT" "$dir/report"
	mkdir -p "$dir/logs" && tar -xf "$dir/logs.tar" -C "$dir/logs" 2>/dev/null
	rm -f "$dir/logs.tar" "$dir/vda.img" "$dir/zns.img"
}

teardown_file() {
	local pc
	pc=$(cat "$BATS_FILE_TMPDIR/f2pc" 2>/dev/null) && rm -rf "$pc"
}

setup() {
	kernel_require
	kernel_ran
	require_prog "$FSCK" "$F2REPLAY" "$F2WALK"
	PC=$(cat "$BATS_FILE_TMPDIR/f2pc")
	LOGS=$BATS_FILE_TMPDIR/logs
}

# devices META ZNS: the volume's two devices at the superblock's paths
devices() {
	cp --sparse=always "$1" "$PC/meta" && cp --sparse=always "$2" "$PC/zns"
}

# replayed LOG: the writer for powercut_run: the guest's run, i.e. its
# log applied to the devices in place, handed over as the recorded log
replayed() {
	local log=$LOGS/$1
	[ -s "$log" ] || { echo "no $1 from the guest"; return 1; }
	powercut_run "$PC/meta,$PC/zns" "$2" -- \
		sh -c 'cp "$1" "$F2_IO_RECORD" && env -u F2_IO_RECORD "$2" apply "$1" "$3" all' \
		_ "$log" "$F2REPLAY" "$PC/meta,$PC/zns"
}

@test "zoned: the guest recorded mkfs -m, gc and defrag; each result fsck clean, mounted with md5s intact" {
	kernel_expect "mkfs exit 0" "age umount ok" "start copied" "gc exit 0" "gc fsck exit 0" \
		"defrag exit 0" "defrag fsck exit 0" "final md5 same" "final umount ok" \
		"final write pointer notices 0" "logs saved" DONE
	# Known difference: gc and defrag leave a zone they stopped writing in
	# open, which 6.12 reports at mount ("not aligned with write pointer")
	# and finishes; 6.1 takes it silently.  Finishing such zones offline
	# is still to do; any other write-pointer notice fails above.
	[ "${F2_KERNEL:-6.1}" = 6.12 ] || kernel_expect "final open zone notices 0"
	grep -q '^gc result: [1-9][0-9]* sections cleaned' "$BATS_FILE_TMPDIR/report"
	# sections of the namespace among them: their zones were reset
	grep -q '^gc zones reset: [1-9]' "$BATS_FILE_TMPDIR/report"
	grep -q '^defrag .*, 0 valid blocks left$' "$BATS_FILE_TMPDIR/report"
	[ -s "$LOGS/mkfs.log" ] && [ -s "$LOGS/gc.log" ] && [ -s "$LOGS/defrag.log" ]
}

@test "zoned: power cuts of mkfs.f2fs -m -c: nothing, refused, or the new volume, fsck clean" {
	local t=$BATS_TEST_TMPDIR
	truncate -s 64M "$t/z0" && truncate -s 256M "$t/z1"
	devices "$t/z0" "$t/z1"
	POWERCUT_FSCK="$FSCK -n -f" replayed mkfs.log powercut_check_mkfs >"$t/out" ||
		{ cat "$t/out"; false; }
	tail -n 1 "$t/out"
	powercut_covered
	# the log resets the zones (a discard reaching into the namespace, which
	# starts at 64 MiB; the unix backend resets the zones in its range)
	# and writes both devices' metadata
	awk '$2 == "discard" && $3 + $4 > 64 * 1048576 { f = 1 } END { exit !f }' "$POWERCUT_LIST"
	# the whole log gives a volume, empty
	powercut_copy "$POWERCUT_FINAL" "$POWERCUT_DEVS"
	"$F2WALK" "$PC/meta" >"$t/tree"
	"$FSCK" -n -f "$PC/meta"
}

@test "zoned: power cuts of gc.f2fs on the aged volume: the same files at every state, fsck clean" {
	local t=$BATS_TEST_TMPDIR
	devices "$BATS_FILE_TMPDIR/start-meta.img" "$BATS_FILE_TMPDIR/start-zns.img"
	"$F2WALK" "$PC/meta" | grep -c '^/f' >"$t/files"
	[ "$(cat "$t/files")" -ge 50 ]
	POWERCUT_FSCK="$FSCK -n -f" replayed gc.log powercut_check_start_or_final >"$t/out" ||
		{ cat "$t/out"; false; }
	tail -n 1 "$t/out"
	powercut_covered
	# it committed more than once and wrote into the namespace
	[ "$(grep -c ' flush ' "$POWERCUT_LIST")" -ge 2 ]
	awk '$2 == "write" && $3 >= 64 * 1048576 { f = 1 } END { exit !f }' "$POWERCUT_LIST"
	# zone resets are in the log (discards on the namespace), each one
	# after a flush (a checkpoint on disk, or the first open of a log)
	awk '$2 == "flush" { f = 1 } $2 == "discard" && $3 >= 64 * 1048576 { n++; if (!f) bad = 1 }
		END { exit !(n > 0 && !bad) }' "$POWERCUT_LIST"
	[ "$(powercut_commit_summary 0)" = "$(powercut_commit_summary "$POWERCUT_RECORDS")" ]
	# the end state is defrag's start
	powercut_copy "$POWERCUT_FINAL" "$BATS_FILE_TMPDIR/after-gc-meta.img,$BATS_FILE_TMPDIR/after-gc-zns.img"
}

@test "zoned: power cuts of defrag.f2fs on the namespace: the same files at every state, fsck clean" {
	local t=$BATS_TEST_TMPDIR
	[ -f "$BATS_FILE_TMPDIR/after-gc-meta.img" ] || { echo "the gc test did not leave its end state (defrag starts there)"; false; }
	devices "$BATS_FILE_TMPDIR/after-gc-meta.img" "$BATS_FILE_TMPDIR/after-gc-zns.img"
	POWERCUT_FSCK="$FSCK -n -f" replayed defrag.log powercut_check_start_or_final >"$t/out" ||
		{ cat "$t/out"; false; }
	tail -n 1 "$t/out"
	powercut_covered
	awk '$2 == "write" && $3 >= 64 * 1048576 { f = 1 } END { exit !f }' "$POWERCUT_LIST"
	[ "$(powercut_commit_summary 0)" = "$(powercut_commit_summary "$POWERCUT_RECORDS")" ]
}
