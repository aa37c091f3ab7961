#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/multidev.bats - power cuts on multi-device volumes (mkfs -c).
# The writer's devices are joined under one write log (a version-2 log,
# lib/io/record.c) and every state is put back at the writer's device
# paths, which the superblock names (tests/lib/powercut.bash, "DEV0,DEV1"):
#   - mkfs -f -c over an old three-device volume aged by our engine: every
#     state is the old volume intact (every file read back), refused at
#     open, or the whole new volume, clean for the reference fsck and ours;
#   - gc.f2fs on an aged two-device volume (its victims and their new
#     places on the second device): every state shows the same tree with
#     every file's content, fsck -n -f clean;
#   - defrag.f2fs moving the first device's main area to the second: the
#     same tree at every state, fsck -n -f clean.
# Every prefix of a short log (a sample of >= 200 of a longer one) and
# torn writes of 512 and 2048 bytes.

load ../lib/common
load ../lib/powercut

GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}

setup() {
	require_prog "$MKFS" "$FSCK" "$GC" "$DEFRAG" "$DUMP" "$F2AGE" "$F2REPLAY" "$F2WALK"
	T=$(f2_tmp)
}

# aged_volume DEV0 SIZE0 [DEV SIZE]...: our mkfs -c over the devices, then
# f2age fills it to 60% and deletes every other file
aged_volume() {
	local -a devs=() cs=()
	while [ $# -gt 0 ]; do
		make_image "$1" "$2"
		devs+=("$1")
		shift 2
	done
	for d in "${devs[@]:1}"; do
		cs+=(-c "$d")
	done
	run_mkfs "$MKFS" -f -q "${cs[@]}" "${devs[0]}"
	"$F2AGE" fill "${devs[0]}" 60 2 >/dev/null
}

# check_mkfs_c DEV0 K T: the old volume, refused, or the new one, clean
# for the reference fsck too
check_mkfs_c() {
	POWERCUT_FSCK="$FSCK -n -f" powercut_check_mkfs "$@" || return 1
	[ -z "$POWERCUT_NEW" ] || ref_fsck_clean "$1"
}

@test "mkfs -c over an old three-device volume: every state is old, refused or new" {
	aged_volume "$T/d0" 64M "$T/d1" 32M "$T/d2" 32M
	"$F2WALK" "$T/d0" >/dev/null
	powercut_run "$T/d0,$T/d1,$T/d2" check_mkfs_c -- \
		"$MKFS" -f -q -c "$T/d1" -c "$T/d2" @IMG >"$T/out" || { cat "$T/out"; false; }
	tail -n 1 "$T/out"
	powercut_covered
	# one log of the joined space, reaching past the first device
	head -c 8 "$POWERCUT_LOG" | grep -q F2IOLOG2
	awk '$3 + $4 > 64 * 1048576 { f = 1 } END { exit !f }' "$POWERCUT_LIST"
	# the old volume had files, the new one is empty
	grep -q '^/age/' "$POWERCUT_DIR/commit.0"
	! grep -q '^/age/' "$POWERCUT_DIR/commit.$POWERCUT_RECORDS" || false
}

@test "gc.f2fs on an aged two-device volume: every state has the same files, fsck clean" {
	aged_volume "$T/d0" 16M "$T/d1" 48M
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/d0,$T/d1" powercut_check_start_or_final -- \
		"$GC" -m 4 -c 1 --no-progress @IMG >"$T/out" || { cat "$T/out"; false; }
	tail -n 1 "$T/out"
	powercut_covered
	# gc moved blocks and committed more than once, on both devices
	[ "$(grep -c ' flush ' "$POWERCUT_LIST")" -ge 4 ]
	awk '$2 == "write" && $3 >= 16 * 1048576 { f = 1 } END { exit !f }' "$POWERCUT_LIST"
	# and the tree it shows is the one it started with
	[ "$(powercut_commit_summary 0)" = "$(powercut_commit_summary "$POWERCUT_RECORDS")" ]
	grep -q '^/age/' "$POWERCUT_DIR/commit.0"
}

@test "defrag.f2fs across two devices: every state has the same files, fsck clean" {
	local main0 end0
	aged_volume "$T/d0" 16M "$T/d1" 48M
	main0=$("$DUMP" --json "$T/d0" 2>/dev/null | jq -r .superblock.main_blkaddr)
	end0=$((16 * 256))	# the first device's last block + 1
	# what the first device's main area holds, moved right of a target on
	# the second device
	"$DEFRAG" -n -s "$main0" -l $((end0 - main0)) "$T/d0" | grep -q ': [1-9][0-9]* to move, 0 stale'
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/d0,$T/d1" powercut_check_start_or_final -- \
		"$DEFRAG" -s "$main0" -l $((end0 - main0)) -t $((end0 + 1024)) @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	powercut_covered
	# the final state, put back at the device paths, has the range empty
	powercut_copy "$POWERCUT_FINAL" "$POWERCUT_DEVS"
	"$DEFRAG" -n -s "$main0" -l $((end0 - main0)) "$T/d0" | grep -q ': 0 to move, 0 stale'
	# the moved blocks landed on the second device
	awk '$2 == "write" && $3 >= 16 * 1048576 { f = 1 } END { exit !f }' "$POWERCUT_LIST"
	[ "$(powercut_commit_summary 0)" = "$(powercut_commit_summary "$POWERCUT_RECORDS")" ]
	grep -q '^/age/' "$POWERCUT_DIR/commit.0"
}

# gc_failing FAULT: gc.f2fs from the saved start ($T/s0, $T/s1) with
# F2_IO_FAULT=FAULT: it fails naming the failure, the tree is the one it
# started with ($T/before), fsck -n -f finds the volume clean
gc_failing() {
	local status=0 out
	cp --sparse=always "$T/s0" "$T/d0" && cp --sparse=always "$T/s1" "$T/d1"
	out=$(F2_IO_FAULT=$1 "$GC" -m 4 -c 1 --no-progress "$T/d0" 2>&1) || status=$?
	echo "$1: exit $status"
	[ "$status" -ne 0 ] || return 1
	grep -qiE "injected|failed" <<<"$out" || { echo "$out"; return 1; }
	"$F2WALK" "$T/d0" | cmp - "$T/before" || return 1
	"$FSCK" -n -f "$T/d0" >"$T/fsck.out" 2>&1 || { cat "$T/fsck.out"; return 1; }
}

# A device that fails under a writer: F2_IO_FAULT counts writes over the
# joined devices as one stream.  gc stops with the failure named, never
# reports success, and leaves the volume with its files and fsck clean: a
# failed write is a power cut at that point.  Failed reads too.
@test "gc.f2fs on two devices with a write failing: an error, files intact, fsck clean" {
	local n k
	aged_volume "$T/d0" 16M "$T/d1" 48M
	cp --sparse=always "$T/d0" "$T/s0" && cp --sparse=always "$T/d1" "$T/s1"
	"$F2WALK" "$T/d0" >"$T/before"
	F2_IO_RECORD=$T/log "$GC" -m 4 -c 1 --no-progress "$T/d0" >/dev/null
	# the writes (writes, zeroes, discards: what F2_IO_FAULT counts)
	n=$("$F2REPLAY" list "$T/log" | grep -vc ' flush ')
	[ "$n" -ge 8 ]
	for k in 1 2 $((n / 2)) $((n - 1)) "$n"; do
		gc_failing "write:$k"
	done
	# a failed read while opening, and one later
	gc_failing read:2
	gc_failing read:40
	# the one while opening wrote nothing
	cp --sparse=always "$T/s0" "$T/d0" && cp --sparse=always "$T/s1" "$T/d1"
	F2_IO_FAULT=read:2 "$GC" -m 4 -c 1 --no-progress "$T/d0" 2>/dev/null && false
	cmp "$T/d0" "$T/s0" && cmp "$T/d1" "$T/s1"
}
