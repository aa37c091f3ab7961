#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/resize/crash.bats - power cuts during resize.f2fs: after every
# prefix of its write log (or a sample of >= 200 of a longer one) and torn
# 512- and 2048-byte writes, the volume is the old one or the new one: its
# superblock's main area is the old or the new size, it opens with exactly
# the tree it had (resizing never changes the tree), our fsck -n -f finds
# it consistent (a torn newer checkpoint pack allowed, and the short
# free_segment_count of the state between the two commits, a warning) and
# so does the reference fsck.f2fs.  While one superblock copy is being
# rewritten its magic is cleared (lib/resize/run.c): the volume is then
# read from the other copy, so those states may report the missing or
# differing copy (SB_PRIMARY_BAD, SB_BACKUP_BAD, SB_COPIES_DIFFER, and
# the reference's "Magic Mismatch"), nothing else.
#
# A resize that relocates the metadata areas (the default) has each
# superblock name its own checkpoint, so no state lies between two
# commits: there the short free count below is a failure.  An in-place
# resize (-s, multi-device volumes, and a shrink whose data fits only
# with the areas kept; the plan's "relocate" is null) has one:
# between its two commits (shrink: the checkpoint of the smaller volume
# written, the superblock not yet; grow: the superblock written, the
# checkpoint not yet) the checkpoint's free_segment_count is short of the
# SIT's free segments by the segments cut or added.  No order or
# intermediate layout of an in-place resize avoids that state:
#  - every write is atomic only up to a block, and the superblock and the
#    checkpoint are different blocks, so some write changes the main
#    area's size (the superblock's segment_count_main) while the
#    checkpoint in effect stays the same (the newest valid pack at
#    cp_blkaddr, which an in-place resize keeps; pack validity and choice
#    read nothing else from the superblock);
#  - the reference fsck requires that checkpoint's free_segment_count to
#    equal the segments below segment_count_main with no valid block that
#    are not a log's (build_sit_area_bitmap's count against "free
#    segment_count matched with CP"; is_usable_seg only drops zone-capacity
#    gaps of zoned devices), so under both sizes the segments between them
#    must be in use;
#  - they cannot be: a log's segment must lie below segment_count_main
#    under both superblocks (checkpoint sanity: cur_*_segno), and a valid
#    block there must be owned (the SIT bitmap equals the reachable blocks,
#    its count the bitmap's) by a node or file that points past the smaller
#    main area, an invalid address under the smaller superblock.
# Only a checkpoint at another address escapes it, which is why resizes
# relocate by default.  The kernel never reads the count (it rebuilds its
# free map from the SIT, and its next checkpoint stores the right one);
# our fsck notes it (CNT_FREE_SEGS_SHORT, a warning); the reference fsck
# fails its "free segment_count matched with CP" line.  For an in-place
# resize that line, and only when our fsck found the count short, is
# allowed; so, always, is the reference's note of an invalid checkpoint
# crc (a torn pack, the other one in use).
# The reference fsck (on a copy of a one-device volume; in place on a
# multi-device one, whose superblock names its devices) runs on every
# RESIZE_REF_EVERY-th state (default 8; 1 checks all) and on every state
# with a superblock copy in flux or a short free count.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load ../lib/powercut
load helpers

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

setup() {
	require_prog "$RESIZE" "$FSCK" "$F2SB" "$F2REPLAY" "$F2WALK" "$REF_FSCK"
	T=$(f2_tmp)
	STATE_N=0
}

# The reference fsck on a state: clean, or (superblock copies in flux)
# clean but for the lines about the copy being rewritten.
ref_state_ok() {
	local img=$1 out=$POWERCUT_DIR/ref.out copy=$POWERCUT_DIR/ref.img status=0
	# a multi-device state is checked in place (the superblock names
	# the devices by path; --dry-run writes nothing)
	if [ "$POWERCUT_NDEVS" -gt 1 ]; then
		copy=$img
	else
		cp --sparse=always "$img" "$copy"
	fi
	"$REF_FSCK" --dry-run "$copy" </dev/null >"$out" 2>&1 || status=$?
	# a torn pack (by design: the other one is the committed state): the
	# reference notes the invalid crc of the pack it then passes over
	grep -v '^[[:space:]]*Invalid CP CRC' "$out" >"$out.f" || true
	mv "$out.f" "$out"
	if [ "$RESIZE_IN_PLACE" = 1 ] && [[ " $OUR_CODES" == *" 0x0A0006 "* ]] && grep -q '^\[FSCK\] free segment_count matched with CP *\[Fail\]' "$out"; then
		grep -v '^\[FSCK\] free segment_count matched with CP' "$out" >"$out.f" || true
		mv "$out.f" "$out"
		status=0
	fi
	if [ "$SB_FLUX" = 1 ]; then
		grep -v -i 'magic mismatch\|can.t find a valid f2fs superblock at 0x0\|invalid sb\|fix the superblock' \
			"$out" >"$out.f" || true
		mv "$out.f" "$out"
	fi
	f2_ref_fsck_verdict "$out" "$status" && return 0
	echo "reference fsck (exit $status):"
	head -n 40 "$out"
	return 1
}

