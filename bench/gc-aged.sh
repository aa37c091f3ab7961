#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/gc-aged.sh - gc.f2fs on an aged image: blocks moved per second
# against the sequential copy speed of the same storage (target: at least
# BENCH_SPEED_TARGET, 0.9, of it), and the write amplification (blocks written per block
# reclaimed) of greedy against cost-benefit for the same target.
#
#   bench/gc-aged.sh [IMAGE]   (default: the newest aged fixture under
#                               tests/.cache/fixtures, built by the test
#                               suite with the Linux 6.1 driver)
#
# Targets: every partly valid section ("all"), and the free sections now
# + 20 and + 40.  Each gc.f2fs row is the fastest of BENCH_RUNS (5) runs,
# each on a fresh sparse copy in BENCH_DIR (default: a temporary
# directory) flushed to the device before the clock starts, so gc.f2fs
# never pays for writing out the copy; its rate is blocks moved / wall
# time of the whole process (opening, checkpoints, reopening and report
# included).  A libtool wrapper (gc/gc.f2fs in a build tree) is bypassed:
# the shell script costs 10-30 ms a start, which an installed gc.f2fs
# does not pay.
#
# Copy speed: as many bytes as the "all" run moves, copied by dd in 1 MiB
# blocks from the image (in the page cache, as gc.f2fs's sources are) to a
# new file, fdatasync included (gc.f2fs's checkpoints flush too): the same
# kind of I/O both ways, buffered reads and buffered writes made durable.
# The machine is shared, so every run of an "all" row is paired with a
# copy made just before it; the verdict needs both the median of those
# paired ratios and the best/best ratio to reach BENCH_SPEED_TARGET.
# Median paired ratio, 2 shared cores: on the 1 GiB kernel-aged fixture
# (load 5-6) 0.43-0.60 when each victim segment was read whole, 0.67-0.84
# with only the moved blocks read, straight into the write buffer; on the
# 512 MiB 6.1 fixture 0.55-0.76 greedy, 0.77-0.79 cost-benefit (2026-12-07),
# then, with writeback started at each large write (lib/io/unix.c), at
# load 6-9: 0.95-1.60 greedy, 0.79-1.89 cost-benefit over seven runs
# (BENCH_RUNS=7, one 5; best/best 0.82-1.12), so 0.9 is met in some
# runs (two of the seven for both policies) and not in others.  The copies vary by up to 3x within a run under that load;
# A/B runs of both builds, each round a copy then both (30 rounds, order
# alternating), put the change at 1.15x (greedy) and 1.08x (cost-benefit).
# Where the time goes (perf, callgrind, strace): the kernel copying moved
# blocks into new page-cache pages as the copy does, and the two
# checkpoints' flushes (14-30 ms each, with the data already out of the
# page cache: the device flushing what it was given, as in the copy's
# fdatasync);
# gc.f2fs's own code runs 22M instructions (about 7 ms, a quarter of it
# inode checksums), the reads of a victim are one pread per run of valid
# blocks (about one per section on this fixture).
#
# Beside the kernel (issue 24: "the cleaner as efficient as the
# kernel's"): one QEMU boot of the Linux series that aged the fixture
# (F2_KERNEL, default from the fixture's cache path, else 6.1) mounts a
# copy and makes BENCH_KGC_CALLS (40) F2FS_IOC_GARBAGE_COLLECT calls
# (foreground, sync; bench/guest/gcioctl.c, built here with cc), then
# unmounts; gc.f2fs --policy greedy --max-sections (as many sections as
# the kernel cleaned) runs on copies with each --alloc.  For each: the
# sections cleaned, the blocks moved (the valid blocks, before, of the
# segments it emptied: owner nodes rewritten are not counted on either
# side), the segments left with no valid block, and how many of its
# victims the kernel also chose.  Target: with the same victims at least
# as many empty segments as the kernel and no more blocks moved.
# BENCH_KGC=0 skips the boot.  BENCH_KGC_FILL=MIB first has the kernel
# write a file of MIB MiB into a copy (one more boot), and both cleaners
# start from that fuller volume (where the kernel's need_SSR may hold).
#
# Exit status: 0, 1 when a gc.f2fs run failed, a policy's median ratio
# is below the speed target or the kernel comparison's target is not met,
# 2 when nothing can be measured.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
gc=${GC_UNDER_TEST:-$top/gc/gc.f2fs}
if [ -z "${GC_UNDER_TEST:-}" ] && [ -x "$top/gc/.libs/gc.f2fs" ]; then
	gc=$top/gc/.libs/gc.f2fs
	export LD_LIBRARY_PATH=$top/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
