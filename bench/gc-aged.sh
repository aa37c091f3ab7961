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
# from the image to a new file with fdatasync, in 4 KiB blocks per second;
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
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

now() { date +%s.%N; }

# sequential copy speed, blocks/s
t0=$(now)
dd if="$img" of="$dir/copy.bin" bs=1M count=256 conv=fdatasync status=none || exit 1
t1=$(now)
copy_bps=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", 256 * 256 / (b - a) }')
rm -f "$dir/copy.bin"

free0=$("$gc" -n --json --no-owner-check "$img" | jq -r .before.free_sections)
echo "image: $img"
echo "sequential copy: $copy_bps blocks/s (4 KiB)"
printf '%-13s %-7s %8s %8s %10s %10s %8s %11s %9s\n' policy target victims moved written reclaimed wa blocks_per_s vs_copy
fail=0
for target in all $((free0 + 20)) $((free0 + 40)); do
	for policy in greedy cost-benefit; do
		cp --sparse=always "$img" "$dir/run.img" || exit 1
		args=(-p "$policy" --json --no-progress)
		[ "$target" = all ] || args+=(--target-free "$target")
		t0=$(now)
		st=0
		"$gc" "${args[@]}" "$dir/run.img" >"$dir/run.json" 2>"$dir/run.err" || st=$?
		t1=$(now)
		if [ "$st" -ne 0 ] && [ "$st" -ne 1 ]; then
			echo "gc.f2fs $policy $target failed ($st): $(cat "$dir/run.err")" >&2
			fail=1
			continue
		fi
		read -r n moved written reclaimed wa < <(jq -r '[.result.sections_cleaned, .result.blocks_moved,
			.result.blocks_written, .result.blocks_reclaimed, (.result.write_amplification // "-")] | @tsv' "$dir/run.json")
		awk -v p="$policy" -v t="$target" -v n="$n" -v m="$moved" -v w="$written" -v r="$reclaimed" \
			-v wa="$wa" -v a="$t0" -v b="$t1" -v c="$copy_bps" 'BEGIN {
				rate = m / (b - a)
				printf "%-13s %-7s %8d %8d %10d %10d %8s %11.0f %9.3f\n", p, t, n, m, w, r,
					(wa == "-" ? "-" : sprintf("%.3f", wa)), rate, rate / c }'
	done
done
exit $fail