# resize_state_ok IMG K T: the old or the new volume, both fscks clean
resize_state_ok() {
	local img=$1 main p b
	p=$("$F2SB" "$img" 2>/dev/null | sed -n 's/^segment_count_main=//p')
	b=$("$F2SB" --backup "$img" 2>/dev/null | sed -n 's/^segment_count_main=//p')
	main=${p:-$b}
	SB_FLUX=0
	[ "$p" = "$b" ] || SB_FLUX=1
	case $main in
	"$OLD_MAIN"|"$NEW_MAIN") ;;
	*)	echo "segment_count_main '$p' (backup '$b'): neither $OLD_MAIN nor $NEW_MAIN"; return 1 ;;
	esac
	if [ $SB_FLUX = 1 ]; then
		POWERCUT_FSCK_ALLOW="0x020002 0x010001 0x010002 0x010003 0x0A0006" powercut_volume_ok "$img" || return 1
	else
		powercut_volume_ok "$img" || return 1
	fi
	# the codes of the report powercut_volume_ok just had (POWERCUT_FSCK)
	OUR_CODES=$(grep -o '^0x[0-9A-F]* ' "$POWERCUT_FSCK_OUT" | tr -d ' ' | tr '\n' ' ')
	if [ "$RESIZE_IN_PLACE" != 1 ] && [[ " $OUR_CODES" == *" 0x0A0006 "* ]]; then
		echo "a relocating resize left a state with a short free segment count"
		return 1
	fi
	powercut_commit_sum 0
	if [ "$POWERCUT_GOT" != "$POWERCUT_SUM" ]; then
		echo "the tree differs from the start's:"
		diff <(echo "$POWERCUT_SUM") <(echo "$POWERCUT_GOT") | head -n 20
		return 1
	fi
	STATE_N=$((STATE_N + 1))
	[ -z "${SKIP_REF:-}" ] || return 0
	if [ $SB_FLUX = 1 ] || [[ " $OUR_CODES" == *" 0x0A0006 "* ]] ||
	   [ $((STATE_N % ${RESIZE_REF_EVERY:-8})) = 0 ]; then
		ref_state_ok "$img"
	fi
}

# plan_states: the sizes a state may have, and whether the plan is in
# place, from the -n plan just read (rs_json)
plan_states() {
	OLD_MAIN=$(rsv .old.main_segments)
	NEW_MAIN=$(rsv .new.main_segments)
	RESIZE_IN_PLACE=0
	[ "$(rsv .relocate)" != null ] || RESIZE_IN_PLACE=1
}

# run_powercut IMG ARGS...: resize.f2fs ARGS @IMG under power cuts
run_powercut() {
	local img=$1; shift
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$img" resize_state_ok -- "$RESIZE" "$@" @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	powercut_covered
	[ "$(sb_field "$POWERCUT_FINAL" segment_count_main)" -eq "$NEW_MAIN" ]
}

@test "shrink of a kernel-aged 1 GiB volume to 55% (blocks moved, 2-segment sections): every state old or new" {
	fixtures_require
	fixture_copy sect "$T/img"
	rs_json "$T/img" -n -t "$(sectors_at 55 "$(stat -c %s "$T/img")")"
	[ "$RS_STATUS" -eq 0 ]
	plan_states
	[ "$(rsv .move.blocks)" -gt 1000 ]	# the test is meaningful
	[ "$(rsv .relocate.placement)" = main_start ] && [ "$RESIZE_IN_PLACE" = 0 ]
	run_powercut "$T/img" -t "$(sectors_at 55 "$(stat -c %s "$T/img")")"
	# moved blocks and the two commits: many flushes
	[ "$(grep -c ' flush ' "$POWERCUT_LIST")" -ge 6 ]
}

