#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/resize/resize.bats - resize.f2fs on kernel-written fixtures
# (tests/lib/fixtures.bash) and on volumes of our own mkfs: shrink with
# blocks moved, grow, refusals that leave the image byte-identical, -n
# predicting what a run moves, both fscks clean after, the tree (f2walk:
# every path, mode, owner, size, link count and content hash) unchanged,
# and the grown geometry against the reference resize.f2fs and our mkfs.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load helpers

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

setup() {
	require_prog "$RESIZE" "$FSCK" "$F2SB" "$F2WALK" "$REF_FSCK"
	T=$(f2_tmp)
}

# shrink_check FIXTURE PCT [ARGS...]: -n, then the run; -n's blocks are
# the run's, the geometry is the plan's, the tree is unchanged, both fscks
# clean
shrink_check() {
	local fx=$1 pct=$2 size sectors
	shift 2
	fixtures_require
	fixture_copy "$fx" "$T/img"
	size=$(stat -c %s "$T/img")
	sectors=$(sectors_at "$pct" "$size")
	"$F2WALK" "$T/img" >"$T/tree.before"
	md5sum <"$T/img" >"$T/md5.before"
	rs_json "$T/img" -n -t "$sectors" "$@"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = shrink ] && [ "$(rsv .dry_run)" = true ]
	# -n wrote nothing
	md5sum <"$T/img" | cmp - "$T/md5.before"
	cp "$RS_JSON" "$T/plan.json"
	rs_json "$T/img" -t "$sectors" "$@"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .error)" = null ]
	# the blocks -n predicted are the blocks moved, data and node alike
	[ "$(rsv .moved.data)" -eq "$(jq -r .move.data "$T/plan.json")" ]
	[ "$(rsv .moved.node)" -eq "$(jq -r .move.node "$T/plan.json")" ]
	[ "$(rsv .moved.skipped)" -eq 0 ]
	# the superblock has the planned geometry; nothing is valid past it
	[ "$(sb_field "$T/img" segment_count_main)" -eq "$(jq -r .new.main_segments "$T/plan.json")" ]
	[ "$(sb_field "$T/img" block_count)" -eq $((sectors / 8)) ]
	[ "$("$F2SB" --backup "$T/img" | sed -n 's/^segment_count_main=//p')" -eq \
	   "$(jq -r .new.main_segments "$T/plan.json")" ]
	[ "$("$F2SB" --cp "$T/img" | sed -n 's/^cp.user_block_count=//p')" -eq \
	   "$(jq -r .new.user_block_count "$T/plan.json")" ]
	"$F2WALK" "$T/img" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/img"
	# a second run has nothing to do
	rs_json "$T/img" -t "$sectors" "$@"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = none ]
}

@test "shrink a kernel-written 1 GiB volume (2-segment sections, quota) to 55%" {
	shrink_check sect 55
	[ "$(jq -r .move.blocks "$T/plan.json")" -gt 1000 ]
	# the areas mkfs lays out for 55%, at the start of the old main area
	[ "$(jq -r .relocate.placement "$T/plan.json")" = main_start ]
	[ "$(sb_field "$T/img" segment0_blkaddr)" -eq "$(jq -r .relocate.segment0_blkaddr "$T/plan.json")" ]
}

@test "shrink -s in place: a kernel-written 1 GiB volume to 55%, the areas kept" {
	shrink_check sect 55 -s
	[ "$(jq -r .relocate "$T/plan.json")" = null ]
	[ "$(sb_field "$T/img" main_blkaddr)" -eq "$(sb_field "$F2_FIXTURES/sect.img" main_blkaddr)" ]
}

@test "shrink a kernel-written 1 GiB volume to 45% (blocks moved from the middle)" {
	shrink_check basic 45
	[ "$(jq -r .move.blocks "$T/plan.json")" -gt 0 ]
}

