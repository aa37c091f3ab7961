#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/gc.bats - gc.f2fs and defrag.f2fs on the host: option parsing,
# refusals (mounted device through a fake mount table; defrag's moving is
# not implemented), and -n on empty images from our mkfs and the reference mkfs
# (nothing to clean), never writing.
load ../lib/common
load helpers

setup() {
	require_prog "$GC" "$DEFRAG" "$MKFS"
	command -v jq >/dev/null || { echo "jq is needed"; return 1; }
}

ours_img() {
	IMG=$(f2_tmp)/ours.img
	make_image "$IMG" 256M && run_mkfs "$MKFS" -f "$IMG"
}

@test "gc: --help lists the options, -V prints the version, both exit 0" {
	run "$GC" --help
	[ "$status" -eq 0 ]
	for o in --policy --target-free --until-utilization --max-sections --dry-run --json; do
		[[ $output == *"$o"* ]] || { echo "missing $o"; return 1; }
	done
	run "$GC" -V
	[ "$status" -eq 0 ]
	[[ $output == "gc.f2fs (f2fs-progs) "* ]]
	run "$DEFRAG" -V
	[ "$status" -eq 0 ]
	[[ $output == "defrag.f2fs (f2fs-progs) "* ]]
}

@test "gc: usage errors exit 16 and name the problem" {
	local img=$(f2_tmp)/none.img
	run "$GC" -n
	[ "$status" -eq 16 ] && [[ $output == *"no device given"* ]]
	run "$GC" -n --policy lazy "$img"
	[ "$status" -eq 16 ] && [[ $output == *"unknown policy 'lazy'"* ]]
	run "$GC" -n -u 101 "$img"
	[ "$status" -eq 16 ] && [[ $output == *"utilization"* ]]
	run "$GC" -n -t 0 "$img"
	[ "$status" -eq 16 ]
	run "$GC" -n -t 12x "$img"
	[ "$status" -eq 16 ] && [[ $output == *"invalid number of free sections '12x'"* ]]
	run "$GC" -n -m -3 "$img"
	[ "$status" -eq 16 ]
	run "$GC" --no-owner-check "$img"
	[ "$status" -eq 16 ] && [[ $output == *"only goes with -n"* ]]
	run "$GC" -n "$img" extra
	[ "$status" -eq 16 ] && [[ $output == *"unexpected argument 'extra'"* ]]
	run "$GC" --bogus "$img"
	[ "$status" -eq 16 ] && [[ $output == *"unknown option"* ]]
	run "$GC" -n --policy
	[ "$status" -eq 16 ] && [[ $output == *"needs an argument"* ]]
}

@test "gc: a missing device is an operational error (8)" {
	run "$GC" -n "$(f2_tmp)/does-not-exist.img"
	[ "$status" -eq 8 ]
	[[ $output == *"does-not-exist.img"* ]]
}

