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

@test "fsck -y correcting the free segment count (069-cp-free-segs-high)" {
	repair_case 069-cp-free-segs-high
}

# Structural repairs: written through the write engine, committed by one
# checkpoint written last (fsck/pass_repair.c).  The start is damaged, so
# a state passes when fsck -n finds it clean, or finds exactly the start's
# problems (warnings about a torn newer checkpoint pack aside) and -y then
# repairs it; either way the read path must then walk it without damage
# and see the very tree of the complete repair.
# fsck's warnings about a torn newer checkpoint pack, left out when the
# codes of a state are compared with the start's (f2_codes)
TORN_CP_CODES="0x020002"

check_structural() {
	local img=$1 rc=0 codes
	if [ ! -s "$POWERCUT_DIR/final.sum" ]; then
		powercut_summary "$POWERCUT_FINAL" >"$POWERCUT_DIR/final.sum" ||
			{ echo "the repaired volume does not walk"; return 1; }
	fi
	"$FSCK" -n -f "$img" >"$img.n" 2>&1 || rc=$?
	# shellcheck disable=SC2086 # a list
	f2_codes "$img.n" $TORN_CP_CODES
	codes=$REPLY
	if [ "$rc" -ne 0 ]; then
		[ "$codes" = "$START_CODES" ] ||
			{ echo "fsck -n exit $rc, codes '$codes', the start had '$START_CODES'"; return 1; }
		powercut_private "$img" || return 1
		img=$POWERCUT_IMG
		rc=0; "$FSCK" -y -f "$img" >"$img.y" 2>&1 || rc=$?
		[ "$rc" -le 1 ] || { cat "$img.y"; echo "fsck -y exit $rc"; return 1; }
	fi
	powercut_summary "$img" >"$img.sum" || { cat "$img.sum"; echo "the read path fails"; return 1; }
	[ "$(<"$img.sum")" = "$(<"$POWERCUT_DIR/final.sum")" ] && return 0
	diff "$POWERCUT_DIR/final.sum" "$img.sum" | head -5
	echo "not the repaired tree"
	return 1
}

# structural_case NAME: power-cut fsck -y on the image of tests/fsck/NAME
structural_case() {
	local dir=$F2_TOP/tests/fsck/$1
	(cd "$T" && bash "$dir/make.sh" "$T/img") >"$T/make.log" 2>&1 || { cat "$T/make.log"; return 1; }
	"$FSCK" -n -f "$T/img" >"$T/start.n" 2>&1 || true
	# shellcheck disable=SC2086 # a list
	f2_codes "$T/start.n" $TORN_CP_CODES
	START_CODES=$REPLY
	[ -n "$START_CODES" ]
	export START_CODES
	POWERCUT_WRITER_OK=1 powercut_run "$T/img" check_structural -- "$FSCK" -y -f @IMG >"$T/out" ||
		{ cat "$T/out"; return 1; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_RECORDS" -gt 0 ]
	"$FSCK" -n -f "$POWERCUT_FINAL"
}
@test "fsck -y removing a dangling dentry and reconnecting its inode (024-dent-ino-free)" {
	structural_case 024-dent-ino-free
}

@test "fsck -y reconnecting an unreachable inode under lost+found (031-dent-bit-cleared)" {
	structural_case 031-dent-bit-cleared
}

@test "fsck -y rewriting a hash in a casefolded directory in place (064-casefold-hash)" {
	structural_case 064-casefold-hash
}

@test "fsck -y removing a name a casefolded directory holds twice, reconnecting its inode (065-casefold-dup)" {
	structural_case 065-casefold-dup
}

@test "fsck -y rebuilding the SIT (033-sit-stray-bit)" {
	structural_case 033-sit-stray-bit
}

@test "fsck -y re-pointing a bad NAT entry to its intact inode block (012-nat-addr-range)" {
	structural_case 012-nat-addr-range
}

@test "fsck -y rehashing a dentry (025-dent-hash)" {
	structural_case 025-dent-hash
}

@test "fsck -y cutting a node pointer, freeing the node (036-node-owner)" {
	structural_case 036-node-owner
}

@test "fsck -y rebuilding a malformed orphan list (043-orphan-entry-count)" {
	structural_case 043-orphan-entry-count
}

@test "fsck -y moving a log off a shared segment (048-curseg-shared)" {
	structural_case 048-curseg-shared
}

@test "fsck -y resetting the NAT entry of nid 0 (039-nat-nid0)" {
	structural_case 039-nat-nid0
}
