#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fsck-boot.sh - fsck at boot on big volumes (issue 24): for each N
# (default 100000 and 1000000 files), a tree of N files (0 to 12 KiB,
# about a quarter inline) in N/100 directories of 100, loaded by our
# mkfs.f2fs --populate into a 16 GiB image the reference mkfs made; both
# fscks must find it clean.  Then, ours (`-f -n`) beside the reference
# (`-f --dry-run`) in the same run:
#   warm   wall time with the image in the page cache (best of RUNS)
#   cold   wall time with the page cache dropped before each run (root)
#   cpu    user + system seconds of the best warm run
#   rss    peak RSS
#   -p     the check at boot of a cleanly unmounted volume (best of 5)
# our phase times (--json "phases"), and the physical limit: the cold
# time to read, once and in disk order, the metadata areas and every
# segment holding nodes or directory blocks (hot data), which a full
# check must read.  Last, time and memory per file at each N, against
# the first N.  Targets (issue 24): warm <= 0.1x, cold <= 0.3x, RSS <=
# 1.0x the reference's; per-file cost at 1M within 1.2x of 100k's.
#
#   bench/fsck-boot.sh [N...]    (RUNS, BENCH_DIR, F2_BUILD, REF_MKFS,
#                                 REF_FSCK override; root for cold runs)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${F2_BUILD:-$top}
ref_mkfs=${REF_MKFS:-/sbin/mkfs.f2fs}
ref_fsck=${REF_FSCK:-/sbin/fsck.f2fs}
runs=${RUNS:-2}
export LD_LIBRARY_PATH=$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
real() { [ -x "$build/$1/.libs/$2" ] && echo "$build/$1/.libs/$2" || echo "$build/$1/$2"; }
mkfs=$(real mkfs mkfs.f2fs) fsck=$(real fsck fsck.f2fs) dump=$(real dump dump.f2fs)
for p in "$mkfs" "$fsck" "$dump" "$ref_mkfs" "$ref_fsck" /usr/bin/time; do
	[ -x "$p" ] || { echo "fsck-boot: not executable: $p" >&2; exit 2; }