@test "shrink with node blocks past the end (every inode, moved there by defrag.f2fs)" {
	fixtures_require
	require_prog "$DEFRAG"
	fixture_copy casefold "$T/img"
	nodes_to_the_end "$T/img"
	"$F2WALK" "$T/img" >"$T/tree.before"
	rs_json "$T/img" -n -t "$(sectors_at 50 $((256 << 20)))"
	[ "$RS_STATUS" -eq 0 ]
	[ "$(rsv .move.node)" -gt 600 ]
	cp "$RS_JSON" "$T/plan.json"
	rs_json "$T/img" -t "$(sectors_at 50 $((256 << 20)))"
	[ "$RS_STATUS" -eq 0 ]
	[ "$(rsv .moved.node)" -eq "$(jq -r .move.node "$T/plan.json")" ]
	[ "$(rsv .moved.data)" -eq "$(jq -r .move.data "$T/plan.json")" ]
	"$F2WALK" "$T/img" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/img"
}

@test "shrink a kernel-aged 512 MiB volume to 75% (partly valid segments; in place: only that leaves room)" {
	shrink_check aged 75
	# relocated areas would cost the segments they take; the data needs them
	[ "$(jq -r .in_place_because "$T/plan.json")" = "the data fits only with the areas kept where they are" ]
}

@test "shrink below the data is refused at once, the image byte-identical, the numbers named" {
	fixtures_require
	fixture_copy aged "$T/img"
	md5sum <"$T/img" >"$T/md5.before"
	run "$RESIZE" -t "$(sectors_at 55 $((512 << 20)))" "$T/img"
	[ "$status" -eq 1 ]
	[[ $output == *"$T/img"*"valid blocks do not fit"*"main segments leave users"* ]]
	# the numbers are the checkpoint's
	[[ $output == *"$("$F2SB" --cp "$T/img" | sed -n 's/^cp.valid_block_count=//p') valid blocks"* ]]
	md5sum <"$T/img" | cmp - "$T/md5.before"
	# -n says the same
	rs_json "$T/img" -n -t "$(sectors_at 55 $((512 << 20)))"
	[ "$RS_STATUS" -eq 1 ]
	[[ $(rsv .error) == *"valid blocks do not fit"* ]]
	md5sum <"$T/img" | cmp - "$T/md5.before"
}

@test "shrink refused when the blocks past the end find no free sections below it (relocated or in place)" {
	require_prog "$MKFS" "$F2AGE"
	make_image "$T/img" 512M
	run_mkfs "$MKFS" -f -q "$T/img"
	# 90% full, every other file deleted: the data fits 65% of the volume,
	# but half-valid segments everywhere leave too few free sections
	"$F2AGE" fill "$T/img" 90 2
	md5sum <"$T/img" >"$T/md5.before"
	run "$RESIZE" -t "$(sectors_at 65 $((512 << 20)))" "$T/img"
	[ "$status" -eq 1 ]
	[[ $output =~ moving\ [0-9]+\ block\(s\)\ past\ the\ new\ end\ needs\ [0-9]+\ free\ sections\ below\ it,\ [0-9]+\ are\ free ]]
	md5sum <"$T/img" | cmp - "$T/md5.before"
}

@test "grow -s a kernel-written 256 MiB volume to 3x: like the reference resize.f2fs -s, both fscks clean" {
	fixtures_require
	require_prog "$REF_RESIZE"
	fixture_copy casefold "$T/img"
	truncate -s $((768 << 20)) "$T/img"
	cp --sparse=always "$T/img" "$T/ref.img"
	"$F2WALK" "$T/img" >"$T/tree.before"
	rs_json "$T/img" -n -s
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ] && [ "$(rsv .relocate)" = null ]
	rs_json "$T/img" -s
	[ "$RS_STATUS" -eq 0 ]
	[ "$(sb_field "$T/img" block_count)" -eq $((768 << 8)) ]
	"$F2WALK" "$T/img" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/img"
	# The reference in safe mode keeps the areas too: the same superblock
	# geometry, and the same reserve, overprovision and user blocks in the
	# checkpoint (it moves its current segments to new ones, so its free
	# segment count is lower by those; ours counts what the SIT says).
	"$REF_RESIZE" -s "$T/ref.img" </dev/null >"$T/ref.out" 2>&1 || { cat "$T/ref.out"; false; }
	compare_geometry "$T/img" "$T/ref.img"
	compare_cp "$T/img" "$T/ref.img"
	# both volumes pass our fsck; the reference's own check of its result
	# passes every [FSCK] line but notes "Invalid CP CRC offset: 0" (its
	# resize leaves the pack not in use with a zero crc offset)
	"$FSCK" -n -f "$T/ref.img"
	"$REF_FSCK" --dry-run "$T/ref.img" </dev/null >"$T/ref.fsck" 2>&1
	grep -q '^\[FSCK\] other corrupted bugs *\[Ok..\]' "$T/ref.fsck"
	! grep -q '\[Fail\]\|\[ASSERT\]' "$T/ref.fsck" || false
}

