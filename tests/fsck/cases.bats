#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Corruption cases: each tests/fsck/NNN-name/ holds make.sh (a clean image
# from the reference mkfs + sload, or for casefolding from our mkfs
# (lib.sh cf_base), then one fault injected with
# tests/tools/f2field at a computed offset), desc (one line) and expect
# (codes: the exact set of problem codes -n reports; n_exit, y_exit: exit
# statuses of -f -n and -f -y; after_y: "clean" when -y repairs it, so a
# second run and the reference fsck find it clean, or "unchanged" when
# this version reports but cannot repair it, so -y must not write).
# Every case also checks that -n never changes a byte.  make.sh may build
# a multi-device volume (mkfs -c): IMG is its first device, IMG.dev1,
# IMG.dev2, ... the others, and every byte check covers them all.
load ../lib/common

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}
export F2FIELD REF_SLOAD

# vol_sum IMG: one hash over IMG and the further devices IMG.devN
vol_sum() {
	local f
	local -a files=()
	for f in "$1" "$1".dev[0-9]*; do
		[ -e "$f" ] && files+=("$f")
	done
	img_sum "${files[@]}"
}

run_case() {
	local name=$1 dir=$F2_TOP/tests/fsck/$1 img=$BATS_TEST_TMPDIR/img
	local codes n_exit y_exit after_y before got rc
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	# shellcheck disable=SC1091
	. "$dir/expect"
	bash "$dir/make.sh" "$img" || { echo "make.sh failed"; return 1; }
	before=$(vol_sum "$img")
	rc=0; "$FSCK" -f -n "$img" </dev/null >"$BATS_TEST_TMPDIR/n.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/n.out"
	f2_codes "$BATS_TEST_TMPDIR/n.out"
	got=$REPLY
	[ "$got" = "$codes" ] || { echo "$name: codes '$got', expected '$codes'"; return 1; }
	[ "$rc" -eq "$n_exit" ] || { echo "$name: -n exit $rc, expected $n_exit"; return 1; }
	[ "$(vol_sum "$img")" = "$before" ] || { echo "$name: -n changed the image"; return 1; }
	rc=0; "$FSCK" -f -y "$img" </dev/null >"$BATS_TEST_TMPDIR/y.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/y.out"
	[ "$rc" -eq "$y_exit" ] || { echo "$name: -y exit $rc, expected $y_exit"; return 1; }
	case $after_y in
	clean)
		rc=0; "$FSCK" -f -n "$img" </dev/null >"$BATS_TEST_TMPDIR/2.out" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] || { cat "$BATS_TEST_TMPDIR/2.out"; echo "second run exit $rc"; return 1; }
		ref_fsck_clean "$img"
		# idempotent: -y again finds and writes nothing
		before=$(vol_sum "$img")
		rc=0; "$FSCK" -f -y "$img" </dev/null >/dev/null 2>&1 || rc=$?
		[ "$rc" -eq 0 ] && [ "$(vol_sum "$img")" = "$before" ]
		;;
	unchanged)
		[ "$(vol_sum "$img")" = "$before" ] || { echo "$name: -y wrote"; return 1; }
		;;
	*) echo "bad after_y '$after_y'"; return 1 ;;
	esac
}

@test "fsck cases: every case directory has make.sh, desc and expect, and a test here" {
	local d n
	for d in "$F2_TOP"/tests/fsck/[0-9][0-9][0-9]-*/; do
		n=$(basename "$d")
		[ -x "$d/make.sh" ] && [ -s "$d/desc" ] && [ -s "$d/expect" ] || { echo "$n incomplete"; return 1; }
		grep -q "run_case $n;" "$BATS_TEST_FILENAME" || { echo "$n has no test"; return 1; }
	done
}

