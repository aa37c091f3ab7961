#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/rescue.sh - the rescue's cost (issue 22): fsck.f2fs -f -y
# rebuilding a zeroed checkpoint area, NAT, or both (the scan of the main
# area, the rebuild, and the full check of the rebuilt volume), against
# our full check (-f -n) of the intact volume, printed as ratios.  The
# target: at most 2.
#
#   bench/rescue.sh                 4 GiB, 100k files in 1000 directories
#                                   (reference mkfs + sload, about a minute)
#   bench/rescue.sh --image IMG     an existing intact image (copied)
#
# Each measurement runs on a fresh sparse copy, flushed to the device
# before the clock starts (else the rescue's first fsync pays for writing
# out the whole copy), RUNS times (default 1), the fastest kept.  Exits non-zero when a run fails, a rebuild is not
# clean afterwards, or a ratio is above 2.
# Environment: FSCK_UNDER_TEST, REF_MKFS, REF_SLOAD, BENCH_DIR, RUNS,
# DIRS and FILES (per directory) for the populated image.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
ours=${FSCK_UNDER_TEST:-$top/fsck/fsck.f2fs}
ref_mkfs=${REF_MKFS:-/sbin/mkfs.f2fs}
ref_sload=${REF_SLOAD:-/sbin/sload.f2fs}
runs=${RUNS:-1}
dirs=${DIRS:-1000} files=${FILES:-100}
dir=${BENCH_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

if [ "${1:-}" = "--image" ]; then
	img=$2
else
	mkdir -p "$dir/tree"
	for ((d = 1; d <= dirs; d++)); do
		mkdir "$dir/tree/d$d"
		for ((f = 1; f <= files; f++)); do echo "$d $f" >"$dir/tree/d$d/f$f"; done
	done
	img=$dir/populated.img
	truncate -s 4G "$img"
	"$ref_mkfs" -q -f "$img" >/dev/null && "$ref_sload" -f "$dir/tree" "$img" >/dev/null 2>&1 ||
		{ echo "mkfs/sload failed" >&2; exit 1; }
	rm -rf "$dir/tree"
fi

sbval() { od -An -tu4 -j $((1024 + $2)) -N4 "$1" | tr -d ' '; }
# zero IMG AREA: the superblock's offsets (f2_super: cp_blkaddr at 76,
# sit 80, nat 84; segment_count_ckpt at 52, sit 56, nat 60)
zero() {
	local s c
	case $2 in
	cp) s=$(sbval "$1" 76) c=$(( $(sbval "$1" 52) * 512 )) ;;
	nat) s=$(sbval "$1" 84) c=$(( $(sbval "$1" 60) * 512 )) ;;
	esac
	dd if=/dev/zero of="$1" bs=4096 seek="$s" count="$c" conv=notrunc status=none
}

# measure DAMAGE ARGS...: fastest seconds of $runs runs of our fsck ARGS
# on a fresh copy with DAMAGE (space separated areas) zeroed
measure() {
	local damage=$1 best= t a st
	shift
	for ((i = 0; i < runs; i++)); do
		cp --sparse=always "$img" "$dir/run.img"
		for a in $damage; do zero "$dir/run.img" "$a"; done
		sync "$dir/run.img"	# the copy's write-out is not the rescue's
		t0=$(date +%s.%N)
		st=0; "$ours" "$@" "$dir/run.img" </dev/null >"$dir/out" 2>&1 || st=$?
		t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
		if [ -n "$damage" ] && { [ "$st" -ne 1 ] || ! "$ours" -f -n "$dir/run.img" >/dev/null 2>&1; }; then
			echo "rescue of $damage: exit $st, or not clean after:" >&2
			tail -n 5 "$dir/out" >&2
			return 1
		fi
		if [ -z "$damage" ] && [ "$st" -ne 0 ]; then
			echo "full check of the intact image: exit $st" >&2
			return 1
		fi
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	rm -f "$dir/run.img"
	echo "$best"
}

fail=0
base=$(measure "" -f -n) || exit 1
printf '%-26s %10s %10s\n' run seconds ratio
printf '%-26s %10s %10s\n' "full check, intact" "$base" 1.000
for damage in cp nat "cp nat"; do
	t=$(measure "$damage" -f -y) || { fail=1; continue; }
	r=$(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')
	printf '%-26s %10s %10s\n' "rescue: ${damage// /+} zeroed" "$t" "$r"
	awk -v r="$r" 'BEGIN { exit !(r > 2) }' && fail=1
done
exit $fail
