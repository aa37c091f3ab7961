#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fsck-scale.sh - time and peak memory of a full read-only check:
# our `fsck.f2fs -f -n` against the reference `fsck.f2fs -f --dry-run`
# on the same image, printed with ours/reference ratios.
#
#   bench/fsck-scale.sh [SIZE...]          (default: 1T)
#   bench/fsck-scale.sh --image IMG...     existing images (copied first,
#                                          the reference writes even with
#                                          --dry-run under -f)
#
# SIZE images are made empty by the reference mkfs.f2fs on sparse files.
# The acceptance targets (issue 10): on an empty 1 TiB image at most a
# quarter of the reference's time and of its peak RSS.  The populated
# benchmark of the issue (4 GiB, 100k files in 1000 directories) needs a
# writer that can populate such an image and is not run here.
# Exits non-zero if a check fails or finds problems.
# Environment: FSCK_UNDER_TEST, REF_FSCK, REF_MKFS, BENCH_DIR.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
ours=${FSCK_UNDER_TEST:-$top/fsck/fsck.f2fs}
ref=${REF_FSCK:-/sbin/fsck.f2fs}
ref_mkfs=${REF_MKFS:-/sbin/mkfs.f2fs}
timer=/usr/bin/time

for p in "$ours" "$ref" "$ref_mkfs" "$timer"; do
	[ -x "$p" ] || { echo "fsck-scale: not executable: $p (package time for /usr/bin/time)" >&2; exit 2; }
done
dir=${BENCH_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

# measure LABEL CMD...: prints "seconds maxrss_kb status"
measure() {
	local out=$dir/time.out st=0
	"$timer" -f '%e %M' -o "$out" "$@" </dev/null >"$dir/cmd.out" 2>&1 || st=$?
	echo "$(tail -n 1 "$out") $st"
}

images=()
if [ "${1:-}" = "--image" ]; then
	shift
	images=("$@")
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
	cp --sparse=always "$img" "$dir/ours.img" && cp --sparse=always "$img" "$dir/ref.img"
	read -r ot orss ost < <(measure "$ours" -f -n "$dir/ours.img")
	if [ "$ost" -ne 0 ]; then
		echo "our fsck exited $ost on $img:" >&2
		cat "$dir/cmd.out" >&2
		fail=1
	fi
	read -r rt rrss rst < <(measure "$ref" -f --dry-run "$dir/ref.img")
	printf '%-28s %10s %10s %10s %12s %12s %10s\n' "$(basename "$img")" "$ot" "$rt" \
		"$(awk -v a="$ot" -v b="$rt" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
		"$orss" "$rrss" \
		"$(awk -v a="$orss" -v b="$rrss" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
	rm -f "$dir/ours.img" "$dir/ref.img"
done
exit $fail
