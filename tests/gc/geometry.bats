#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/geometry.bats - gc.f2fs on images aged by our write engine
# (tests/tools/f2age: files with generated contents, every other or third
# one deleted): sections of 2 segments, and a nearly full volume where the
# victims' blocks only fit if checkpoints free the sections cleaned so far.
# After cleaning: both fscks clean, every file reads back as generated;
# and the same after replaying prefixes of a cleaning run's write log.
load ../lib/common
load helpers

AGE=${AGE:-$F2AGE}
REPLAY=${REPLAY:-$F2REPLAY}

setup() {
	require_prog "$GC" "$MKFS" "$AGE" "$FSCK" "$REF_FSCK" "$REPLAY"
}

# aged_image SIZE PCT EVERY MKFS_OPTS...: $IMG
aged_image() {
	local size=$1 pct=$2 every=$3; shift 3
	IMG=$(f2_tmp)/aged.img
	make_image "$IMG" "$size"
	run_mkfs "$MKFS" -f "$@" "$IMG"
	"$AGE" fill "$IMG" "$pct" "$every"
	"$AGE" check "$IMG"
}

@test "geometry: the checker fails on a damaged file (it can tell)" {
	aged_image 128M 80 2
	local addr main0
	main0=$("$DUMP" --json "$IMG" 2>/dev/null | jq -r .superblock.main_blkaddr)
	# the first data block of /age/f1 (a 64 KiB file), from dump.f2fs --stat
	addr=$("$DUMP" --stat /age/f1 "$IMG" 2>/dev/null |
		awk -v m="$main0" '/^i_addr\[/ { v = $NF; sub(/\]$/, "", v); if (v + 0 >= m) { print v; exit } }')
	[ -n "$addr" ] || { echo "no data address for /age/f1"; return 1; }
	dd if=/dev/zero of="$IMG" bs=4096 seek="$addr" count=1 conv=notrunc 2>/dev/null
	run "$AGE" check "$IMG"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"f1: content differs"* ]]
}

@test "geometry: sections of 2 segments: plan, clean, files intact" {
	aged_image 512M 90 2 -s 2
	gc_json "$IMG"
	[ "$(jqv .geometry.segs_per_sec)" -eq 2 ]
	[ "$(jqv .before.dirty_sections)" -ge 20 ]
	check_plan_consistent
	jqv '.victims[].section' >"$(f2_tmp)/predicted"
	local plan_free=$(jqv .predicted.free_sections_after)
	"$GC" --json --no-progress -c 100000 "$IMG" >"$(f2_tmp)/run.json"
	GC_JSON=$(f2_tmp)/run.json
	jqv '.victims[].section' | diff "$(f2_tmp)/predicted" -
	[ "$(jqv .result.free_sections_after)" -ge "$plan_free" ]
	"$AGE" check "$IMG"
	ref_fsck_clean "$IMG"
	"$FSCK" -f -n "$IMG"
}

@test "geometry: nearly full volume: checkpoints free cleaned sections as the run goes" {
	aged_image 256M 97 3
	local free need
	gc_json "$IMG"
	free=$(jqv .before.free_sections)
	need=$(jqv .predicted.sections_filled)
	echo "free $free, the moved blocks fill $need"
	# the test only means something if the blocks do not fit at once
	[ "$need" -gt "$free" ]
	run "$GC" --no-progress -c 100000 "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"result: $(jqv .predicted.sections_cleaned) sections cleaned"* ]]
	"$AGE" check "$IMG"
	ref_fsck_clean "$IMG"
	"$FSCK" -f -n "$IMG"
}

@test "geometry: crash at 12 evenly spaced writes, around every checkpoint, torn heads: old or new state, clean" {
	aged_image 128M 85 2
	local orig=$(f2_tmp)/orig.img log=$(f2_tmp)/run.log p=$(f2_tmp)/p.img total step n f i
	local -a flushes prefixes=()
	cp --sparse=always "$IMG" "$orig"
	F2_IO_RECORD=$log "$GC" --no-progress -c 8 "$IMG" >/dev/null
	total=$("$REPLAY" count "$log")
	mapfile -t flushes < <("$REPLAY" list "$log" | awk '$2 == "flush" { print $1 }')
	[ "${#flushes[@]}" -ge 6 ] || { echo "expected 3+ checkpoints: ${flushes[*]}"; return 1; }
	step=$((total / 12))
	for ((n = step; n < total; n += step)); do prefixes+=("$n"); done
	# each checkpoint: body flushed (head not written), head written but not
	# its tail, head torn after 100 bytes, complete (second flush)
	for ((i = 0; i + 1 < ${#flushes[@]}; i += 2)); do
		f=${flushes[$i]}
		prefixes+=("$((f - 1))" "$((f + 1))" "$f:100" "${flushes[$((i + 1))]}")
	done
	prefixes+=("$total")
	for n in "${prefixes[@]}"; do
		cp --sparse=always "$orig" "$p"
		"$REPLAY" apply "$log" "$p" "${n%%:*}" $([[ $n == *:* ]] && echo "${n#*:}") ||
			{ echo "replay $n failed"; return 1; }
		"$AGE" check "$p" >/dev/null || { echo "prefix $n: files differ"; "$AGE" check "$p"; return 1; }
		"$FSCK" -f -n "$p" >/dev/null || { echo "prefix $n: our fsck"; "$FSCK" -f -n "$p"; return 1; }
		ref_fsck_clean_after_crash "$p" || { echo "prefix $n"; return 1; }
	done
	echo "${#prefixes[@]} prefixes of $total writes"
}
