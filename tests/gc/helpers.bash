# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/helpers.bash - shared by the gc.f2fs / defrag.f2fs suites.
GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}
REF_DUMP=${REF_DUMP:-/sbin/dump.f2fs}

# gc_json IMG ARGS...: gc.f2fs -n --json ... IMG into $GC_JSON; status kept
gc_json() {
	local img=$1; shift
	GC_JSON=$(f2_tmp)/gc.$RANDOM.json
	GC_STATUS=0
	"$GC" -n --json --no-progress "$@" "$img" >"$GC_JSON" 2>"$GC_JSON.err" || GC_STATUS=$?
	jq -e . "$GC_JSON" >/dev/null || { echo "not JSON:"; cat "$GC_JSON" "$GC_JSON.err"; return 1; }
}

# jqv EXPR: evaluate EXPR on $GC_JSON (raw)
jqv() { jq -r "$1" "$GC_JSON"; }

# check_plan_consistent: the numbers of one report agree with each other
check_plan_consistent() {
	local n sum hb ha cur nsecs free fill
	n=$(jqv '.victims | length')
	[ "$n" -eq "$(jqv .predicted.sections_cleaned)" ] || { echo "victim count"; return 1; }
	sum=$(jqv '[.victims[].valid] | add // 0')
	[ "$sum" -eq "$(jqv .predicted.sit_valid_blocks)" ] || { echo "valid sum $sum"; return 1; }
	nsecs=$(jqv .geometry.sections)
	cur=$(jqv .before.current_sections)
	hb=$(jqv '.histogram.before | add')
	ha=$(jqv '.histogram.after | add')
	[ "$hb" -eq $((nsecs - cur)) ] && [ "$ha" -eq $((nsecs - cur)) ] ||
		{ echo "histogram sums $hb $ha, want $((nsecs - cur))"; return 1; }
	[ "$(jqv '.histogram.before[0]')" -eq "$(jqv .before.free_sections)" ] || { echo "hist free before"; return 1; }
	[ "$(jqv '.histogram.after[0]')" -eq "$(jqv .predicted.free_sections_after)" ] || { echo "hist free after"; return 1; }
	free=$(jqv .before.free_sections)
	fill=$(( (sum + $(jqv .geometry.blocks_per_section) - 1) / $(jqv .geometry.blocks_per_section) ))
	[ "$(jqv .predicted.free_sections_after)" -eq $((free + n - fill)) ] || { echo "free after"; return 1; }
	# blocks are never written by a dry run's prediction beyond moved + nodes
	[ "$(jqv .predicted.blocks_written)" -ge "$(jqv .predicted.blocks_moved)" ]
}
