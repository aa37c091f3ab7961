#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/resize.sh - resize.f2fs shrinking a kernel-written volume: blocks
# moved per second against a sequential copy of as many blocks made just
# before it on the same storage (target: a ratio of at least 0.5).
#
#   bench/resize.sh [IMAGE [PERCENT]]   (default: the newest "sect"
#                                        fixture, 1 GiB with data past
#                                        55%, shrunk to 55%)
#
# Each of BENCH_RUNS (5) runs shrinks a fresh sparse copy (synced before
# the clock starts) and is paired with a dd copy (1 MiB blocks, from the
# image in the page cache to a new file, fdatasync included) of as many
# bytes as the run moved; the rate of resize.f2fs is blocks moved / wall
# time of the whole process (plan with its owner checks, moves, the two
# checkpoints, the superblocks).  Prints each pair and the median ratio.
# Exit status: 0, 1 when a run failed or the median ratio is below 0.5,
# 2 when nothing can be measured.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
rs=${RESIZE_UNDER_TEST:-$top/resize/resize.f2fs}
if [ -z "${RESIZE_UNDER_TEST:-}" ] && [ -x "$top/resize/.libs/resize.f2fs" ]; then
	rs=$top/resize/.libs/resize.f2fs
	export LD_LIBRARY_PATH=$top/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
img=${1:-}
pct=${2:-55}
if [ -z "$img" ]; then
	img=$(ls -t "$top"/tests/.cache/fixtures/*/*/sect.img 2>/dev/null | head -n 1)
	[ -n "$img" ] || { echo "resize: no image given and no sect fixture cached (run the test suite)" >&2; exit 2; }
fi
for p in "$rs" "$(command -v jq)"; do
	[ -x "$p" ] || { echo "resize: not executable: $p" >&2; exit 2; }
done
dir=${BENCH_DIR:-}
runs=${BENCH_RUNS:-5}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }

sectors=$(( $(stat -c %s "$img") / 512 * pct / 100 ))
cat "$img" >/dev/null	# the sources in the page cache, both ways
ratios=()
for r in $(seq 1 "$runs"); do
	cp --sparse=always "$img" "$dir/run.img" && sync
	t0=$(now)
	"$rs" --json -t "$sectors" "$dir/run.img" >"$dir/run.json" 2>"$dir/run.err" ||
		{ echo "resize: run $r failed: $(cat "$dir/run.err")"; exit 1; }
	t1=$(now)
	moved=$(jq -r .moved.blocks "$dir/run.json")
	[ "$moved" -gt 0 ] || { echo "resize: nothing moved (the image has no data past $pct%)"; exit 2; }
	rm -f "$dir/copy"
	t2=$(now)
	dd if="$img" of="$dir/copy" bs=1M count=$(( (moved * 4096 + 1048575) / 1048576 )) \
		conv=fdatasync status=none
	t3=$(now)
	ratio=$(awk -v m="$moved" -v a="$(elapsed "$t0" "$t1")" -v c="$(elapsed "$t2" "$t3")" \
		'BEGIN { printf "%.2f", (m / a) / (m / c) }')
	printf 'run %d: moved %d blocks in %ss (%.1f MB/s), copy %ss, ratio %s\n' "$r" "$moved" \
		"$(elapsed "$t0" "$t1")" "$(awk -v m="$moved" -v a="$(elapsed "$t0" "$t1")" \
		'BEGIN { print m * 4096 / a / 1e6 }')" "$(elapsed "$t2" "$t3")" "$ratio"
	ratios+=("$ratio")
	rm -f "$dir/run.img" "$dir/copy"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "median resize/copy ratio: $median (target >= 0.5)"
awk -v m="$median" 'BEGIN { exit !(m >= 0.5) }'