@test "grow -s: the reserve is mkfs's for the new main area; only the area layout differs from mkfs" {
	fixtures_require
	require_prog "$MKFS"
	fixture_copy small "$T/img"
	truncate -s $((192 << 20)) "$T/img"
	rs_json "$T/img" -s
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ]
	both_fsck_clean "$T/img"
	# Our mkfs for 192 MiB lays out larger SIT/NAT/SSA areas (sized for
	# the device), so its main area starts later and is smaller; resize
	# -s keeps the areas of the 64 MiB volume.  Everything else of the
	# superblock is the same, and the reserve and overprovision are what
	# mkfs computes for the main area we have (f2_geometry_reserve),
	# checked here against our mkfs with -o of the ratio used.
	make_image "$T/mk.img" 192M
	run_mkfs "$MKFS" -f -q "$T/mk.img"
	"$F2SB" "$T/img" >"$T/ours.f"
	"$F2SB" "$T/mk.img" >"$T/mk.f"
	compare_field_files "$T/ours.f" "$T/mk.f" \
		"$F2_SB_IGNORE|^(segment_count_(sit|nat|ssa|main)|section_count|segment_count|(sit|nat|ssa|main)_blkaddr|uuid|volume_name.*|extension.*|hot_ext_count|feature|qf_ino.*|cp_payload)\$" ||
		{ cat "$T/ours.f"; false; }
	[ "$(sb_field "$T/mk.img" segment_count_ssa)" -ge "$(sb_field "$T/img" segment_count_ssa)" ]
}

@test "grow past what the areas address with -s: clamped to what they address" {
	fixtures_require
	fixture_copy basic "$T/img"
	truncate -s 3G "$T/img"
	rs_json "$T/img" -n -s
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .new.clamped)" = true ] && [ "$(rsv .relocate)" = null ]
	rs_json "$T/img" -s
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .new.clamped)" = true ]
	[ "$(sb_field "$T/img" segment_count_main)" -eq "$(rsv .new.max_main_segments)" ]
	[ "$(sb_field "$T/img" segment_count_ssa)" -eq 1 ]
	[ "$(sb_field "$T/img" segment_count_main)" -eq 512 ]
	[ "$(sb_field "$T/img" segment0_blkaddr)" -eq 512 ]
	both_fsck_clean "$T/img"
}

