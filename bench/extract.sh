#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/extract.sh - time and peak memory of dump.f2fs --extract / on a
# tree of NFILES small files (default 100000, in directories of 1000),
# loaded into a reference mkfs image by the reference sload.f2fs, against
# cp -a of the same tree on the host.  Prints both and the ratios.
#
#   bench/extract.sh [NFILES]        (F2_BUILD, REF_MKFS, REF_SLOAD override)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${F2_BUILD:-$top}
dump=$build/dump/dump.f2fs
ref_mkfs=${REF_MKFS:-/sbin/mkfs.f2fs}
ref_sload=${REF_SLOAD:-/sbin/sload.f2fs}
n=${1:-100000}
work=$(mktemp -d /tmp/f2bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "building a tree of $n files in $work ..."
mkdir "$work/src"
for ((d = 0; d < (n + 999) / 1000; d++)); do
	mkdir "$work/src/d$d"
	for ((i = 0; i < 1000 && d * 1000 + i < n; i++)); do
		printf 'file %d/%d %*s\n' "$d" "$i" $(( (i * 37) % 6000 )) x >"$work/src/d$d/f$i"
	done
done
truncate -s 4G "$work/img"
"$ref_mkfs" -q -f "$work/img" >/dev/null
s0=$(date +%s)
"$ref_sload" -f "$work/src" "$work/img" >/dev/null 2>&1 || true
echo "sload.f2fs took $(( $(date +%s) - s0 )) s"
sync

measure() {	# label command...: prints "label seconds maxrss_kib"
	local label=$1 out; shift
	sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
	/usr/bin/time -o "$work/time" -f '%e %M' "$@" >/dev/null 2>&1 || true
	echo "$label $(tail -1 "$work/time")"
}

# the libtool wrapper would be timed too: run the real binary
real=$dump
[ -x "$build/dump/.libs/dump.f2fs" ] && real=$build/dump/.libs/dump.f2fs
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
a=$(measure dump.f2fs "$real" --extract / --output "$work/out1" "$work/img")
b=$(measure cp-a cp -a "$work/src" "$work/out2")
[ "$(cd "$work/out1" && find . -type f | wc -l)" -eq "$n" ] || { echo "extracted file count differs"; exit 1; }
echo "$a"
echo "$b"
echo "$a $b" | awk '{ printf "ratio dump.f2fs/cp-a: time %.2f, peak RSS %.2f\n", $2 / ($5 ? $5 : 0.01), $3 / $6 }'
echo "(times in seconds, peak RSS in KiB, page cache dropped before each when root)"
