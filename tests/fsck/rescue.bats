#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/rescue.bats - the rescue (fsck/rescue.c, lib/rescue/) on the
# volumes the Linux 6.1 driver populated in QEMU (tests/lib/fixtures.bash):
# a whole metadata area zeroed (both checkpoint packs; both NAT copies;
# both together; the SIT; the SSA; 10% of the NAT blocks in use; both
# superblock copies; a checkpoint stale by three versions), then
# -n reports it and writes nothing, -y rebuilds (exit 1), a second -n and
# the reference fsck find the volume clean, a second -y writes nothing,
# and dump.f2fs extracts every file the guest listed with its content,
# mode, owner, size and links (the fixture's manifest) and its user
# xattrs.  An inode no directory names goes under /lost+found: when the
# NAT survives, files deleted before the damage are told by it and left
# out (aged, checkpoint lost: nothing there); when it is lost too, they
# come back there (not in the manifest, which is compared without them;
# the root then counts one more link).  aged has every file rewritten
# and deleted many times: the scan sees several versions of their nodes
# and must keep the newest.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load ../dump/helpers

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
INJECT=${INJECT:-$F2_BUILD/inject/inject.f2fs}
export F2FIELD INJECT

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

setup() {
	fixtures_require
	require_prog "$FSCK" "$DUMP" "$F2FIELD"
}

# damage IMG AREA: the fault (tests/fsck/lib.sh's generators)
damage() {
	(
		# shellcheck disable=SC1091
		. "$F2_TOP/tests/fsck/lib.sh"
		case $2 in
		cp+nat) zero_area "$1" cp && zero_area "$1" nat ;;
		nat10) zero_nat_share "$1" 10 22 >/dev/null ;;
		stale) stale_cp "$1" want_tree "$1" ;;
		sb) zero_sb "$1" ;;
		*) zero_area "$1" "$2" ;;
		esac
	)
}

# want_tree IMG: IMG.want and IMG.wantx, the volume's tree as dump.f2fs
# extracts it (manifest, user xattrs): before stale_cp writes the old
# checkpoint area back
want_tree() {
	rm -rf "$1.x"
	"$DUMP" --extract / --output "$1.x" "$1" >/dev/null || return 1
	tree_manifest "$1.x" >"$1.want"
	tree_xattrs "$1.x" >"$1.wantx"
	rm -rf "$1.x"
}

drop_lf() { grep -v '^\./lost+found' || true; }

# compare_tree NAME IMG: the extracted tree against NAME's manifest and
# user xattrs, /lost+found aside
compare_tree() {
	local name=$1 img=$2 out=$BATS_TEST_TMPDIR/x p lf=0
	rm -rf "$out"
	"$DUMP" --extract / --output "$out" "$img" >/dev/null || { echo "extract failed"; return 1; }
	tree_manifest "$out" >"$out.m"
	for p in $(awk -F'\t' '$8 == "big" { print $1 }' "$out.m"); do
		[ "$p" = ./sparse/dind ] || { echo "unexpected big file $p"; return 1; }
		dd if="$out/$p" bs=4096 skip="$F2_FIXTURE_DIND_BLOCK" count=1 status=none |
			cmp - "$F2_FIXTURES/dind.blk"
		sed -i "s|^\\./sparse/dind\\t\\(.*\\)\\tbig\$|./sparse/dind\\t\\1\\t$(cat "$F2_FIXTURES/dind.md5")|" "$out.m"
	done
	[ -d "$out/lost+found" ] && ! grep -q '^\./lost+found' "$F2_FIXTURES/$name.manifest" && lf=1
	# the root's links: one more for a lost+found the rescue made
	awk -F'\t' -v OFS='\t' -v lf="$lf" '$1 == "." { $7 -= lf } $1 !~ /^\.\/lost\+found/' "$out.m" |
		diff <(grep -v '^\./lost+found' "$F2_FIXTURES/$name.manifest") - || return 1
	tree_xattrs "$out" | drop_lf >"$out.x"
	{ grep -P '\tuser\.' "$F2_FIXTURES/$name.xattrs" || true; } | drop_lf | diff - "$out.x"
	echo "$name: $(grep -c . "$out.m") paths compared, $(grep -c '^\./lost+found/' "$out.m" || true) under lost+found"
}