img=${1:-}
if [ -z "$img" ]; then
	img=$(ls -t "$top"/tests/.cache/fixtures/*/aged.img "$top"/tests/.cache/fixtures/*/*/aged.img \
		2>/dev/null | head -n 1)
	[ -n "$img" ] || { echo "gc-aged: no image given and no aged fixture cached (run tests/run.sh)" >&2; exit 2; }
fi
for p in "$gc" "$(command -v jq)"; do
	[ -x "$p" ] || { echo "gc-aged: not executable: $p" >&2; exit 2; }
done
dir=${BENCH_DIR:-}
runs=${BENCH_RUNS:-5}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }

# seconds to copy $1 blocks of 4 KiB sequentially, made durable
copy_time() {
	local t0 t1
	t0=$(now)
	dd if="$img" of="$dir/copy.bin" bs=1M count=$(($1 * 4096)) iflag=count_bytes \
		conv=fdatasync status=none || return 1
	t1=$(now)
	rm -f "$dir/copy.bin"
	elapsed "$t0" "$t1"
}

free0=$("$gc" -n --json --no-owner-check "$img" | jq -r .before.free_sections)
nall=$("$gc" -n --json "$img" | jq -r .predicted.blocks_moved)
[ "$nall" -gt 0 ] 2>/dev/null || { echo "gc-aged: $img: no block to move (not aged?)" >&2; exit 2; }
echo "image: $img"
cat "$img" >/dev/null	# in the page cache, for the copies and the fresh copies alike
fail=0
rows=$dir/rows
pairs=$dir/pairs
: >"$rows"
: >"$pairs"
for target in all $((free0 + 20)) $((free0 + 40)); do
	for policy in greedy cost-benefit; do
		args=(-p "$policy" --json --no-progress)
		[ "$target" = all ] || args+=(--target-free "$target")
		best=
		for r in $(seq "$runs"); do
			cp --sparse=always "$img" "$dir/run.img" && sync "$dir/run.img" || exit 1
			ct=
			[ "$target" = all ] && { ct=$(copy_time "$nall") || exit 1; }
			t0=$(now)
			st=0
			"$gc" "${args[@]}" "$dir/run.img" >"$dir/run.json" 2>"$dir/run.err" || st=$?
			t1=$(now)
			if [ "$st" -ne 0 ] && [ "$st" -ne 1 ]; then
				echo "gc.f2fs $policy $target failed ($st): $(cat "$dir/run.err")" >&2
				fail=1
				continue 2
			fi
			el=$(elapsed "$t0" "$t1")
			if [ -z "$best" ] || awk -v x="$el" -v y="$best" 'BEGIN { exit !(x < y) }'; then
				best=$el
			fi
			[ -n "$ct" ] && echo "$policy $el $ct $(jq -r .result.blocks_moved "$dir/run.json")" >>"$pairs"
		done
		read -r n moved written reclaimed wa < <(jq -r '[.result.sections_cleaned, .result.blocks_moved,
			.result.blocks_written, .result.blocks_reclaimed, (.result.write_amplification // "-")] | @tsv' "$dir/run.json")
		echo "$policy $target $n $moved $written $reclaimed $wa $best" >>"$rows"
	done
done
# per pair: gc rate / copy rate = (moved / gc time) / (copied / copy time)
awk -v c="$nall" '{ print $1, ($4 / $2) / (c / $3), c / $3 }' "$pairs" >"$dir/ratios"
copy_bps=$(sort -k3 -g "$dir/ratios" | tail -n 1 | awk '{ printf "%.0f", $3 }')
echo "sequential copy: $copy_bps blocks/s (4 KiB), the best of $(wc -l <"$pairs") copies of $nall blocks"
echo "gc.f2fs: the fastest of $runs runs per row"
printf '%-13s %-7s %8s %8s %10s %10s %8s %11s %9s\n' policy target victims moved written reclaimed wa blocks_per_s vs_copy
awk -v c="$copy_bps" '{
	rate = $4 / $8
	printf "%-13s %-7s %8d %8d %10d %10d %8s %11.0f %9.3f\n", $1, $2, $3, $4, $5, $6,
		($7 == "-" ? "-" : sprintf("%.3f", $7)), rate, rate / c
	if ($1 == "greedy") g[$2] = $7; else cb[$2] = $7
} END {
	for (t in g) if (t in cb) printf "write amplification, target %s: greedy %.3f, cost-benefit %.3f\n", t, g[t], cb[t]
}' "$rows"
# the target (BENCH_SPEED_TARGET: issue 24 asks 0.9) is judged on the
# runs that move every partly valid section
# (the small ones are dominated by opening the volume), per policy on both
# the median of its paired ratios and best/best: a copy slowed by other
# writers to the disk flatters the first, a lucky quiet copy the second
for policy in greedy cost-benefit; do
	bb=$(awk -v p="$policy" -v c="$copy_bps" '$1 == p && $2 == "all" { printf "%.6f", $4 / $8 / c }' "$rows")
	awk -v p="$policy" '$1 == p { print $2 }' "$dir/ratios" | sort -g |
	awk -v p="$policy" -v bb="${bb:-0}" -v want="${BENCH_SPEED_TARGET:-0.9}" '
		{ v[NR] = $1 }
		END {
			if (!NR) { printf "speed, %s all: no run\n", p; exit 1 }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "speed, %s all: gc/copy %.3f best/best; paired %.3f min, %.3f median, %.3f max;",
				p, bb, v[1], m, v[NR]
			ok = m >= want + 0 && bb >= want + 0
			printf " target >= %s: %s\n", want, (ok ? "met" : "NOT met")
			exit !ok
		}' || fail=1
done

# ---- the kernel's foreground cleaning beside gc.f2fs ----------------------
dump=${DUMP_UNDER_TEST:-$top/dump/dump.f2fs}
# "segno vblocks" of every main segment of $1
sit_of() { "$dump" --json -s 0~-1 "$1" 2>/dev/null | jq -r '.sit[] | "\(.segno) \(.vblocks)"'; }
# $1 before, $2 after: "emptied-segments moved-blocks empty-segments-now"
# and the emptied segments in $3
compare_sits() {
	awk -v out="$3" 'NR == FNR { v[$1] = $2; next }
		{ if ($2 == 0) empty++
		  if ($2 == 0 && v[$1] > 0) { n++; moved += v[$1]; print $1 >out } }
		END { printf "%d %d %d\n", n, moved, empty }' "$1" "$2"
}
kgc() {
	local calls=${BENCH_KGC_CALLS:-40} series kdir n moved empty ok alloc common
	[ "${BENCH_KGC:-1}" = 0 ] && return 0
	case $img in
	*/linux-6.12/*) series=6.12 ;;
	*) series=6.1 ;;
	esac
	export F2_KERNEL=${F2_KERNEL:-$series}
	F2_TOP=$top
	# shellcheck source=/dev/null
	. "$top/tests/lib/common.bash" && . "$top/tests/lib/kernel.bash" || return 1
	kdir=$dir/kgc
	mkdir -p "$kdir"
	f2_tmp() { echo "$kdir"; }
	if ! kernel_setup; then
		echo "kernel: not measured ($KERNEL_UNAVAILABLE)"
		return 0
	fi
	cc -O2 -Wall -Wextra -o "$kdir/gcioctl" "$top/bench/guest/gcioctl.c" || return 1
	kernel_add_binary "$kdir/gcioctl" || return 1
	echo "$calls" >"$kdir/calls"
	if [ -n "${BENCH_KGC_FILL:-}" ]; then
		cp --sparse=always "$img" "$kdir/filled.img"
		echo "$BENCH_KGC_FILL" >"$kdir/fill"
		KERNEL_FILES="$kdir/fill:/guest/fill" KERNEL_RUN_DIR=$kdir/fillrun KERNEL_TIMEOUT=900 \
			kernel_run "$top/bench/guest/kgc.sh" "$kdir/filled.img"
		grep -qx 'kgc umount ok' "$KERNEL_OUT" || {
			echo "kernel: the fill boot failed:"; tail -n 20 "$KERNEL_OUT"; return 1; }
		img=$kdir/filled.img
		echo "the volume: $BENCH_KGC_FILL MiB more written by the kernel first;" \
			"$("$gc" -n --json --no-owner-check "$img" | jq -r '.before | "\(.free_sections) free, \(.dirty_sections) partly valid sections"')"
		kernel_add_binary "$kdir/gcioctl" || return 1
	fi
	cp --sparse=always "$img" "$kdir/k.img"
	sit_of "$img" >"$kdir/before"
	KERNEL_FILES="$kdir/calls:/guest/calls" KERNEL_RUN_DIR=$kdir/run KERNEL_TIMEOUT=900 \
		kernel_run "$top/bench/guest/kgc.sh" "$kdir/k.img"
	cp "$KERNEL_OUT" "$kdir/guest.out"
	grep -qx 'kgc umount ok' "$kdir/guest.out" || {
		echo "kernel: the guest run failed:"; tail -n 20 "$kdir/guest.out"; return 1; }
	ok=$(grep -c '^kgc gc [0-9]* 0$' "$kdir/guest.out")
	sit_of "$kdir/k.img" >"$kdir/k.after"
	read -r n moved empty < <(compare_sits "$kdir/before" "$kdir/k.after" "$kdir/k.victims")
	echo "the kernel's cleaner beside gc.f2fs on $img (Linux $KERNEL_RELEASE, $calls calls, $ok freed a section):"
	printf '  %-22s %8s %8s %13s %14s\n' cleaner sections moved empty_segments kernel_victims
	printf '  %-22s %8d %8d %13d %14s\n' "kernel foreground GC" "$n" "$moved" "$empty" -
	# the driver's own counters (debugfs), before and after the calls
	sed -n 's/^kgc \(before\|after\) */    debugfs \1: /p' "$kdir/guest.out" | tr -s ' \t' ' '
	echo "kernel $n $moved $empty" >"$kdir/rows"
	for alloc in lfs ssr auto; do
		cp --sparse=always "$img" "$kdir/g.img"
		"$gc" --no-progress --policy greedy --max-sections "$n" --alloc "$alloc" \
			"$kdir/g.img" >/dev/null 2>"$kdir/g.err" ||
			{ echo "gc.f2fs --alloc $alloc failed: $(cat "$kdir/g.err")"; return 1; }
		sit_of "$kdir/g.img" >"$kdir/g.after"
		read -r gn gmoved gempty < <(compare_sits "$kdir/before" "$kdir/g.after" "$kdir/g.victims")
		common=$(sort "$kdir/k.victims" "$kdir/g.victims" | uniq -d | wc -l)
		printf '  %-22s %8d %8d %13d %14s\n' "gc.f2fs --alloc $alloc" "$gn" "$gmoved" "$gempty" "$common/$gn"
		echo "$alloc $gn $gmoved $gempty" >>"$kdir/rows"
	done
	awk '$1 == "kernel" { km = $3; ke = $4; next }
		{ printf "  --alloc %s: empty segments %+d against the kernel, blocks moved %+d: %s\n", $1,
			$4 - ke, $3 - km, ($4 >= ke && $3 <= km) ? "target met" : "target NOT met"
		  if ($1 == "auto" && !($4 >= ke && $3 <= km)) bad = 1 }
		END { exit bad }' "$kdir/rows"
}
kgc || fail=1
exit $fail
