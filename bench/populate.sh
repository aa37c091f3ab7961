#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/populate.sh - populate a 4 GiB image with a tree of NFILES files
# (default 100000, about 1.7 GB, in directories of 1000) with our
# f2fs-populate and with the reference sload.f2fs, in the same run on the
# same tree; prints both times, peak RSS and the ratio.  Then our
# sload.f2fs -c -a lz4 loads the same tree compressed (on a volume made
# with -O extra_attr,compression) beside the reference's uncompressed load
# (Debian's sload.f2fs has no compression): issue 20 wants at most 0.25.
# Last, cp -a of the tree (and cp -a followed by sync: populate's
# checkpoint waits for the device, cp -a does not) and the limit (the tree
# read once by tar, as many bytes written once): issue 24 wants
# f2fs-populate at most 0.5x cp -a.  f2fs-populate reads the tree in
# io_uring batches, faster than tar's file-by-file reads on a virtual
# disk, and writes the image behind with O_DIRECT (F2_IO_BEHIND), so it
# can beat that "limit".
# Each image is then checked with the reference fsck.f2fs --dry-run (not
# timed).
#
#   bench/populate.sh [NFILES]       (F2_BUILD, REF_MKFS, REF_SLOAD, REF_FSCK override;
#                                     BENCH_ROUNDS paired rounds for the cp -a ratio, 3)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${F2_BUILD:-$top}
ref_mkfs=${REF_MKFS:-/sbin/mkfs.f2fs}
ref_sload=${REF_SLOAD:-/sbin/sload.f2fs}
ref_fsck=${REF_FSCK:-/sbin/fsck.f2fs}
n=${1:-100000}
work=$(mktemp -d /tmp/f2bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "building a tree of $n files in $work ..."
python3 - "$work/src" "$n" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
pat = bytes((i * 131 + (i >> 8) * 7) & 255 for i in range(1 << 17))
for i in range(n):
    d = os.path.join(root, 'd%03d' % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(d)
    # sizes 0 .. ~34 KiB, mean ~17 KB; every 1000th file 1 MiB
    size = (1 << 20) if i % 1000 == 999 else (i * 7919) % 34000
    with open(os.path.join(d, 'f%06d.dat' % i), 'wb') as f:
        o = (i * 4099) % (1 << 16)
        f.write(pat[o:o + size] if size <= len(pat) - o else (pat * 9)[o:o + size])
PY
echo "tree: $(du -s --apparent-size --block-size=1M "$work/src" | cut -f1) MiB"
truncate -s 4G "$work/ref.img" "$work/our.img" "$work/lz4.img"
"$ref_mkfs" -q -f "$work/ref.img" >/dev/null
"$build/mkfs/mkfs.f2fs" -q -f "$work/our.img" >/dev/null
"$build/mkfs/mkfs.f2fs" -q -f -O extra_attr,compression "$work/lz4.img" >/dev/null
sync

real=$build/mkfs/f2fs-populate
[ -x "$build/mkfs/.libs/f2fs-populate" ] && real=$build/mkfs/.libs/f2fs-populate
sload=$build/mkfs/sload.f2fs
[ -x "$build/mkfs/.libs/sload.f2fs" ] && sload=$build/mkfs/.libs/sload.f2fs
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

measure() {	# label command...: prints "label seconds maxrss_kib cpu_seconds"
	local label=$1; shift
	sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
	/usr/bin/time -o "$work/time" -f '%e %M %U %S' "$@" >/dev/null 2>&1 ||
		{ echo "$label failed" >&2; exit 1; }
	echo "$label $(tail -1 "$work/time" | awk '{ printf "%s %s %.2f", $1, $2, $3 + $4 }')"
}
a=$(measure f2fs-populate "$real" --root "$work/src" --no-progress "$work/our.img")
b=$(measure sload.f2fs "$ref_sload" -f "$work/src" "$work/ref.img")
c=$(measure "sload.f2fs-c-lz4(ours)" "$sload" -q -c -a lz4 -f "$work/src" "$work/lz4.img")
# issue 24: beside cp -a of the same tree into a directory on the same
# disk, and the limit: reading the tree once (tar to /dev/null) plus one
# sequential write of as many bytes (dd), each from a cold page cache
d=$(measure "cp-a" cp -a "$work/src" "$work/cpdst")
rm -rf "$work/cpdst"
# the same copy made durable, as populate's checkpoint makes the image
# (its flush waits for every byte to reach the device)
g=$(measure "cp-a+sync" sh -c "cp -a \"$work/src\" \"$work/cpdst\" && sync")
rm -rf "$work/cpdst"
tb=$(du -s --apparent-size --block-size=1M "$work/src" | cut -f1)
# (through a pipe: GNU tar writing to /dev/null itself reads no file)
e=$(measure "limit-read(tar)" sh -c "tar -C \"$work\" -cf - src | cat >/dev/null")
f=$(measure "limit-write(dd)" dd if=/dev/zero of="$work/seq" bs=1M count="$tb" status=none)
rm -f "$work/seq"
echo "$a"
echo "$b"
echo "$c"
echo "$d"
echo "$e"
echo "$f"
echo "$g"
echo "$a $b" | awk '{ printf "ratio f2fs-populate/sload.f2fs: time %.2f, peak RSS %.2f\n", $2 / ($6 ? $6 : 0.01), $3 / $7 }'
echo "$c $b" | awk '{ printf "ratio our sload -c -a lz4 / reference sload (uncompressed): time %.2f (target <= 0.25), peak RSS %.2f\n", $2 / ($6 ? $6 : 0.01), $3 / $7 }'
echo "$a $d $e $f" | awk '{ lim = $10 + $14; printf "ratio f2fs-populate/cp -a: time %.2f (target <= 0.5); cp -a/limit %.2f, f2fs-populate/limit %.2f (limit %.2f s: read %.2f + write %.2f); f2fs-populate CPU %.2f s of %.2f s wall, cp -a CPU %.2f s\n", $2 / ($6 ? $6 : 0.01), $6 / (lim ? lim : 0.01), $2 / (lim ? lim : 0.01), lim, $10, $14, $4, $2, $8 }'
echo "$a $g" | awk '{ printf "ratio f2fs-populate/(cp -a + sync): time %.2f\n", $2 / ($6 ? $6 : 0.01) }'
# the disk's speed varies from run to run (cp -a alone by up to 1.5x):
# more paired rounds of f2fs-populate then cp -a, and their median ratio
rounds=${BENCH_ROUNDS:-3}
ratios=$(echo "$a $d" | awk '{ printf "%.3f", $2 / ($6 ? $6 : 0.01) }')
for r in $(seq 2 "$rounds"); do
	rm -f "$work/our.img"
	truncate -s 4G "$work/our.img"
	"$build/mkfs/mkfs.f2fs" -q -f "$work/our.img" >/dev/null
	ra=$(measure f2fs-populate "$real" --root "$work/src" --no-progress "$work/our.img")
	rd=$(measure "cp-a" cp -a "$work/src" "$work/cpdst")
	rm -rf "$work/cpdst"
	echo "round $r: $ra / $rd"
	ratios="$ratios $(echo "$ra $rd" | awk '{ printf "%.3f", $2 / ($6 ? $6 : 0.01) }')"
done
echo "ratio f2fs-populate/cp -a over $rounds paired rounds: $ratios; median $(echo "$ratios" | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }') (target <= 0.5)"
echo "compressed image: $(du -sm "$work/lz4.img" | cut -f1) MiB allocated, uncompressed $(du -sm "$work/our.img" | cut -f1) MiB"
echo "(label, seconds, peak RSS in KiB, CPU seconds; page cache dropped before each when root)"
for i in our ref lz4; do
	if "$ref_fsck" --dry-run "$work/$i.img" >"$work/fsck.$i" 2>&1 &&
	   ! grep -Eq '\[Fail\]|\[FIX|ASSERT' "$work/fsck.$i"; then
		echo "reference fsck on the $i image: clean"
	else
		echo "reference fsck on the $i image: NOT clean"; grep -E 'Fail|FIX|ASSERT' "$work/fsck.$i" | head -5
	fi
done
