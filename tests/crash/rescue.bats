#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/rescue.bats - power cuts while fsck.f2fs -y rebuilds lost
# metadata from the main area (fsck/rescue.c, lib/rescue/; the rescue
# cases of tests/fsck/, made by their own make.sh).  After every prefix
# of the write log (and torn writes of 512 and 2048 bytes), the volume is
# the damaged one (fsck -n finds exactly the start's problems; -y then
# rebuilds it to the very tree of the complete run) or the rebuilt one
# (the read path walks the complete run's tree; what the check after the
# rebuild had left to write, summaries and counts, -y finishes, and the
# volume is then clean).  The checkpoint the rebuild starts from is never
# written, so until the rebuild's own checkpoint commits, the disk keeps
# no checkpoint at all.

load ../lib/common
load ../lib/powercut

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
INJECT=${INJECT:-$F2_BUILD/inject/inject.f2fs}
export F2FIELD INJECT

# a torn newer checkpoint pack (see tests/crash/fsck.bats)
TORN_CP_CODES="0x020002"

setup() {
	require_prog "$FSCK" "$F2FIELD" "$F2REPLAY" "$F2WALK"
	T=$(f2_tmp)
}

check_rescue() {
	local img=$1 rc=0 codes sum
	if [ ! -s "$POWERCUT_DIR/final.sum" ]; then
		powercut_summary "$POWERCUT_FINAL" >"$POWERCUT_DIR/final.sum" ||
			{ echo "the rebuilt volume does not walk"; return 1; }
	fi
	"$FSCK" -n -f "$img" >"$img.n" 2>&1 || rc=$?
	# shellcheck disable=SC2086 # a list
	f2_codes "$img.n" $TORN_CP_CODES
	codes=$REPLY
	if [ "$rc" -ne 0 ] && [ "$codes" = "$START_CODES" ]; then
		STATE=damaged
	else
		# the rebuilt volume: its tree is the complete run's already
		powercut_summary "$img" >"$img.sum" 2>&1 ||
			{ cat "$img.sum" "$img.n"; echo "neither damaged ($codes) nor walking"; return 1; }
		[ "$(<"$img.sum")" = "$(<"$POWERCUT_DIR/final.sum")" ] ||
			{ diff "$POWERCUT_DIR/final.sum" "$img.sum" | head -5; echo "not the rebuilt tree"; return 1; }
		STATE=rebuilt
		[ "$rc" -ne 0 ] || return 0
	fi
	powercut_private "$img" || return 1
	img=$POWERCUT_IMG
	rc=0; "$FSCK" -y -f "$img" >"$img.y" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || { cat "$img.y"; echo "$STATE: fsck -y exit $rc"; return 1; }
	rc=0; "$FSCK" -n -f "$img" >"$img.n2" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$img.n2"; echo "$STATE: not clean after -y"; return 1; }
	powercut_summary "$img" >"$img.sum" || { echo "the read path fails"; return 1; }
	[ "$(<"$img.sum")" = "$(<"$POWERCUT_DIR/final.sum")" ] ||
		{ diff "$POWERCUT_DIR/final.sum" "$img.sum" | head -5; echo "$STATE: not the rebuilt tree after -y"; return 1; }
}

rescue_case() {
	local dir=$F2_TOP/tests/fsck/$1
	(cd "$T" && bash "$dir/make.sh" "$T/img") >"$T/make.log" 2>&1 || { cat "$T/make.log"; return 1; }
	"$FSCK" -n -f "$T/img" >"$T/start.n" 2>&1 || true
	# shellcheck disable=SC2086 # a list
	f2_codes "$T/start.n" $TORN_CP_CODES
	START_CODES=$REPLY
	[ "$START_CODES" = "$2" ] || { echo "start codes '$START_CODES'"; return 1; }
	export START_CODES
	POWERCUT_WRITER_OK=1 powercut_run "$T/img" check_rescue -- "$FSCK" -y -f @IMG >"$T/out" ||
		{ cat "$T/out"; return 1; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_RECORDS" -gt 0 ]
	"$FSCK" -n -f "$POWERCUT_FINAL"
}

@test "power cuts while fsck -y rebuilds a zeroed checkpoint area (110-rescue-cp-zeroed)" {
	rescue_case 110-rescue-cp-zeroed 0x02000D
}

@test "power cuts while fsck -y rebuilds a zeroed NAT (111-rescue-nat-zeroed)" {
	rescue_case 111-rescue-nat-zeroed 0x03000A
}

@test "power cuts while fsck -y rebuilds the checkpoint and NAT (112-rescue-cp-nat-zeroed)" {
	rescue_case 112-rescue-cp-nat-zeroed 0x02000D
}

@test "power cuts while fsck -y rebuilds over a stale checkpoint (116-rescue-cp-stale)" {
	rescue_case 116-rescue-cp-stale "0x02000E 0x030002 0x04000A 0x04000D 0x090001 0x090002"
}

@test "power cuts while fsck -y rewrites both lost superblock copies (117-sb-both-lost)" {
	rescue_case 117-sb-both-lost 0x01000C
}

@test "power cuts while fsck -y rewrites both lost superblock copies, sections of 2 (118-sb-both-lost-sect)" {
	rescue_case 118-sb-both-lost-sect 0x01000C
}