@test "gc: -n on an empty image from our mkfs: nothing to clean, exit 0, no write" {
	ours_img
	local before=$(img_sum "$IMG")
	run "$GC" -n --no-progress "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"nothing to clean: no section is partly valid"* ]]
	[[ $output == *"0 sections cleaned, 0 blocks moved"* ]]
	[[ $output == *"write amplification -"* ]]
	gc_json "$IMG" -p cost-benefit
	[ "$GC_STATUS" -eq 0 ]
	[ "$(jqv '.victims | length')" -eq 0 ]
	[ "$(jqv .before.dirty_sections)" -eq 0 ]
	[ "$(jqv .predicted.write_amplification)" = null ]
	[ "$(jqv .policy)" = cost-benefit ]
	check_plan_consistent
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "gc: -n on an empty image from the reference mkfs: nothing to clean" {
	require_prog "$REF_MKFS"
	IMG=$(f2_tmp)/ref.img
	make_image "$IMG" 256M
	run_mkfs "$REF_MKFS" -f -s 2 "$IMG"
	local before=$(img_sum "$IMG")
	gc_json "$IMG"
	[ "$GC_STATUS" -eq 0 ]
	[ "$(jqv .geometry.segs_per_sec)" -eq 2 ]
	[ "$(jqv .geometry.blocks_per_section)" -eq 1024 ]
	[ "$(jqv '.victims | length')" -eq 0 ]
	check_plan_consistent
	run "$GC" -n "$IMG"
	[[ $output == *"nothing to clean"* ]]
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "gc: a free-section target above what the volume has: exit 1, plan still reported" {
	ours_img
	gc_json "$IMG" --target-free 100000
	[ "$GC_STATUS" -eq 1 ]
	[ "$(jqv .predicted.target_reached)" = false ]
	[ "$(jqv .target.free_sections)" -eq 100000 ]
	run "$GC" -n -t 100000 "$IMG"
	[ "$status" -eq 1 ]
	[[ $output == *"target not reachable"* ]]
}

@test "gc: without -n on an empty image: nothing to move, nothing written; defrag of an empty range: nothing written" {
	ours_img
	local before=$(img_sum "$IMG")
	run "$GC" --no-progress "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"nothing to clean"* ]]
	[[ $output == *"result: 0 sections cleaned"* ]]
	# the last segments hold nothing: no write, a report of 0 moved
	local main0 nseg
	main0=$("$DUMP" --json "$IMG" 2>/dev/null | jq -r .superblock.main_blkaddr)
	nseg=$("$DUMP" --json "$IMG" 2>/dev/null | jq -r .superblock.segment_count_main)
	run "$DEFRAG" -s $((main0 + (nseg - 2) * 512)) -l 512 -t $((main0 + 512)) -i "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *": 0 valid blocks before, 0 data and 0 node blocks moved, 0 skipped, 0 valid blocks left"* ]]
	run "$DEFRAG" --file /nothing "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"/nothing: no such file in the volume"* ]]
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "gc: a mounted image is refused (fake mount table), -n too, defrag too" {
	ours_img
	local tab=$(f2_tmp)/mounts
	echo "$IMG /mnt/x f2fs rw 0 0" >"$tab"
	F2_PROC_MOUNTS=$tab run "$GC" -n "$IMG"
	echo "$output"
	[ "$status" -eq 8 ]
	[[ $output == *"is mounted on /mnt/x"* ]]
	F2_PROC_MOUNTS=$tab run "$GC" "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"mounted on /mnt/x"* ]]
	F2_PROC_MOUNTS=$tab run "$DEFRAG" -n "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"mounted on /mnt/x"* ]]
	# another file in the table: not refused
	echo "$(f2_tmp)/other.img /mnt/y f2fs rw 0 0" >"$tab"
	touch "$(f2_tmp)/other.img"
	F2_PROC_MOUNTS=$tab run "$GC" -n "$IMG"
	[ "$status" -eq 0 ]
}

@test "defrag: the reference options: defaults, hex, range rules" {
	ours_img
	local main0
	main0=$("$DUMP" --json "$IMG" 2>/dev/null | jq -r .superblock.main_blkaddr)
	[ -n "$main0" ] && [ "$main0" -gt 0 ]
	run "$DEFRAG" -n "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"move [0x$(printf %x "$main0")-0x$(printf %x $((main0 + 511)))] to the right of 0x$(printf %x $((main0 + 512)))"* ]]
	run "$DEFRAG" -n -i -s $((main0 + 1024)) -l 0x10 -d 1 -S "$IMG"
	[ "$status" -eq 0 ]
	[[ $output == *"move [0x$(printf %x $((main0 + 1024)))-0x$(printf %x $((main0 + 1039)))] to the left of 0x$(printf %x $((main0 + 1023)))"* ]]
	# target inside the range
	run "$DEFRAG" -n -s $((main0 + 100)) -l 10 -t $((main0 + 105)) "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"out of range"* ]]
	# target before the main area
	run "$DEFRAG" -n -s $((main0 + 100)) -t 5 "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"out of range"* ]]
	# start beyond the volume
	run "$DEFRAG" -n -s 0x7fffffff "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"out of range"* ]]
	run "$DEFRAG" -n -s 12q "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"invalid start block address '12q'"* ]]
	run "$DEFRAG" -n --file relative "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"absolute path"* ]]
	run "$DEFRAG" -n --file /a -s 5 "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"does not go with"* ]]
	run "$DEFRAG" -n --file /missing "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"/missing: no such file"* ]]
	run "$DEFRAG" -n --file / "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"not a regular file"* ]]
}

@test "defrag: -n on the root directory's range counts its valid blocks, alive" {
	ours_img
	local main0 cur
	# the checkpoint's hot node and hot data segments hold the root's blocks
	cur=$("$DUMP" --json "$IMG" 2>/dev/null | jq -r '.checkpoint["cur_node_segno[0]"]')
	main0=$("$DUMP" --json "$IMG" 2>/dev/null | jq -r .superblock.main_blkaddr)
	run "$DEFRAG" -n -s $((main0 + cur * 512)) -l 512 "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output =~ valid\ blocks\ in\ the\ range:\ ([0-9]+)\ to\ move,\ 0\ stale,\ 0\ with ]]
	[ "${BASH_REMATCH[1]}" -ge 1 ]
}

@test "gc: a multi-device volume (mkfs -c): gc and defrag move blocks across the devices, clean, content intact" {
	local d0=$(f2_tmp)/m0.img d1=$(f2_tmp)/m1.img x=$(f2_tmp)/mx main0 dev0_segs
	make_image "$d0" 64M && make_image "$d1" 64M
	run_mkfs "$MKFS" -f -q -c "$d1" "$d0"
	"$F2_BUILD/tests/tools/f2age" fill "$d0" 60 2
	"$DUMP" --extract / --output "$x.0" "$d0" >/dev/null 2>&1
	main0=$("$DUMP" --json "$d0" 2>/dev/null | jq -r .superblock.main_blkaddr)
	# segments below dev0_segs lie on the first device
	dev0_segs=$(( ($(stat -c %s "$d0") / 4096 - main0) / 512 ))
	used() { "$DUMP" --json -s 0~-1 "$d0" 2>/dev/null | jq -r '.sit[] | select(.vblocks > 0) | .segno'; }
	# the aged files' data lies on the second device
	[ "$(used | awk -v d="$dev0_segs" '$1 >= d' | wc -l)" -ge 10 ]
	run "$GC" --no-progress "$d0"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output =~ result:\ ([0-9]+)\ sections\ cleaned ]] && [ "${BASH_REMATCH[1]}" -ge 10 ]
	# cleaned sections of the second device, moved blocks now on the first
	[ "$(used | awk -v d="$dev0_segs" '$1 >= 4 && $1 < d' | wc -l)" -ge 5 ]
	"$FSCK" -f -n "$d0"
	ref_fsck_clean "$d0"
	"$DUMP" --extract / --output "$x.1" "$d0" >/dev/null 2>&1
	diff -r "$x.0" "$x.1"
	# and back: the first device's main area to the second device
	run "$DEFRAG" -s "$main0" -l $((dev0_segs * 512)) -t $((main0 + dev0_segs * 512)) "$d0"
	echo "$output"
	[ "$status" -eq 0 ] && [[ $output == *" 0 skipped, 0 valid blocks left"* ]]
	[ "$(used | awk -v d="$dev0_segs" '$1 < d' | wc -l)" -eq 0 ]
	"$FSCK" -f -n "$d0"
	ref_fsck_clean "$d0"
	"$DUMP" --extract / --output "$x.2" "$d0" >/dev/null 2>&1
	diff -r "$x.0" "$x.2"
	# the recording backend covers the joined devices: one version-2 log
	F2_IO_RECORD=$(f2_tmp)/m.log run "$GC" "$d0"
	[ "$status" -eq 0 ] && [ "$(head -c 8 "$(f2_tmp)/m.log")" = F2IOLOG2 ]
}

@test "gc: moving refuses a volume not unmounted cleanly or marked for fsck; -n works" {
	local f2field=$F2_BUILD/tests/tools/f2field flags before
	require_prog "$f2field"
	ours_img
	flags=$("$f2field" "$IMG" get cp.ckpt_flags | awk '{ print $3 }')
	[ $((flags & 1)) -eq 1 ]
	"$f2field" "$IMG" set cp.ckpt_flags $((flags & ~1)) && "$f2field" "$IMG" fixcrc cp
	before=$(img_sum "$IMG")
	run "$GC" "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"was not unmounted cleanly"* ]]
	run "$DEFRAG" --file /x "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"was not unmounted cleanly"* ]]
	run "$GC" -n "$IMG"
	[ "$status" -eq 0 ]
	"$f2field" "$IMG" set cp.ckpt_flags $((flags | 0x10)) && "$f2field" "$IMG" fixcrc cp
	before=$(img_sum "$IMG")
	run "$GC" "$IMG"
	[ "$status" -eq 8 ] && [[ $output == *"needing fsck"* ]]
	[ "$(img_sum "$IMG")" = "$before" ]
}
