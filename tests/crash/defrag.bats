#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/defrag.bats - power cuts while defrag.f2fs moves a block
# range or rewrites a file (issue 8): on a volume aged by our write engine
# (tests/tools/f2age: files filled to 60%, every other one deleted),
#  - the range of the node logs' current segments and the data after them
#    (data and node blocks, current segments reopened) moves right of a
#    target, committed by one checkpoint;
#  - --file rewrites a file split in three extents contiguously.
# After every prefix of its write log (or a sample of >= 200 of a longer
# one), and torn 512- and 2048-byte writes, the volume opens with exactly
# the tree it had, every file's content included (moving never changes
# the tree), and fsck -n -f finds it consistent (a torn newer checkpoint
# pack allowed, see tests/lib/powercut.bash).

load ../lib/common
load ../lib/powercut

DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}
AGE=${AGE:-$F2AGE}

setup() {
	require_prog "$DEFRAG" "$MKFS" "$AGE" "$FSCK" "$F2REPLAY" "$F2WALK" "$DUMP"
	T=$(f2_tmp)
}

@test "defrag.f2fs -s -l -t on an aged volume: every state has the same files, fsck clean" {
	local main0
	make_image "$T/img" 64M
	run_mkfs "$MKFS" -f -q "$T/img"
	"$AGE" fill "$T/img" 60 2
	main0=$("$DUMP" --json "$T/img" 2>/dev/null | jq -r .superblock.main_blkaddr)
	# segments 0..15: the node and hot data logs and all the file data
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/img" powercut_check_start_or_final -- \
		"$DEFRAG" -s "$main0" -l $((16 * 512)) -t $((main0 + 16 * 512)) @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	# the range held blocks to move and is empty in the final state
	"$DEFRAG" -n -s "$main0" -l $((16 * 512)) "$POWERCUT_START" | grep -q ': [1-9][0-9]* to move, 0 stale'
	"$DEFRAG" -n -s "$main0" -l $((16 * 512)) "$POWERCUT_FINAL" | grep -q ': 0 to move, 0 stale'
	# every prefix checked (moved data goes out in runs of up to 64 blocks),
	# or a sample of 200 or more of a longer log
	powercut_covered
	[ "$(powercut_summary "$POWERCUT_START")" = "$(powercut_summary "$POWERCUT_FINAL")" ]
}

@test "defrag.f2fs --file on a file in three extents: every state has the same files, fsck clean" {
	local a
	make_image "$T/img" 64M
	run_mkfs "$MKFS" -f -q "$T/img"
	"$AGE" fill "$T/img" 60 2
	# /age/f1 (16 blocks, contiguous): its blocks 6..9 moved away
	a=$("$DUMP" --stat /age/f1 "$T/img" | sed -n 's/^i_addr\[0x0\] .*: \([0-9]*\)\]$/\1/p')
	[ -n "$a" ]
	"$DEFRAG" -s $((a + 6)) -l 4 -t 13000 "$T/img" >/dev/null
	"$DEFRAG" -n --file /age/f1 "$T/img" | grep -q ': 16 data blocks in 3 extents$'
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/img" powercut_check_start_or_final -- "$DEFRAG" --file /age/f1 @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	"$DEFRAG" -n --file /age/f1 "$POWERCUT_FINAL" | grep -q ': 16 data blocks in 1 extent$'
	[ "$POWERCUT_RECORDS" -le "$POWERCUT_ALL" ] && [ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	[ "$(powercut_summary "$POWERCUT_START")" = "$(powercut_summary "$POWERCUT_FINAL")" ]
}