@test "grow to 3x past what the areas address: mkfs's areas for 3 GiB, relocated; like the reference's sizes" {
	fixtures_require
	require_prog "$MKFS" "$REF_RESIZE"
	local old_main_blk f
	fixture_copy basic "$T/img"
	truncate -s 3G "$T/img"
	cp --sparse=always "$T/img" "$T/ref.img"
	old_main_blk=$(sb_field "$T/img" main_blkaddr)
	"$F2WALK" "$T/img" >"$T/tree.before"
	rs_json "$T/img" -n
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ]
	[ "$(rsv .relocate.shift_segments)" -gt 0 ] && [ "$(rsv .move.blocks)" -gt 0 ]
	cp "$RS_JSON" "$T/plan.json"
	rs_json "$T/img"
	[ "$RS_STATUS" -eq 0 ]
	# -n predicted the blocks the run moved out of the first segments
	[ "$(rsv .moved.data)" -eq "$(jq -r .move.data "$T/plan.json")" ]
	[ "$(rsv .moved.node)" -eq "$(jq -r .move.node "$T/plan.json")" ]
	"$F2WALK" "$T/img" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/img"
	# segment0 is where the main area began; the areas follow
	[ "$(sb_field "$T/img" segment0_blkaddr)" -eq "$old_main_blk" ]
	[ "$(sb_field "$T/img" main_blkaddr)" -eq $((old_main_blk + $(rsv .relocate.shift_segments) * 512)) ]
	# Our mkfs for 3 GiB: the same SIT, NAT and SSA sizes, checkpoint
	# payload and sections; its areas start at block 512, ours where the
	# main area began (the old areas, before it, are unused), so our main
	# area is shorter by the old metadata segments.
	make_image "$T/mk.img" 3G
	run_mkfs "$MKFS" -f -q "$T/mk.img"
	for f in segment_count_sit segment_count_nat segment_count_ssa cp_payload segs_per_sec block_count; do
		[ "$(sb_field "$T/img" $f)" -eq "$(sb_field "$T/mk.img" $f)" ] || { echo "$f differs from mkfs"; return 1; }
	done
	[ $(( $(sb_field "$T/mk.img" segment_count_main) - $(sb_field "$T/img" segment_count_main) )) -eq \
	  $(( (old_main_blk - 512) / 512 )) ]
	# The reference resize.f2fs (not -s) rebuilds the areas in place from
	# block 512 (moving main-area data, with no commit point that keeps
	# the old volume): its area sizes are the same as ours and mkfs's;
	# segment0, the area addresses and so the main area's size differ as
	# above.  Both fscks pass its result (but the reference's note on the
	# pack it leaves without a crc, as for -s).
	"$REF_RESIZE" "$T/ref.img" </dev/null >"$T/ref.out" 2>&1 || { cat "$T/ref.out"; false; }
	for f in segment_count_sit segment_count_nat segment_count_ssa cp_payload block_count; do
		[ "$(sb_field "$T/img" $f)" -eq "$(sb_field "$T/ref.img" $f)" ] || { echo "$f differs from the reference"; return 1; }
	done
	[ "$(sb_field "$T/ref.img" segment_count_main)" -eq "$(sb_field "$T/mk.img" segment_count_main)" ]
	"$FSCK" -n -f "$T/ref.img"
	"$REF_FSCK" --dry-run "$T/ref.img" </dev/null >"$T/ref.fsck" 2>&1
	! grep -q '\[Fail\]\|\[ASSERT\]' "$T/ref.fsck" || false
}

@test "relocating grow refused when the first segments' blocks find no room, image identical" {
	require_prog "$MKFS" "$F2AGE"
	make_image "$T/img" 128M
	run_mkfs "$MKFS" -f -q "$T/img"
	"$F2AGE" fill "$T/img" 90
	truncate -s 8G "$T/img"
	md5sum <"$T/img" >"$T/md5.before"
	run "$RESIZE" "$T/img"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"out of the main area's start"*"free sections after them"* ]]
	md5sum <"$T/img" | cmp - "$T/md5.before"
}

@test "shrink then grow back: both fscks clean, the tree unchanged, mkfs's layout again" {
	fixtures_require
	local f
	fixture_copy sect "$T/img"
	"$F2SB" "$T/img" >"$T/sb.before"
	"$F2WALK" "$T/img" >"$T/tree.before"
	# the shrink puts the smaller areas at the start of the main area
	rs_json "$T/img" -t "$(sectors_at 55 $((1 << 30)))"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .relocate.placement)" = main_start ]
	[ "$(sb_field "$T/img" segment0_blkaddr)" -eq "$(sed -n 's/^main_blkaddr=//p' "$T/sb.before")" ]
	# growing back puts the areas where mkfs had them: the geometry is the
	# fixture's (mkfs's) again, no block moved
	rs_json "$T/img"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ] && [ "$(rsv .relocate.placement)" = mkfs ]
	[ "$(rsv .moved.blocks)" -eq 0 ]
	[ "$(sb_field "$T/img" segment_count_main)" -eq 496 ]
	for f in segment0_blkaddr cp_blkaddr sit_blkaddr nat_blkaddr ssa_blkaddr main_blkaddr \
		 segment_count segment_count_sit segment_count_nat segment_count_ssa cp_payload block_count; do
		[ "$(sb_field "$T/img" $f)" -eq "$(sed -n "s/^$f=//p" "$T/sb.before")" ] ||
			{ echo "$f differs from the fixture's"; return 1; }
	done
	"$F2WALK" "$T/img" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/img"
}

