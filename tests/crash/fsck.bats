#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/fsck.bats - power cuts while fsck.f2fs -y -f repairs (the
# repairable corruption cases of tests/fsck/, made by their own make.sh):
# after every prefix of the repair's write log and torn writes of 512 and
# 2048 bytes, the volume opens with the same tree, and fsck -n -f finds
# the case's original problems or none (plus CP_NEWER_PACK_BAD: a torn
# newer checkpoint pack, see tests/lib/powercut.bash).

load ../lib/common
load ../lib/powercut

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
export F2FIELD

setup() {
	require_prog "$FSCK" "$F2FIELD" "$F2REPLAY" "$F2WALK"
	T=$(f2_tmp)
}

# repair_case NAME: power-cut fsck -y on the image of tests/fsck/NAME
repair_case() {
	local dir=$F2_TOP/tests/fsck/$1 codes
	(cd "$T" && bash "$dir/make.sh" "$T/img") >"$T/make.log" 2>&1 || { cat "$T/make.log"; return 1; }
	codes=$(. "$dir/expect" && echo "$codes")
	[ -n "$codes" ]
	POWERCUT_WRITER_OK=1 POWERCUT_FSCK="$FSCK -n -f" POWERCUT_FSCK_ALLOW="0x020002 $codes" \
		powercut_run "$T/img" powercut_check_start_or_final -- "$FSCK" -y -f @IMG >"$T/out" ||
		{ cat "$T/out"; return 1; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_RECORDS" -gt 0 ]
	# the repair is complete at the end
	"$FSCK" -n -f "$POWERCUT_FINAL"
}

@test "fsck -y rewriting the primary superblock (001-sb-primary-magic)" {
	repair_case 001-sb-primary-magic
}

@test "fsck -y reconciling two superblocks (003-sb-copies-differ)" {
	repair_case 003-sb-copies-differ
}

@test "fsck -y correcting checkpoint counters (007-cp-valid-blocks)" {
	repair_case 007-cp-valid-blocks
}

@test "fsck -y correcting the free segment count (010-cp-free-segs)" {
	repair_case 010-cp-free-segs
}
