#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/aged.bats - gc.f2fs -n on the aged fixture (tests/lib/fixtures.bash:
# written by the Linux 6.1 driver, filled, half deleted, partly rewritten,
# refilled: many partly valid segments).  The victim order is checked
# against independent computations: greedy from the reference dump.f2fs's
# SIT dump and checkpoint (f2fs-tools, another implementation), and
# cost-benefit from the 6.1 formula evaluated in awk over dump.f2fs --json
# SIT mtimes.  Also: targets, owners, JSON consistency, and that -n never
# writes.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load helpers

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

setup() {
	fixtures_require
	require_prog "$GC" "$DUMP" "$REF_DUMP"
	IMG=$BATS_FILE_TMPDIR/aged.img
	[ -f "$IMG" ] || fixture_copy aged "$IMG"
}

# ref_sections: "segno vblocks" for every main segment, from the reference
# dump.f2fs (it writes ./dump_sit), and REF_CUR: its current segments
ref_sections() {
	local d=$BATS_FILE_TMPDIR/ref
	mkdir -p "$d"
	if [ ! -s "$d/sections" ]; then
		cp --sparse=always "$IMG" "$d/copy.img"
		(cd "$d" && "$REF_DUMP" -d 1 -s 0~-1 copy.img </dev/null >dump.out 2>&1)
		sed -n 's/^segno: *\([0-9]*\)[[:space:]]*vblocks: *\([0-9]*\).*/\1 \2/p' \
			"$d/dump_sit" >"$d/sections"
		sed -n 's/^cur_\(node\|data\)_segno\[[0-2]\][^:]*: *\([0-9]*\)\]$/\2/p' \
			"$d/dump.out" | sort -un >"$d/cur"
		rm -f "$d/copy.img"
	fi
	cat "$d/sections"
}

@test "aged: the fixture has many partly valid sections (the test is meaningful)" {
	gc_json "$IMG"
	[ "$GC_STATUS" -eq 0 ]
	[ "$(jqv .geometry.segs_per_sec)" -eq 1 ]
	[ "$(jqv .before.dirty_sections)" -ge 40 ]
	check_plan_consistent
}

@test "aged: greedy victims = the reference dump's partly valid segments by valid count" {
	local d=$BATS_FILE_TMPDIR/ref
	ref_sections >/dev/null
	[ "$(wc -l <"$d/sections")" -gt 60 ]
	[ "$(wc -l <"$d/cur")" -ge 3 ]
	awk 'NR == FNR { cur[$1] = 1; next }
	     $2 > 0 && $2 < 512 && !($1 in cur) { print $2, $1 }' "$d/cur" "$d/sections" |
		sort -k1,1n -k2,2n | awk '{ print $2, $1 }' >"$d/greedy.want"
	gc_json "$IMG" --policy greedy
	jqv '.victims[] | "\(.section) \(.valid)"' >"$d/greedy.got"
	diff "$d/greedy.want" "$d/greedy.got"
	[ "$(jqv .before.current_sections)" -eq "$(wc -l <"$d/cur")" ]
}

@test "aged: cost-benefit victims = the 6.1 formula over the SIT mtimes" {
	local d=$BATS_FILE_TMPDIR/cb
	mkdir -p "$d"
	"$DUMP" --json -s 0~-1 "$IMG" 2>/dev/null >"$d/sit.json"
	jq -r '.checkpoint | to_entries[] | select(.key | test("^cur_(node|data)_segno")) | .value' \
		"$d/sit.json" | sort -un >"$d/cur"
	jq -r '.checkpoint.elapsed_time' "$d/sit.json" >"$d/elapsed"
	jq -r '.sit[] | "\(.segno) \(.vblocks) \(.mtime)"' "$d/sit.json" >"$d/segs"
	gc_json "$IMG"
	[ "$(wc -l <"$d/segs")" -eq "$(jqv .geometry.sections)" ]
	awk -v elapsed="$(cat "$d/elapsed")" '
		NR == FNR { cur[$1] = 1; next }
		{ seg[$1] = $2; mt[$1] = $3
		  if (min == "" || $3 < min) min = $3
		  if ($3 > max) max = $3 }
		END {
			if (elapsed > max) max = elapsed
			for (s in seg) {
				v = seg[s]
				if (v == 0 || v >= 512 || (s in cur)) continue
				u = int(v * 100 / 512)
				age = 0
				if (max != min) age = 100 - int(100 * (mt[s] - min) / (max - min))
				cost = 4294967295 - int(100 * (100 - u) * age / (100 + u))
				printf "%.0f %d %d\n", cost, s, v
			}
		}' "$d/cur" "$d/segs" | sort -k1,1n -k2,2n | awk '{ print $2, $3, $1 }' >"$d/want"
	gc_json "$IMG" --policy cost-benefit
	jqv '.victims[] | "\(.section) \(.valid) \(.cost)"' >"$d/got"
	[ -s "$d/want" ]
	diff "$d/want" "$d/got"
	# the two policies disagree somewhere on this image (the test can tell them apart)
	gc_json "$IMG" --policy greedy
	! diff -q <(cut -d' ' -f1 "$d/want") <(jqv '.victims[].section') >/dev/null || false
}