@test "grow twice (the areas relocated twice), then shrink to 2 GiB: clean, the tree unchanged" {
	fixtures_require
	local seg0
	fixture_copy basic "$T/img"
	"$F2WALK" "$T/img" >"$T/tree.before"
	truncate -s 3G "$T/img"
	rs_json "$T/img"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .relocate.shift_segments)" -gt 0 ]
	seg0=$(sb_field "$T/img" segment0_blkaddr)
	truncate -s 12G "$T/img"
	rs_json "$T/img"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .relocate.segment0_blkaddr)" -gt "$seg0" ]
	both_fsck_clean "$T/img"
	rs_json "$T/img" -t $((2 << 21))
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = shrink ]
	[ "$(sb_field "$T/img" block_count)" -eq $((2 << 18)) ]
	"$F2WALK" "$T/img" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/img"
}

@test "a mounted image is refused by name, nothing written" {
	require_prog "$MKFS"
	make_image "$T/img" 64M
	run_mkfs "$MKFS" -f -q "$T/img"
	md5sum <"$T/img" >"$T/md5.before"
	printf '%s /mnt/x f2fs rw 0 0\n' "$T/img" >"$T/mounts"
	F2_PROC_MOUNTS=$T/mounts run "$RESIZE" -t 100000 "$T/img"
	[ "$status" -eq 8 ]
	[[ $output == *"$T/img is mounted on /mnt/x"* ]]
	md5sum <"$T/img" | cmp - "$T/md5.before"
}

@test "a multi-device volume shrinks within its last device, below it refused by name; grows back" {
	local segs
	require_prog "$MKFS" "$F2AGE"
	make_image "$T/a" 64M
	make_image "$T/b" 64M
	run_mkfs "$MKFS" -f -q -c "$T/b" "$T/a"
	"$F2AGE" fill "$T/a" 60 2 >/dev/null
	"$F2WALK" "$T/a" >"$T/tree.before"
	md5sum "$T/a" "$T/b" >"$T/md5.before"
	# the new end in the first device: refused, nothing written
	run "$RESIZE" -t $((50 << 11)) "$T/a"
	[ "$status" -eq 8 ]
	[[ $output == *"$T/a"*"must lie in its last device $T/b"* ]]
	md5sum -c --quiet "$T/md5.before"
	# within the second: blocks moved off its end, it loses the segments
	rs_json "$T/a" -n -t $((100 << 11))
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .move.blocks)" -gt 0 ]
	cp "$RS_JSON" "$T/plan.json"
	segs=$(sb_field "$T/a" 'devs\[1\].total_segments')
	rs_json "$T/a" -t $((100 << 11))
	[ "$RS_STATUS" -eq 0 ]
	[ "$(rsv .moved.blocks)" -eq "$(jq -r .move.blocks "$T/plan.json")" ]
	[ "$(sb_field "$T/a" 'devs\[1\].total_segments')" -eq \
	  $((segs - $(rsv .old.main_segments) + $(rsv .new.main_segments))) ]
	[ "$(sb_field "$T/a" block_count)" -eq $((100 << 8)) ]
	"$F2WALK" "$T/a" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/a"
	# growing back (the default target: the last device whole) gives the
	# last device its segments again
	rs_json "$T/a"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ] && [ "$(rsv .error)" = null ]
	[ "$(sb_field "$T/a" 'devs\[1\].total_segments')" -eq "$segs" ]
	[ "$(sb_field "$T/a" block_count)" -eq $((128 << 8)) ]
	"$F2WALK" "$T/a" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/a"
}