@test "001-sb-primary-magic" { run_case 001-sb-primary-magic; }
@test "002-sb-backup-crc" { run_case 002-sb-backup-crc; }
@test "003-sb-copies-differ" { run_case 003-sb-copies-differ; }
@test "004-sb-primary-range" { run_case 004-sb-primary-range; }
@test "005-cp-crc" { run_case 005-cp-crc; }
@test "006-cp-error-flag" { run_case 006-cp-error-flag; }
@test "007-cp-valid-blocks" { run_case 007-cp-valid-blocks; }
@test "008-cp-valid-nodes" { run_case 008-cp-valid-nodes; }
@test "009-cp-valid-inodes" { run_case 009-cp-valid-inodes; }
@test "010-cp-free-segs" { run_case 010-cp-free-segs; }
@test "011-cp-user-blocks" { run_case 011-cp-user-blocks; }
@test "012-nat-addr-range" { run_case 012-nat-addr-range; }
@test "013-nat-ino-range" { run_case 013-nat-ino-range; }
@test "014-nat-dup-addr" { run_case 014-nat-dup-addr; }
@test "015-inode-links" { run_case 015-inode-links; }
@test "016-inode-links-hard" { run_case 016-inode-links-hard; }
@test "017-inode-blocks" { run_case 017-inode-blocks; }
@test "018-inode-csum" { run_case 018-inode-csum; }
@test "019-inode-csum-links" { run_case 019-inode-csum-links; }
@test "020-inode-namelen" { run_case 020-inode-namelen; }
@test "021-inode-inline-nid" { run_case 021-inode-inline-nid; }
@test "022-inode-depth" { run_case 022-inode-depth; }
@test "023-inode-xattr-free" { run_case 023-inode-xattr-free; }
@test "024-dent-ino-free" { run_case 024-dent-ino-free; }
@test "025-dent-hash" { run_case 025-dent-hash; }
@test "026-dent-ftype" { run_case 026-dent-ftype; }
@test "027-dent-namelen" { run_case 027-dent-namelen; }
@test "028-dent-not-inode" { run_case 028-dent-not-inode; }
@test "029-dent-dotdot" { run_case 029-dent-dotdot; }
@test "030-dir-multi-link" { run_case 030-dir-multi-link; }
@test "031-dent-bit-cleared" { run_case 031-dent-bit-cleared; }
@test "032-sit-vblocks" { run_case 032-sit-vblocks; }
@test "033-sit-stray-bit" { run_case 033-sit-stray-bit; }
@test "034-ssa-data" { run_case 034-ssa-data; }
@test "035-node-footer" { run_case 035-node-footer; }
@test "036-node-owner" { run_case 036-node-owner; }
@test "037-nat-bits" { run_case 037-nat-bits; }
@test "038-node-dup-nid" { run_case 038-node-dup-nid; }
@test "039-nat-nid0" { run_case 039-nat-nid0; }
@test "040-sit-type" { run_case 040-sit-type; }
@test "041-inode-mode" { run_case 041-inode-mode; }
@test "042-orphan-linked" { run_case 042-orphan-linked; }
@test "043-orphan-entry-count" { run_case 043-orphan-entry-count; }
@test "044-orphan-blk-count" { run_case 044-orphan-blk-count; }
@test "045-orphan-ino-free" { run_case 045-orphan-ino-free; }
@test "046-orphan-ino-node" { run_case 046-orphan-ino-node; }
@test "047-cp-torn" { run_case 047-cp-torn; }
@test "048-curseg-shared" { run_case 048-curseg-shared; }
@test "049-dent-bucket" { run_case 049-dent-bucket; }
@test "050-quota-user" { run_case 050-quota-user; }
@test "051-quota-group" { run_case 051-quota-group; }
@test "052-quota-missing" { run_case 052-quota-missing; }
@test "053-quota-uid" { run_case 053-quota-uid; }
@test "054-quota-magic" { run_case 054-quota-magic; }
@test "055-curseg-type" { run_case 055-curseg-type; }
@test "056-nat-addr-lost" { run_case 056-nat-addr-lost; }
@test "057-curseg-shared-type" { run_case 057-curseg-shared-type; }
@test "058-nat-meta-ino" { run_case 058-nat-meta-ino; }
@test "059-inode-ext" { run_case 059-inode-ext; }
@test "060-root-mode" { run_case 060-root-mode; }
@test "061-root-zeroed" { run_case 061-root-zeroed; }
@test "062-multidev-inode-links" { run_case 062-multidev-inode-links; }
@test "063-casefold-clean" { run_case 063-casefold-clean; }
@test "064-casefold-hash" { run_case 064-casefold-hash; }
@test "065-casefold-dup" { run_case 065-casefold-dup; }
@test "066-casefold-strict" { run_case 066-casefold-strict; }
@test "067-casefold-encoding" { run_case 067-casefold-encoding; }
@test "068-casefold-dot" { run_case 068-casefold-dot; }
@test "069-cp-free-segs-high" { run_case 069-cp-free-segs-high; }
@test "070-cp-disabled-free-segs" { run_case 070-cp-disabled-free-segs; }
@test "071-cp-disabled-free-segs-low" { run_case 071-cp-disabled-free-segs-low; }
@test "072-dent-name-slash" { run_case 072-dent-name-slash; }
@test "073-dent-dotdot-extra" { run_case 073-dent-dotdot-extra; }