@test "shrink moving node blocks (every inode) back from past the end: every prefix checked" {
	fixtures_require
	require_prog "$DEFRAG"
	fixture_copy casefold "$T/img"
	nodes_to_the_end "$T/img"
	rs_json "$T/img" -n -t "$(sectors_at 50 $((256 << 20)))"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .move.node)" -gt 600 ]
	plan_states
	run_powercut "$T/img" -t "$(sectors_at 50 $((256 << 20)))"
}

@test "grow -s (in place) of a kernel-written 256 MiB volume to 3x: every state old or new" {
	fixtures_require
	fixture_copy casefold "$T/img"
	truncate -s $(( $(stat -c %s "$T/img") * 3 )) "$T/img"
	rs_json "$T/img" -n -s
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ]
	plan_states
	[ "$RESIZE_IN_PLACE" = 1 ]
	run_powercut "$T/img" -s
}

@test "shrink, then grow back with the areas where mkfs put them: every state of the grow old or new" {
	fixtures_require
	fixture_copy casefold "$T/img"
	"$RESIZE" -t "$(sectors_at 60 $((256 << 20)))" "$T/img" >/dev/null
	truncate -s $((256 << 20)) "$T/img"
	rs_json "$T/img" -n
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ] && [ "$(rsv .relocate.placement)" = mkfs ]
	plan_states
	run_powercut "$T/img"
	[ "$(sb_field "$POWERCUT_FINAL" main_blkaddr)" -eq "$(sb_field "$F2_FIXTURES/casefold.img" main_blkaddr)" ]
}

@test "grow of a kernel-aged 512 MiB volume to 3x, the metadata areas relocated: every state old or new" {
	fixtures_require
	fixture_copy aged "$T/img"
	truncate -s 1536M "$T/img"
	rs_json "$T/img" -n
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .relocate.shift_segments)" -gt 0 ]
	[ "$(rsv .move.blocks)" -gt 1000 ]
	plan_states
	run_powercut "$T/img"
	# each superblock names its own checkpoint: no state between two commits
	[ "$(sb_field "$POWERCUT_FINAL" segment0_blkaddr)" -gt 512 ]
}

@test "shrink of an engine-aged volume: every prefix checked" {
	require_prog "$MKFS" "$F2AGE"
	make_image "$T/img" 128M
	run_mkfs "$MKFS" -f -q "$T/img"
	"$F2AGE" fill "$T/img" 40 2
	rs_json "$T/img" -n -t "$(sectors_at 60 $((128 << 20)))"
	[ "$RS_STATUS" -eq 0 ]
	plan_states
	[ "$(rsv .move.blocks)" -gt 0 ]
	run_powercut "$T/img" -t "$(sectors_at 60 $((128 << 20)))"
}

@test "shrink of a two-device volume within its last device: every prefix checked" {
	# the states are rebuilt in place (the superblock names the devices
	# by path): the reference fsck reads them there
	require_prog "$MKFS" "$F2AGE"
	make_image "$T/d0" 64M
	make_image "$T/d1" 64M
	run_mkfs "$MKFS" -f -q -c "$T/d1" "$T/d0"
	"$F2AGE" fill "$T/d0" 60 2 >/dev/null
	rs_json "$T/d0" -n -t $((100 << 11))
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .move.blocks)" -gt 0 ]
	plan_states
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/d0,$T/d1" resize_state_ok -- "$RESIZE" -t $((100 << 11)) @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	powercut_covered
	head -c 8 "$POWERCUT_LOG" | grep -q F2IOLOG2
}

@test "grow of a two-device volume into its last device: every prefix checked" {
	require_prog "$MKFS" "$F2AGE"
	make_image "$T/d0" 64M
	make_image "$T/d1" 64M
	run_mkfs "$MKFS" -f -q -c "$T/d1" "$T/d0"
	"$F2AGE" fill "$T/d0" 60 2 >/dev/null
	truncate -s 96M "$T/d1"
	rs_json "$T/d0" -n
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ]
	plan_states
	POWERCUT_FSCK="$FSCK -n -f" \
		powercut_run "$T/d0,$T/d1" resize_state_ok -- "$RESIZE" @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	powercut_covered
	[ "$(sb_field "$T/d0" 'devs\[1\].total_segments')" -eq $((32 + NEW_MAIN - OLD_MAIN)) ]
}