# rescue_one NAME AREA CODE
rescue_one() {
	local name=$1 area=$2 code=$3 img=$BATS_TEST_TMPDIR/img sum rc
	fixture_copy "$name" "$img"
	damage "$img" "$area"
	sum=$(img_sum "$img")
	rc=0; "$FSCK" -f -n "$img" </dev/null >"$BATS_TEST_TMPDIR/n" 2>&1 || rc=$?
	head -n 4 "$BATS_TEST_TMPDIR/n"
	[ "$rc" -eq 4 ] || { echo "-n exit $rc"; return 1; }
	grep -q "^$code " "$BATS_TEST_TMPDIR/n" || { echo "no $code"; return 1; }
	[ "$(img_sum "$img")" = "$sum" ] || { echo "-n wrote"; return 1; }
	if [ "$code" = 0x02000D ] || [ "$code" = 0x03000A ] || [ "$code" = 0x01000C ]; then
		# a rebuild is never preen-safe
		rc=0; "$FSCK" -f -p "$img" </dev/null >/dev/null 2>&1 || rc=$?
		[ "$rc" -eq 4 ] && [ "$(img_sum "$img")" = "$sum" ] || { echo "-p exit $rc or wrote"; return 1; }
	fi
	rc=0; "$FSCK" -f -y "$img" </dev/null >"$BATS_TEST_TMPDIR/y" 2>&1 || rc=$?
	tail -n 2 "$BATS_TEST_TMPDIR/y"
	[ "$rc" -eq 1 ] || { echo "-y exit $rc"; return 1; }
	rc=0; "$FSCK" -f -n "$img" </dev/null >"$BATS_TEST_TMPDIR/2" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$BATS_TEST_TMPDIR/2"; echo "second run exit $rc"; return 1; }
	ref_fsck_clean "$img"
	sum=$(img_sum "$img")
	rc=0; "$FSCK" -f -y "$img" </dev/null >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 0 ] && [ "$(img_sum "$img")" = "$sum" ] || { echo "second -y exit $rc or wrote"; return 1; }
	compare_tree "$name" "$img"
	[ -z "${RESCUE_KEEP:-}" ] || cp --sparse=always "$img" "$RESCUE_KEEP/$name-$area.img"
}

@test "rescue: basic, both checkpoint packs zeroed" { rescue_one basic cp 0x02000D; }
@test "rescue: basic, the whole NAT zeroed" { rescue_one basic nat 0x03000A; }
@test "rescue: basic, checkpoint and NAT zeroed" { rescue_one basic cp+nat 0x02000D; }
@test "rescue: basic, 10% of the NAT blocks in use zeroed" { rescue_one basic nat10 0x03000A; }
@test "rescue: basic, the whole SIT zeroed" { rescue_one basic sit 0x04000A; }
@test "rescue: basic, the whole SSA zeroed" { rescue_one basic ssa 0x090002; }
@test "rescue: basic, both superblock copies zeroed" { rescue_one basic sb 0x01000C; }

# sb_same NAME IMG: the rebuilt superblock lays IMG out as NAME's mkfs
# did, and has the features NAME's files use (of the ones mkfs gave it:
# sb_checksum cannot be told, encrypt and verity only by a file using them)
sb_same() {
	local f a b untold=$(( 0x0001 | 0x0400 | 0x0800 ))
	for f in block_count segs_per_sec secs_per_zone section_count segment_count \
		segment_count_ckpt segment_count_sit segment_count_nat segment_count_ssa \
		segment_count_main segment0_blkaddr cp_blkaddr sit_blkaddr nat_blkaddr \
		ssa_blkaddr main_blkaddr cp_payload log_sectorsize qf_ino[0] qf_ino[1] qf_ino[2]; do
		a=$("$F2FIELD" "$F2_FIXTURES/$1.img" get "sb.$f") b=$("$F2FIELD" "$2" get "sb.$f")
		[ "$a" = "$b" ] || { echo "$1: sb.$f: $a, rebuilt $b"; return 1; }
	done
	a=$("$F2FIELD" "$F2_FIXTURES/$1.img" get sb.feature | cut -d' ' -f3)
	b=$("$F2FIELD" "$2" get sb.feature | cut -d' ' -f3)
	(( (a & ~untold) == (b & ~untold) && (b & ~a) == 0 )) ||
		{ printf '%s: features 0x%x, rebuilt 0x%x\n' "$1" "$a" "$b"; return 1; }
}

@test "rescue: every fixture, both superblock copies zeroed: layout (sections of 2 in zones of 2, 64 MiB, 128 MiB) and features found" {
	local n
	for n in basic small sect allfeat casefold strict compress aged; do
		echo "== $n"
		rescue_one "$n" sb 0x01000C || return 1
		grep "rebuilt from" "$BATS_TEST_TMPDIR/n"
		sb_same "$n" "$BATS_TEST_TMPDIR/img" || return 1
	done
}