# preen_pair SAFE UNSAFE: -p repairs case SAFE (exit 1, then clean) and
# leaves case UNSAFE untouched (exit 4, not a byte written)
preen_pair() {
	local img=$BATS_TEST_TMPDIR/img before rc
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	bash "$F2_TOP/tests/fsck/$1/make.sh" "$img"
	rc=0; "$FSCK" -f -p "$img" </dev/null || rc=$?
	[ "$rc" -eq 1 ]
	"$FSCK" -f -n "$img" </dev/null
	bash "$F2_TOP/tests/fsck/$2/make.sh" "$img"
	before=$(vol_sum "$img")
	rc=0; "$FSCK" -f -p "$img" </dev/null || rc=$?
	[ "$rc" -eq 4 ]
	[ "$(vol_sum "$img")" = "$before" ]
}

@test "fsck -p: repairs a structural problem marked safe (017), writes nothing for an unsafe one (015)" {
	preen_pair 017-inode-blocks 015-inode-links
}

@test "fsck -p: rebuilds an orphan list unasked (045), writes nothing while a linked orphan is left (044)" {
	preen_pair 045-orphan-ino-free 044-orphan-blk-count
}

@test "fsck -p: casefold findings (064 hash, 065 duplicate, 066 refused name) are left for -y" {
	local img=$BATS_TEST_TMPDIR/img before rc c
	require_prog "$FSCK" "$F2FIELD" "$MKFS"
	for c in 064-casefold-hash 065-casefold-dup 066-casefold-strict; do
		bash "$F2_TOP/tests/fsck/$c/make.sh" "$img"
		before=$(vol_sum "$img")
		rc=0; "$FSCK" -f -p "$img" </dev/null || rc=$?
		echo "$c: -p exit $rc"
		[ "$rc" -eq 4 ]
		[ "$(vol_sum "$img")" = "$before" ]
	done
}
@test "074-sit-vblocks-high" { run_case 074-sit-vblocks-high; }
@test "075-sit-block-under-journal" { run_case 075-sit-block-under-journal; }
@test "076-nat-addr-data" { run_case 076-nat-addr-data; }
@test "077-cp-head-damaged" { run_case 077-cp-head-damaged; }
@test "078-sb-both-bad" { run_case 078-sb-both-bad; }
@test "079-cp-node-count-range" { run_case 079-cp-node-count-range; }
@test "080-cp-overprov-range" { run_case 080-cp-overprov-range; }
@test "081-cp-reserve-both-packs" { run_case 081-cp-reserve-both-packs; }
@test "082-sb-primary-cp-payload" { run_case 082-sb-primary-cp-payload; }
@test "083-sb-primary-features" { run_case 083-sb-primary-features; }
@test "084-sb-primary-features-nocrc" { run_case 084-sb-primary-features-nocrc; }
@test "085-sb-backup-cp-payload" { run_case 085-sb-backup-cp-payload; }
@test "086-nat-entry-garbage" {
	run_case 086-nat-entry-garbage;
	# the file is kept, its content intact (std_tree in lib.sh)
	mkdir -p "$BATS_TEST_TMPDIR/x"
	"$DUMP" --extract /d1/d2/mid --output "$BATS_TEST_TMPDIR/x" "$BATS_TEST_TMPDIR/img"
	cmp "$BATS_TEST_TMPDIR/x/mid" <(seq 1 200)
}
@test "090-ssa-version" { run_case 090-ssa-version; }
@test "091-ssa-type" { run_case 091-ssa-type; }
@test "092-inode-ext-inline" { run_case 092-inode-ext-inline; }
@test "093-sb-primary-stray-qf-ino" { run_case 093-sb-primary-stray-qf-ino; }
@test "094-inode-footer-owner" { run_case 094-inode-footer-owner; }
@test "095-inode-flags-feature" { run_case 095-inode-flags-feature; }
@test "096-sb-primary-feature-garbage" { run_case 096-sb-primary-feature-garbage; }
@test "097-cp-pack-count" { run_case 097-cp-pack-count; }
@test "098-dir-pino" { run_case 098-dir-pino; }
@test "099-nat-addr-stale" { run_case 099-nat-addr-stale; }
@test "100-inline-reserved" { run_case 100-inline-reserved; }
@test "101-compr-blocks" { run_case 101-compr-blocks; }
@test "102-cp-fsck-flag" { run_case 102-cp-fsck-flag; }
@test "110-rescue-cp-zeroed" { run_case 110-rescue-cp-zeroed; }
@test "111-rescue-nat-zeroed" { run_case 111-rescue-nat-zeroed; }
@test "112-rescue-cp-nat-zeroed" { run_case 112-rescue-cp-nat-zeroed; }
@test "113-rescue-sit-zeroed" { run_case 113-rescue-sit-zeroed; }
@test "114-rescue-ssa-zeroed" { run_case 114-rescue-ssa-zeroed; }
@test "115-rescue-nat-share" { run_case 115-rescue-nat-share; }
@test "116-rescue-cp-stale" { run_case 116-rescue-cp-stale; }
# sb_layout_same CASE [mkfs options]: after CASE's run, its image's
# superblock lays the volume out as the clean one's (its base) did
sb_layout_same() {
	local c=$1 img=$BATS_TEST_TMPDIR/img ref=$BATS_TEST_TMPDIR/ref f
	shift
	(. "$F2_TOP/tests/fsck/lib.sh" && base "$ref" "$@")
	for f in block_count segs_per_sec secs_per_zone section_count segment_count segment_count_sit \
		segment_count_nat segment_count_ssa segment_count_main cp_blkaddr sit_blkaddr \
		nat_blkaddr ssa_blkaddr main_blkaddr cp_payload feature; do
		[ "$("$F2FIELD" "$ref" get "sb.$f")" = "$("$F2FIELD" "$img" get "sb.$f")" ] ||
			{ echo "$c: sb.$f: $("$F2FIELD" "$ref" get "sb.$f"), rebuilt $("$F2FIELD" "$img" get "sb.$f")"; return 1; }
	done
}
@test "117-sb-both-lost" {
	run_case 117-sb-both-lost;
	sb_layout_same 117-sb-both-lost
}
@test "118-sb-both-lost-sect" {
	run_case 118-sb-both-lost-sect;
	sb_layout_same 118-sb-both-lost-sect -s 2 -z 2 -o 10
	grep -q "superblock rebuilt from checkpoint pack 1 and the device size" "$BATS_TEST_TMPDIR/n.out"
}
