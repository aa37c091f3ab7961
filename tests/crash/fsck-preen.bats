#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/fsck-preen.bats - power cuts while fsck.f2fs -p -f (preen)
# repairs what is safe to repair without asking, one case per kind of
# preen repair of tests/fsck/ (made by its own make.sh): a superblock
# copy, checkpoint counters, nat_bits and a quota file (the structural
# repairs -p shares with -y, through the write engine, are cut under -y
# in tests/crash/fsck.bats).  After every prefix of the repair's write log and torn
# writes of 512 and 2048 bytes, the volume opens with the same tree,
# fsck -n -f finds the case's original problems or none (a torn newer
# checkpoint pack allowed, see tests/lib/powercut.bash), and fsck -p -f
# run again on the state finishes the repair: exit 0 or 1, then the very
# bytes of the complete repair, or a volume fsck -n -f finds clean (but
# see check_preen for a torn checkpoint head under a quota repair).
# (-p on damage it may not repair writes nothing: tests/fsck/cases.bats.)

load ../lib/common
load ../lib/powercut

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
export F2FIELD

setup() {
	require_prog "$FSCK" "$F2FIELD" "$F2REPLAY" "$F2WALK"
	T=$(f2_tmp)
}

# A torn head of the newest checkpoint pack reads as a damaged pack
# (CP_NEWER_PACK_BAD, the older pack in use): the second -p repairs from
# the pack in use (its checkpoint replaces the damaged one) and rewrites
# the quota files in the same run, so a boot-time preen never stops there.
check_preen() {
	local img=$1 k=$2 t=$3 rc=0
	powercut_check_start_or_final "$img" || return 1
	powercut_private "$img" || return 1
	img=$POWERCUT_IMG
	"$FSCK" -p -f "$img" >"$img.p" 2>&1 || rc=$?
	[ $rc -le 1 ] || { cat "$img.p"; echo "a second fsck -p -f exits $rc"; return 1; }
	"$F2REPLAY" same "$img" "$POWERCUT_FINAL" >/dev/null && return 0
	"$FSCK" -n -f "$img" >"$img.n" 2>&1 ||
		{ cat "$img.n"; echo "not clean after a second fsck -p -f"; return 1; }
}

# preen_case NAME: power-cut fsck -p -f on the image of tests/fsck/NAME
preen_case() {
	local dir=$F2_TOP/tests/fsck/$1 codes
	(cd "$T" && bash "$dir/make.sh" "$T/img") >"$T/make.log" 2>&1 || { cat "$T/make.log"; return 1; }
	codes=$(. "$dir/expect" && echo "$codes")
	[ -n "$codes" ]
	POWERCUT_WRITER_OK=1 POWERCUT_FSCK="$FSCK -n -f" POWERCUT_FSCK_ALLOW="0x020002 $codes" \
		powercut_run "$T/img" check_preen -- "$FSCK" -p -f @IMG >"$T/out" ||
		{ cat "$T/out"; return 1; }
	tail -n 1 "$T/out"
	# -p repaired it (exit 1) and every prefix was checked, torn writes too
	grep -q "^$codes " "$POWERCUT_DIR/writer.out"
	grep -q ": yes (preen)$" "$POWERCUT_DIR/writer.out"
	grep -q " fixed, 0 left" "$POWERCUT_DIR/writer.out"
	[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ] || [ "$(grep -c ' write ' "$POWERCUT_LIST")" -le 1 ]
	"$FSCK" -n -f "$POWERCUT_FINAL"
}

@test "fsck -p rewriting the backup superblock (002-sb-backup-crc)" {
	preen_case 002-sb-backup-crc
}

@test "fsck -p correcting checkpoint counters (007-cp-valid-blocks)" {
	preen_case 007-cp-valid-blocks
}

@test "fsck -p rebuilding nat_bits (037-nat-bits)" {
	preen_case 037-nat-bits
}

@test "fsck -p rewriting a quota file (050-quota-user)" {
	preen_case 050-quota-user
}
