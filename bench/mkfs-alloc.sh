#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/mkfs-alloc.sh - how much space and time mkfs needs on big sparse
# images: ours against the reference f2fs-tools mkfs.f2fs, as ratios.
#
#   bench/mkfs-alloc.sh [SIZE...] [-- MKFS-OPTION...]     (default: 64G 1T)
#
# For each size it formats a fresh sparse file with each mkfs (same options,
# plus -f), and prints the bytes allocated (st_blocks * 512) and elapsed
# wall time of each, and ours/reference ratios.  Exits non-zero if ours
# fails, or allocates more than 2 MiB on any size (LIMIT=bytes to change).
#
# Environment: MKFS_UNDER_TEST (default: <top>/mkfs/mkfs.f2fs), REF_MKFS
# (default /sbin/mkfs.f2fs), BENCH_DIR (scratch dir, default a mktemp -d).
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
ours=${MKFS_UNDER_TEST:-$top/mkfs/mkfs.f2fs}
ref=${REF_MKFS:-/sbin/mkfs.f2fs}
limit=${LIMIT:-$((2 * 1024 * 1024))}

sizes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	sizes+=("$1"); shift
done
[ $# -gt 0 ] && shift
opts=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64G 1T)

for p in "$ours" "$ref"; do
	if [ ! -x "$p" ]; then
		echo "mkfs-alloc: not executable: $p" >&2
		exit 2
	fi
done

dir=${BENCH_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

now_ns() { date +%s%N; }

# one PROG SIZE -> sets ALLOC (bytes) and NS (elapsed ns); returns mkfs status
one() {
	local prog=$1 size=$2 img=$dir/bench.img t0 t1 rc=0
	rm -f "$img"
	truncate -s "$size" "$img" || return 1
	sync
	t0=$(now_ns)
	"$prog" -f "${opts[@]}" "$img" </dev/null >"$dir/mkfs.log" 2>&1 || rc=$?
	t1=$(now_ns)
	NS=$((t1 - t0))
	ALLOC=$(( $(stat -c %b "$img") * $(stat -c %B "$img") ))
	rm -f "$img"
	if [ $rc -ne 0 ]; then
		echo "mkfs-alloc: $prog -f ${opts[*]} ($size) failed with exit $rc:" >&2
		cat "$dir/mkfs.log" >&2
	fi
	return $rc
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "inf"; else printf "%.3f", a / b }'; }
secs() { awk -v n="$1" 'BEGIN { printf "%.3f", n / 1e9 }'; }

fail=0
printf '%-6s %-5s %14s %10s\n' size mkfs alloc_bytes seconds
for size in "${sizes[@]}"; do
	if ! one "$ours" "$size"; then fail=1; continue; fi
	oa=$ALLOC on=$NS
	if ! one "$ref" "$size"; then
		ra=0 rn=0
	else
		ra=$ALLOC rn=$NS
	fi
	printf '%-6s %-5s %14d %10s\n' "$size" ours "$oa" "$(secs "$on")"
	printf '%-6s %-5s %14d %10s\n' "$size" ref "$ra" "$(secs "$rn")"
	printf '%-6s %-5s %14s %10s\n' "$size" ratio "$(ratio "$oa" "$ra")" "$(ratio "$on" "$rn")"
	if [ "$oa" -gt "$limit" ]; then
		echo "mkfs-alloc: ours allocated $oa bytes on $size (limit $limit)" >&2
		fail=1
	fi
done
exit $fail
