#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fsck-scale.sh - time and peak memory of a full read-only check:
# our `fsck.f2fs -f -n` against the reference `fsck.f2fs -f --dry-run`
# on the same image, printed with ours/reference ratios.
#
#   bench/fsck-scale.sh [SIZE...]          (default: 1T)
#   bench/fsck-scale.sh --populated        4 GiB, 100k files in 1000 dirs
#   bench/fsck-scale.sh --image IMG...     existing images (copied first,
#                                          the reference writes even with
#                                          --dry-run under -f)
#
# SIZE images are made empty by the reference mkfs.f2fs on sparse files;
# --populated loads 1000 directories of 100 small files with the
# reference sload.f2fs (about a minute).  Each check runs RUNS times
# (default 3) and the fastest run and largest RSS are printed, since
# wall time on a busy machine is noisy.
# The acceptance targets (issue 10): on an empty 1 TiB image at most a
# quarter of the reference's time and of its peak RSS; on the populated
# 4 GiB image at most half its time and twice its peak RSS.
# Exits non-zero if a check fails or finds problems.
# Environment: FSCK_UNDER_TEST, REF_FSCK, REF_MKFS, BENCH_DIR.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
ours=${FSCK_UNDER_TEST:-$top/fsck/fsck.f2fs}
ref=${REF_FSCK:-/sbin/fsck.f2fs}
ref_mkfs=${REF_MKFS:-/sbin/mkfs.f2fs}
ref_sload=${REF_SLOAD:-/sbin/sload.f2fs}
runs=${RUNS:-3}
timer=/usr/bin/time

for p in "$ours" "$ref" "$ref_mkfs" "$timer"; do
	[ -x "$p" ] || { echo "fsck-scale: not executable: $p (package time for /usr/bin/time)" >&2; exit 2; }
done
dir=${BENCH_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

# measure IMG CMD...: prints "seconds maxrss_kb status", the fastest of
# $runs runs (each on a fresh sparse copy of IMG: the reference writes)
measure() {
	local img=$1 out=$dir/time.out st=0 i t m best= rss=0
	shift
	for ((i = 0; i < runs; i++)); do
		cp --sparse=always "$img" "$dir/run.img"
		"$timer" -f '%e %M' -o "$out" "$@" "$dir/run.img" </dev/null >"$dir/cmd.out" 2>&1 || st=$?
		read -r t m < <(tail -n 1 "$out")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
		[ "$m" -gt "$rss" ] && rss=$m
	done
	rm -f "$dir/run.img"
	echo "$best $rss $st"
}

images=()
if [ "${1:-}" = "--image" ]; then
	shift
	images=("$@")
elif [ "${1:-}" = "--populated" ]; then
	[ -x "$ref_sload" ] || { echo "fsck-scale: not executable: $ref_sload" >&2; exit 2; }
	mkdir -p "$dir/tree"
	for ((d = 1; d <= 1000; d++)); do
		mkdir "$dir/tree/d$d"
		for ((f = 1; f <= 100; f++)); do echo "$d $f" >"$dir/tree/d$d/f$f"; done
	done
	img=$dir/populated-4G.img
	truncate -s 4G "$img"
	"$ref_mkfs" -q -f "$img" >/dev/null && "$ref_sload" -f "$dir/tree" "$img" >/dev/null 2>&1 ||
		{ echo "mkfs/sload failed" >&2; exit 1; }
	rm -rf "$dir/tree"
	images=("$img")
else
	[ $# -gt 0 ] || set -- 1T
	for s in "$@"; do
		img=$dir/empty-$s.img
		rm -f "$img" && truncate -s "$s" "$img"
		"$ref_mkfs" -q -f "$img" >/dev/null || { echo "mkfs failed for $s" >&2; exit 1; }
		images+=("$img")
	done
fi

fail=0
printf '%-28s %10s %10s %10s %12s %12s %10s\n' image ours_s ref_s time_ratio ours_rss_kb ref_rss_kb rss_ratio
for img in "${images[@]}"; do
	read -r ot orss ost < <(measure "$img" "$ours" -f -n)
	if [ "$ost" -ne 0 ]; then
		echo "our fsck exited $ost on $img:" >&2
		cat "$dir/cmd.out" >&2
		fail=1
	fi
	read -r rt rrss rst < <(measure "$img" "$ref" -f --dry-run)
	printf '%-28s %10s %10s %10s %12s %12s %10s\n' "$(basename "$img")" "$ot" "$rt" \
		"$(awk -v a="$ot" -v b="$rt" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
		"$orss" "$rrss" \
		"$(awk -v a="$orss" -v b="$rrss" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
done
exit $fail