done
dir=${BENCH_DIR:-$(mktemp -d /tmp/f2boot.XXXXXX)}
[ -n "${BENCH_DIR:-}" ] || trap 'rm -rf "$dir"' EXIT
[ $# -gt 0 ] || set -- 100000 1000000

drop() { sync; echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; }
# timed COLD CMD...: "seconds rss_kb status cpu_seconds" of the best of
# $runs runs (cpu: user + system of that run; on a shared machine the
# wall time says how busy it was as much as what the command costs)
timed() {
	local cold=$1 i t m u s st best= cpu= rss=0 rc=0
	shift
	for ((i = 0; i < runs; i++)); do
		[ "$cold" = 1 ] && drop
		st=0
		/usr/bin/time -f '%e %M %U %S' -o "$dir/t" "$@" </dev/null >"$dir/out" 2>&1 || st=$?
		[ "$st" -ne 0 ] && rc=$st
		read -r t m u s < <(tail -n 1 "$dir/t")
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$t cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		fi
		[ "$m" -gt "$rss" ] && rss=$m
	done
	echo "$best $rss $rc $cpu"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# the physical limit: cold reads, in disk order, of the blocks a full
# check needs: the checkpoint area, the SIT blocks of every main segment
# and the NAT blocks of every nid up to the checkpoint's next free one
# (one copy each), the SSA blocks of the segments in use, and every
# segment holding nodes (types 3-5) or hot data (dentries)
limit() {
	local img=$1 runs_file=$dir/runs
	"$dump" -s 0~-1 --json "$img" | python3 -c '
import json, sys
d = json.load(sys.stdin)
sb, cp = d["superblock"], d["checkpoint"]
per = 1 << sb["log_blocks_per_seg"]
want = set(range(sb["cp_blkaddr"], sb["sit_blkaddr"]))
def area(base, nblocks):	# one copy of a two-copy area, by segment pairs
    for i in range(nblocks):
        want.add(base + (i // per) * 2 * per + i % per)
area(sb["sit_blkaddr"], -(-sb["segment_count_main"] // 55))
area(sb["nat_blkaddr"], -(-cp["next_free_nid"] // 455))
main = sb["main_blkaddr"]
for s in d["sit"]:
    if s["vblocks"]:
        want.add(sb["ssa_blkaddr"] + s["segno"])
        if s["seg_type"] in (0, 3, 4, 5):
            want.update(range(main + s["segno"] * per, main + (s["segno"] + 1) * per))
runs = []
for b in sorted(want):
    if runs and runs[-1][0] + runs[-1][1] == b:
        runs[-1][1] += 1
    else:
        runs.append([b, 1])
for a, n in runs:
    print(a, n)
' >"$runs_file" || return 1
	drop
	python3 - "$img" "$runs_file" <<'PY'
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
runs = [tuple(map(int, l.split())) for l in open(sys.argv[2])]
t0 = time.monotonic()
blocks = 0
for a, n in runs:	# one read a run, in disk order
    left, off = n * 4096, a * 4096
    while left:
        got = len(os.pread(fd, min(left, 1 << 22), off))
        if not got:
            break
        left -= got
        off += got
    blocks += n
print("%.2f %d" % (time.monotonic() - t0, blocks))
PY
}

first_n= first_tpf= first_mpf=
printf '%-9s %-6s %9s %9s %6s\n' files what ours ref ratio
for n in "$@"; do
	tree=$dir/tree-$n img=$dir/vol-$n.img
	if [ ! -f "$img.done" ]; then
		rm -rf "$tree" && python3 - "$tree" "$n" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
pat = bytes((i * 131 + (i >> 8) * 7) & 255 for i in range(1 << 15))
for i in range(n):
    d = os.path.join(root, 'd%05d' % (i // 100))
    if i % 100 == 0:
        os.makedirs(d)
    size = (i * 7919) % 12289
    o = (i * 613) % 16384
    with open(os.path.join(d, 'f%07d' % i), 'wb') as f:
        f.write(pat[o:o + size])
PY
		rm -f "$img" && truncate -s 16G "$img"
		"$ref_mkfs" -q -f "$img" >/dev/null &&
			"$mkfs" --populate --root "$tree" --no-progress "$img" >/dev/null ||
			{ echo "fsck-boot: making the $n-file volume failed" >&2; exit 1; }
		rm -rf "$tree"
		"$fsck" -f -n "$img" >/dev/null || { echo "fsck-boot: our fsck: $n-file volume not clean" >&2; exit 1; }
		"$ref_fsck" -f --dry-run "$img" </dev/null >"$dir/ref.out" 2>&1
		if grep -Eq '\[Fail\]|\[FIX|ASSERT' "$dir/ref.out"; then
			echo "fsck-boot: reference fsck: $n-file volume not clean" >&2; exit 1
		fi
		touch "$img.done"
	fi
	"$fsck" -f -n "$img" >/dev/null	# warm the page cache
	read -r ow orss ost ocpu < <(timed 0 "$fsck" -f -n "$img")
	"$fsck" -f -n --json "$img" >"$dir/json" 2>/dev/null
	read -r rw rrss rst rcpu < <(timed 0 "$ref_fsck" -f --dry-run "$img")
	read -r oc _ _ < <(timed 1 "$fsck" -f -n "$img")
	read -r rc _ _ < <(timed 1 "$ref_fsck" -f --dry-run "$img")
	[ "$ost" = 0 ] || echo "fsck-boot: our fsck exited $ost" >&2
	printf '%-9s %-6s %9s %9s %6s\n' "$n" warm "$ow" "$rw" "$(ratio "$ow" "$rw")"
	printf '%-9s %-6s %9s %9s %6s\n' "$n" cpu "$ocpu" "$rcpu" "$(ratio "$ocpu" "$rcpu")"
	printf '%-9s %-6s %9s %9s %6s\n' "$n" cold "$oc" "$rc" "$(ratio "$oc" "$rc")"
	printf '%-9s %-6s %9s %9s %6s\n' "$n" rss_kb "$orss" "$rrss" "$(ratio "$orss" "$rrss")"
	runs=5
	read -r op _ _ < <(timed 0 "$fsck" -p "$img")
	read -r rp _ _ < <(timed 0 "$ref_fsck" -p --dry-run "$img")
	runs=${RUNS:-2}
	printf '%-9s %-6s %9s %9s %6s\n' "$n" '-p' "$op" "$rp" "$(ratio "$op" "$rp")"
	read -r lt lb < <(limit "$img")
	echo "$n: physical limit: $lt s to read $lb metadata blocks cold in disk order (ours cold: $(ratio "$oc" "$lt")x that)"
	echo "$n: our phases: $(python3 -c '
import json, sys
print(", ".join("%s %.2f s" % (p["name"], p["seconds"]) for p in json.load(open(sys.argv[1]))["phases"]))
' "$dir/json" 2>/dev/null)"
	tpf=$(awk -v t="$ow" -v n="$n" 'BEGIN { printf "%.3g", t / n * 1e6 }')
	mpf=$(awk -v m="$orss" -v n="$n" 'BEGIN { printf "%.3g", m * 1024 / n }')
	if [ -z "$first_n" ]; then
		first_n=$n first_tpf=$tpf first_mpf=$mpf
		echo "$n: per file: $tpf us warm, $mpf bytes peak RSS"
	else
		echo "$n: per file: $tpf us warm ($(ratio "$tpf" "$first_tpf")x of $first_n files'), $mpf bytes peak RSS ($(ratio "$mpf" "$first_mpf")x)"
	fi
done
echo "(seconds; ours fsck.f2fs -f -n, the reference fsck.f2fs -f --dry-run; -p: both -p on the clean volume)"
