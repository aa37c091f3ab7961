#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/gc.bats - power cuts while gc.f2fs cleans a volume aged by
# our write engine (tests/tools/f2age: files filled to 60%, every other one
# deleted), four victim sections with a checkpoint after each: after every
# prefix of its write log (or a sample of >= 200 of a longer one) and torn
# 512- and 2048-byte writes, the volume opens with exactly the tree it had, every file's
# content included (cleaning never changes the tree), and fsck -n -f finds
# it consistent (a torn newer checkpoint pack allowed, see
# tests/lib/powercut.bash).  The same with the moved blocks written into
# the free slots of partly valid segments (--alloc ssr): a slot freed since
# the last checkpoint is never reused before the next one.

load ../lib/common
load ../lib/powercut

GC=${GC:-$F2_BUILD/gc/gc.f2fs}
AGE=${AGE:-$F2AGE}

setup() {
	require_prog "$GC" "$MKFS" "$AGE" "$FSCK" "$F2REPLAY" "$F2WALK"
	T=$(f2_tmp)
}

@test "gc.f2fs -m 4 -c 1 on an aged volume: every state has the same files, fsck clean" {
	make_image "$T/img" 64M
	run_mkfs "$MKFS" -f -q "$T/img"
	"$AGE" fill "$T/img" 60 2
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/img" powercut_check_start_or_final -- "$GC" -m 4 -c 1 --no-progress @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	# the run moved blocks and committed more than once; every prefix was
	# checked (moved data goes out in runs of up to 64 blocks, so the log
	# is short), or a sample of 200 or more of a longer log
	[ "$(grep -c ' flush ' "$POWERCUT_LIST")" -ge 4 ]
	powercut_covered
	# and the tree it shows is the one it started with
	[ "$(powercut_summary "$POWERCUT_START")" = "$(powercut_summary "$POWERCUT_FINAL")" ]
}

@test "gc.f2fs --alloc ssr -m 2 -c 1: moved blocks in the free slots of partly valid segments, every state has the same files" {
	make_image "$T/img" 64M
	run_mkfs "$MKFS" -f -q "$T/img"
	"$AGE" fill "$T/img" 60 2
	# the run does write into partly valid segments (a copy, not recorded)
	cp --sparse=always "$T/img" "$T/probe"
	"$GC" --alloc ssr -m 2 -c 1 --json --no-progress "$T/probe" >"$T/probe.json"
	[ "$(jq -r .result.ssr_blocks "$T/probe.json")" -ge 100 ]
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/img" powercut_check_start_or_final -- "$GC" --alloc ssr -m 2 -c 1 --no-progress @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$(grep -c ' flush ' "$POWERCUT_LIST")" -ge 4 ]
	powercut_covered
	[ "$(powercut_summary "$POWERCUT_START")" = "$(powercut_summary "$POWERCUT_FINAL")" ]
	"$AGE" check "$T/img"
}