@test "rescue: aged, both checkpoint packs zeroed: the newest of many versions kept" {
	rescue_one aged cp 0x02000D
	# the main area held stale versions: more node blocks read than kept
	local read kept
	read=$(sed -n 's/.*(\([0-9]*\) node blocks read.*/\1/p' "$BATS_TEST_TMPDIR/n")
	kept=$(sed -n 's/.*, \([0-9]*\) nodes, [0-9]* data blocks.*/\1/p' "$BATS_TEST_TMPDIR/n")
	echo "node blocks read $read, kept $kept"
	[ "$read" -gt "$kept" ]
	# the deleted files the NAT no longer names stay deleted
	grep -Eq ' [1-9][0-9]* more left out as deleted' "$BATS_TEST_TMPDIR/n"
	[ ! -e "$BATS_TEST_TMPDIR/x/lost+found" ]
}
@test "rescue: basic, a checkpoint stale by three versions: every file of the newest nodes back" {
	local img=$BATS_TEST_TMPDIR/img out=$BATS_TEST_TMPDIR/x rc
	fixture_copy basic "$img"
	damage "$img" stale
	rc=0; "$FSCK" -f -n "$img" </dev/null >"$BATS_TEST_TMPDIR/n" 2>&1 || rc=$?
	[ "$rc" -eq 4 ] && grep -q '^0x02000E ' "$BATS_TEST_TMPDIR/n" || { cat "$BATS_TEST_TMPDIR/n"; return 1; }
	rc=0; "$FSCK" -f -y "$img" </dev/null >"$BATS_TEST_TMPDIR/y" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || { tail -n 5 "$BATS_TEST_TMPDIR/y"; echo "-y exit $rc"; return 1; }
	"$FSCK" -f -n "$img" </dev/null >/dev/null
	ref_fsck_clean "$img"
	rm -rf "$out"
	"$DUMP" --extract / --output "$out" "$img" >/dev/null
	# the newest tree: the fixture's files and the three directories
	tree_manifest "$out" | diff "$img.want" -
	tree_xattrs "$out" | diff "$img.wantx" -
	grep -q '^\./new3/sub/g21	' "$img.want"
	grep -q '^\./sparse/' "$img.want"
}
@test "rescue: aged, the whole NAT zeroed" { rescue_one aged nat 0x03000A; }
@test "rescue: aged, checkpoint and NAT zeroed" { rescue_one aged cp+nat 0x02000D; }

# host_sums IMG: "md5 ./path" of every file under 1 GiB of IMG as dump.f2fs
# extracts it, sorted by path
host_sums() {
	rm -rf "$BATS_TEST_TMPDIR/hx"
	"$DUMP" --extract / --output "$BATS_TEST_TMPDIR/hx" --no-owners --xattrs=none "$1" \
		>/dev/null 2>&1 || { echo "dump --extract failed on $1" >&2; return 1; }
	(cd "$BATS_TEST_TMPDIR/hx" && find . -type f -size -1048577k -print0 | xargs -0 -r md5sum) |
		sed 's/^\([0-9a-f]*\)  /\1 /' | LC_ALL=C sort -k2
}

@test "rescue: the rebuilt volumes mount under Linux (F2_KERNEL), every file reads back, the kernel writes, both fscks clean" {
	kernel_require
	local d=$BATS_TEST_TMPDIR specs=(basic:cp basic:nat basic:cp+nat basic:nat10 aged:cp aged:cp+nat
		basic:sb sect:sb allfeat:sb basic:stale basic:sit basic:ssa)
	local imgs=() s i dev rc ok
	for s in "${specs[@]}"; do
		img=$d/${s/:/-}.img
		fixture_copy "${s%%:*}" "$img"
		damage "$img" "${s#*:}"
		rc=0; "$FSCK" -f -y "$img" </dev/null >"$img.y" 2>&1 || rc=$?
		[ "$rc" -eq 1 ] || { tail -n 5 "$img.y"; echo "$s: -y exit $rc"; return 1; }
		host_sums "$img" >"$img.sums"
		imgs+=("$img")
	done
	rc=0; kernel_run "$BATS_TEST_DIRNAME/guest/rescue-check.sh" "${imgs[@]}" || rc=$?
	kernel_output >"$d/out"
	grep -v ' md5 ' "$d/out"
	echo "boot: ${KERNEL_WALL:-?} s"
	[ "$rc" -eq 0 ] && grep -q '^DONE' "$d/out"
	ok='Found nat_bits|Mounted with checkpoint|Using encoding|recover fsync data'
	for i in "${!imgs[@]}"; do
		dev=$(vd_name "$i")
		grep -q "^$dev mount rc=0" "$d/out" || { echo "${specs[$i]}: no mount"; return 1; }
		grep -q "^$dev write rc=0" "$d/out" || { echo "${specs[$i]}: write failed"; return 1; }
		grep -q "^$dev umount rc=0" "$d/out" || { echo "${specs[$i]}: umount failed"; return 1; }
		sed -n "s/^$dev md5 //p" "$d/out" | LC_ALL=C sort -k2 | diff "${imgs[$i]}.sums" - ||
			{ echo "${specs[$i]}: the kernel read other files or contents"; return 1; }
		if kernel_dmesg | grep "F2FS-fs ($dev)" | grep -Ev "$ok"; then
			echo "${specs[$i]}: the kernel complained"; return 1
		fi
		rc=0; "$FSCK" -f -n "${imgs[$i]}" >"$d/after" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] || { cat "$d/after"; echo "${specs[$i]}: after the kernel wrote: exit $rc"; return 1; }
		ref_fsck_clean "${imgs[$i]}"
	done
}

# Disk name of the i-th virtio disk (vda.. vdz).
vd_name() {
	local l=abcdefghijklmnopqrstuvwxyz
	echo "vd${l:$1:1}"
}

@test "rescue: every other fixture (compression, every feature, casefold, strict, sections of 2, small), both checkpoint packs zeroed" {
	local n
	for n in compress allfeat casefold strict sect small; do
		echo "== $n"
		rescue_one "$n" cp 0x02000D || return 1
	done
}