@test "a multi-device volume grows by what its last device gained; past what its SIT and SSA address refused by name, -s clamps" {
	local segs main
	require_prog "$MKFS" "$F2AGE"
	make_image "$T/a" 64M
	make_image "$T/b" 64M
	run_mkfs "$MKFS" -f -q -c "$T/b" "$T/a"
	"$F2AGE" fill "$T/a" 60 2 >/dev/null
	"$F2WALK" "$T/a" >"$T/tree.before"
	segs=$(sb_field "$T/a" 'devs\[1\].total_segments')
	main=$(sb_field "$T/a" segment_count_main)
	# the first device is not the one that grows: nothing to do
	truncate -s 96M "$T/a"
	rs_json "$T/a" -n
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = none ]
	truncate -s 64M "$T/a"
	# the last device 32 MiB larger: 16 more segments, there
	truncate -s 96M "$T/b"
	rs_json "$T/a" -n
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .kind)" = grow ] && [ "$(rsv .new.main_segments)" -eq $((main + 16)) ]
	rs_json "$T/a"
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .error)" = null ]
	[ "$(sb_field "$T/a" segment_count_main)" -eq $((main + 16)) ]
	[ "$(sb_field "$T/a" 'devs\[1\].total_segments')" -eq $((segs + 16)) ]
	[ "$(sb_field "$T/a" 'devs\[0\].total_segments')" -eq 31 ]
	[ "$(sb_field "$T/a" block_count)" -eq $((160 << 8)) ]
	"$F2WALK" "$T/a" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/a"
	# a target past the devices' end
	run "$RESIZE" -t $((200 << 11)) "$T/a"
	[ "$status" -eq 8 ]
	[[ $output == *"beyond its end"* ]]
	# 2 GiB: past what the one SSA segment addresses (512 main segments);
	# relocating the areas of a multi-device volume is refused by name
	truncate -s 2G "$T/b"
	md5sum "$T/a" >"$T/md5.before"
	run "$RESIZE" "$T/a"
	[ "$status" -eq 8 ]
	[[ $output == *"growing a multi-device volume (2 devices) past what its SIT and SSA address (512 main segments) is not supported"* ]]
	md5sum -c --quiet "$T/md5.before"
	rs_json "$T/a" -s
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .error)" = null ]
	[ "$(sb_field "$T/a" segment_count_main)" -eq 512 ]
	[ "$(sb_field "$T/a" 'devs\[1\].total_segments')" -eq $((segs + 512 - main)) ]
	"$F2WALK" "$T/a" >"$T/tree.after"
	diff "$T/tree.before" "$T/tree.after"
	both_fsck_clean "$T/a"
}

@test "options: --help, -V, usage errors, a target beyond the device, an unclean volume" {
	local flags
	require_prog "$MKFS"
	run "$RESIZE" --help
	[ "$status" -eq 0 ] && [[ $output == *"-t, --target SECTORS"* ]]
	run "$RESIZE" -V
	[ "$status" -eq 0 ] && [[ $output == "resize.f2fs (f2fs-progs) "* ]]
	run "$RESIZE" -x img
	[ "$status" -eq 16 ]
	run "$RESIZE" -o 150 img
	[ "$status" -eq 16 ]
	run "$RESIZE"
	[ "$status" -eq 16 ]
	make_image "$T/img" 64M
	run_mkfs "$MKFS" -f -q "$T/img"
	run "$RESIZE" -t $((64 << 11 + 1)) "$T/img"
	[ "$status" -eq 8 ] && [[ $output == *"$T/img: target"*"beyond its end"* ]]
	run "$RESIZE" -t 1000 "$T/img"
	[ "$status" -eq 8 ] && [[ $output == *"$T/img"*"leave no main area"* ]]
	# -o: the overprovision asked for
	rs_json "$T/img" -n -o 20 -t $((48 << 11))
	[ "$RS_STATUS" -eq 0 ] && [ "$(rsv .new.overprovision_ratio)" = 20.000 ]
	# a volume not unmounted cleanly: refused (but -n plans)
	require_prog "$F2FIELD"
	flags=$("$F2FIELD" "$T/img" get cp.ckpt_flags | awk '{ print $3 }')
	"$F2FIELD" "$T/img" set cp.ckpt_flags $((flags & ~1)) && "$F2FIELD" "$T/img" fixcrc cp
	run "$RESIZE" -t $((48 << 11)) "$T/img"
	[ "$status" -eq 8 ] && [[ $output == *"not unmounted cleanly"* ]]
}