@test "aged: --target-free takes the fewest victims that reach the target" {
	local free t n sum
	gc_json "$IMG"
	free=$(jqv .before.free_sections)
	t=$((free + 10))
	gc_json "$IMG" --target-free "$t"
	[ "$GC_STATUS" -eq 0 ]
	[ "$(jqv .predicted.target_reached)" = true ]
	[ "$(jqv .predicted.free_sections_after)" -ge "$t" ]
	n=$(jqv '.victims | length')
	[ "$n" -ge 5 ]
	check_plan_consistent
	# one victim fewer would not do
	gc_json "$IMG" --max-sections $((n - 1))
	[ "$(jqv .predicted.free_sections_after)" -lt "$t" ]
}

@test "aged: --max-sections and --until-utilization" {
	gc_json "$IMG" --max-sections 7 -p cost-benefit
	[ "$(jqv '.victims | length')" -eq 7 ]
	[ "$GC_STATUS" -eq 0 ]
	check_plan_consistent
	gc_json "$IMG" --until-utilization 90
	[ "$GC_STATUS" -eq 0 ]
	local valid nsecs after n
	valid=$(jqv .before.valid_blocks)
	nsecs=$(jqv .geometry.sections)
	after=$(jqv .predicted.free_sections_after)
	n=$(jqv '.victims | length')
	[ "$n" -ge 1 ]
	# used sections at least 90% full on average after the plan
	[ $((valid * 100)) -ge $((90 * (nsecs - after) * 512)) ]
	check_plan_consistent
	# 100% cannot be met on this image (current segments are partly empty)
	gc_json "$IMG" --until-utilization 100
	[ "$GC_STATUS" -eq 1 ]
}

@test "aged: owners of every victim block point back (the kernel left no stale block)" {
	gc_json "$IMG"
	[ "$(jqv .owners.stale)" -eq 0 ]
	[ "$(jqv .owners.bad)" -eq 0 ]
	[ "$(jqv '.owners.alive_data + .owners.alive_node')" -eq "$(jqv .predicted.sit_valid_blocks)" ]
	[ "$(jqv .owners.alive_node)" -eq "$(jqv .predicted.sit_node_blocks)" ]
	[ "$(jqv .owners.nodes_updated)" -ge 1 ]
	[ "$(jqv .predicted.blocks_written)" -eq "$(jqv '.predicted.blocks_moved + .owners.nodes_updated')" ]
	gc_json "$IMG" --no-owner-check
	[ "$(jqv .owners)" = null ]
}

@test "aged: -n never writes (sha256 before and after, every mode)" {
	local before
	before=$(img_sum "$IMG")
	"$GC" -n --no-progress "$IMG" >/dev/null
	"$GC" -n -v -p cost-benefit "$IMG" >/dev/null
	"$GC" -n --json -t 200 "$IMG" >/dev/null || true
	"$DEFRAG" -n -s 0 -l 0x4000 "$IMG" >/dev/null
	[ "$(img_sum "$IMG")" = "$before" ]
	[ "$(img_sum "$F2_FIXTURES/aged.img")" = "$before" ]
}

@test "aged: text report: victims listed (-v lists them all), histogram before/after" {
	run "$GC" -n --no-progress "$IMG"
	[ "$status" -eq 0 ]
	[[ $output == *"victims: "*" sections, in cleaning order"* ]]
	[[ $output == *"more (-v lists them all)"* ]]
	[[ $output == *"section utilisation"* ]]
	[[ $output == *"write amplification 0."* || $output == *"write amplification 1."* ]]
	local n
	n=$("$GC" -n -v --no-progress "$IMG" | awk '/in cleaning order/ { on = 1; getline; next }
		on && /^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+% +[0-9]+$/ { c++ } END { print c + 0 }')
	gc_json "$IMG"
	[ "$n" -eq "$(jqv '.victims | length')" ]
}

@test "aged: defrag -n --file reports a file's extents" {
	local f
	f=$(awk -F'\t' '$2 == "f" && $6 > 1000000 { print substr($1, 2); exit }' "$F2_FIXTURES/aged.manifest")
	[ -n "$f" ]
	run "$DEFRAG" -n --file "$f" "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output =~ :\ ([0-9]+)\ data\ blocks\ in\ ([0-9]+)\ extent ]]
	local size
	size=$(awk -F'\t' -v p=".$f" '$1 == p { print $6 }' "$F2_FIXTURES/aged.manifest")
	[ "${BASH_REMATCH[1]}" -eq $(( (size + 4095) / 4096 )) ]
	[ "${BASH_REMATCH[2]}" -ge 1 ]
}
