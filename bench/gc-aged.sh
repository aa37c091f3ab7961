#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/gc-aged.sh - gc.f2fs on an aged image: blocks moved per second
# against the sequential copy speed of the same storage, and the write
# amplification (blocks written per block reclaimed) of greedy against
# cost-benefit for the same target.
#
#   bench/gc-aged.sh [IMAGE]   (default: the newest aged fixture under
#                               tests/.cache/fixtures, built by the test
#                               suite with the Linux 6.1 driver)
#
# Every run works on a fresh sparse copy in BENCH_DIR (default: a
# temporary directory).  Targets: every partly valid section ("all"), and
# the free sections now + 20 and + 40.  Copy speed: 256 MiB copied with dd
# from the image to a new file with fdatasync, in 4 KiB blocks per second,
# the best of one copy before and BENCH_RUNS (3) after the gc runs; each
# gc.f2fs row is the fastest of BENCH_RUNS runs on fresh copies (a loaded
# machine only ever slows a run down);
# gc.f2fs's rate is blocks moved / wall time of the run, checkpoints and
# opening included.  Both read through the page cache as a run on an image
# file would: treat the ratio as indicative.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
gc=${GC_UNDER_TEST:-$top/gc/gc.f2fs}
img=${1:-}
if [ -z "$img" ]; then
	img=$(ls -t "$top"/tests/.cache/fixtures/*/aged.img 2>/dev/null | head -n 1)
	[ -n "$img" ] || { echo "gc-aged: no image given and no aged fixture cached (run tests/run.sh)" >&2; exit 2; }
fi
for p in "$gc" "$(command -v jq)"; do
	[ -x "$p" ] || { echo "gc-aged: not executable: $p" >&2; exit 2; }
done
dir=${BENCH_DIR:-}
runs=${BENCH_RUNS:-3}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

now() { date +%s.%N; }

# sequential copy speed, blocks/s (the best of two: before and after the
# gc runs, so a busy moment does not flatter gc.f2fs)
copy_speed() {
	local t0 t1
	t0=$(now)
	dd if="$img" of="$dir/copy.bin" bs=1M count=256 conv=fdatasync status=none || return 1
	t1=$(now)
	rm -f "$dir/copy.bin"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", 256 * 256 / (b - a) }'
}
copy_bps=$(copy_speed) || exit 1

free0=$("$gc" -n --json --no-owner-check "$img" | jq -r .before.free_sections)
echo "image: $img"
fail=0
rows=$dir/rows
: >"$rows"
for target in all $((free0 + 20)) $((free0 + 40)); do
	for policy in greedy cost-benefit; do
		args=(-p "$policy" --json --no-progress)
		[ "$target" = all ] || args+=(--target-free "$target")
		# the fastest of RUNS runs, each on a fresh copy (the same blocks
		# move every time; only the machine's load differs)
		best=
		for r in $(seq "$runs"); do
			cp --sparse=always "$img" "$dir/run.img" || exit 1
			t0=$(now)
			st=0
			"$gc" "${args[@]}" "$dir/run.img" >"$dir/run.json" 2>"$dir/run.err" || st=$?
			t1=$(now)
			if [ "$st" -ne 0 ] && [ "$st" -ne 1 ]; then
				echo "gc.f2fs $policy $target failed ($st): $(cat "$dir/run.err")" >&2
				fail=1
				continue 2
			fi
			el=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
			if [ -z "$best" ] || awk -v x="$el" -v y="$best" 'BEGIN { exit !(x < y) }'; then
				best=$el
			fi
		done
		read -r n moved written reclaimed wa < <(jq -r '[.result.sections_cleaned, .result.blocks_moved,
			.result.blocks_written, .result.blocks_reclaimed, (.result.write_amplification // "-")] | @tsv' "$dir/run.json")
		echo "$policy $target $n $moved $written $reclaimed $wa 0 $best" >>"$rows"
	done
done
for r in $(seq "$runs"); do
	c2=$(copy_speed) || exit 1
	[ "$c2" -gt "$copy_bps" ] && copy_bps=$c2
done
echo "sequential copy: $copy_bps blocks/s (4 KiB), best of $((runs + 1)) copies"
echo "gc.f2fs: the fastest of $runs runs per row"
printf '%-13s %-7s %8s %8s %10s %10s %8s %11s %9s\n' policy target victims moved written reclaimed wa blocks_per_s vs_copy
awk -v c="$copy_bps" '{
	rate = $4 / ($9 - $8)
	printf "%-13s %-7s %8d %8d %10d %10d %8s %11.0f %9.3f\n", $1, $2, $3, $4, $5, $6,
		($7 == "-" ? "-" : sprintf("%.3f", $7)), rate, rate / c
	# the target (moved blocks per second >= half the copy speed) is judged
	# on the runs that move every partly valid section: the small ones are
	# dominated by opening the volume
	if ($2 == "all") { n++; if (rate >= c / 2) ok++ }
	if ($1 == "greedy") g[$2] = $7; else cb[$2] = $7
} END {
	for (t in g) if (t in cb) printf "write amplification, target %s: greedy %.3f, cost-benefit %.3f\n", t, g[t], cb[t]
	printf "speed target (>= 0.5 of the copy speed on the full runs): %s (%d of %d)\n",
		(n && ok == n) ? "met" : "not met", ok, n
}' "$rows"
exit $fail
