#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/dump/extract-kernel.bats - dump.f2fs --extract / on the images the
# Linux 6.1 driver populated (tests/lib/fixtures.bash) reproduces what the
# guest saw: every path with its type, mode, owner, size, link count and
# md5 or link target (the fixture's manifest), and its xattrs.  Also the
# read API walk (NAT/SIT counts) and --ls on the same images.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load helpers

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

setup() {
	fixtures_require
	require_prog "$DUMP"
}

# extract_and_compare NAME [DUMP OPTIONS...]: extract NAME's root into
# $BATS_TEST_TMPDIR/NAME and diff against NAME.manifest
extract_and_compare() {
	local name=$1 out=$BATS_TEST_TMPDIR/$1; shift
	run "$DUMP" "$@" --extract / --output "$out" "$F2_FIXTURES/$name.img"
	echo "$output"
	[ "$status" -eq 0 ]
	tree_manifest "$out" >"$out.manifest"
	check_big_files "$name" "$out"
	diff "$F2_FIXTURES/$name.manifest" "$out.manifest"
}

# Files over 1 GiB (basic's sparse/dind) are checked without reading their
# holes: allocated blocks, the one data block, and the expected md5 the
# fixture computed for exactly that layout; then the manifest line is
# completed with it.
check_big_files() {
	local name=$1 out=$2 p
	for p in $(awk -F'\t' '$8 == "big" { print $1 }' "$out.manifest"); do
		[ "$p" = ./sparse/dind ] || { echo "unexpected big file $p"; return 1; }
		[ "$(allocated_bytes "$out/$p")" -le $((1 << 20)) ]
		dd if="$out/$p" bs=4096 skip="$F2_FIXTURE_DIND_BLOCK" count=1 status=none |
			cmp - "$F2_FIXTURES/dind.blk"
		sed -i "s|^\\./sparse/dind\\t\\(.*\\)\\tbig\$|./sparse/dind\\t\\1\\t$(cat "$F2_FIXTURES/dind.md5")|" \
			"$out.manifest"
	done
}

@test "extract-kernel: basic (every file type and size class) matches its manifest and user xattrs" {
	extract_and_compare basic
	tree_xattrs "$BATS_TEST_TMPDIR/basic" >"$BATS_TEST_TMPDIR/xattrs"
	grep -P '\tuser\.' "$F2_FIXTURES/basic.xattrs" | diff - "$BATS_TEST_TMPDIR/xattrs"
}

@test "extract-kernel: basic with --xattrs=all restores trusted. xattrs too (root), none with --xattrs=none" {
	[ "$(id -u)" -eq 0 ] || skip "trusted. xattrs need root"
	extract_and_compare basic --xattrs=all
	tree_xattrs "$BATS_TEST_TMPDIR/basic" | diff "$F2_FIXTURES/basic.xattrs" -
	rm -rf "$BATS_TEST_TMPDIR/basic"
	extract_and_compare basic --xattrs=none
	[ -z "$(tree_xattrs "$BATS_TEST_TMPDIR/basic")" ]
}

@test "extract-kernel: compress (lzo, lz4, lz4hc, zstd, lzo-rle clusters) matches its manifest" {
	extract_and_compare compress
	# the fixture really holds compressed files of every algorithm
	for a in lzo lz4 lz4hc zstd lzo-rle; do
		grep -qP "\t$a\t.*\tcompressed\$" "$F2_FIXTURES/compress.algos"
	done
}

@test "extract-kernel: aged (written, deleted, rewritten) matches its manifest" {
	extract_and_compare aged
}

@test "extract-kernel: small and allfeat match their manifests" {
	extract_and_compare small
	extract_and_compare allfeat
}

@test "extract-kernel: the read API walks every fixture (NAT, SIT counts agree with the cp)" {
	local n
	for n in $(fixtures_names); do
		run "$F2_BUILD/tests/unit/test_read" "$F2_FIXTURES/$n.img"
		echo "$n: $output"
		[ "$status" -eq 0 ]
	done
}

@test "extract-kernel: superblock, checkpoint, NAT, SIT and SSA of every fixture equal the reference dump's" {
	require_prog "$REF_DUMP"
	local n
	for n in $(fixtures_names); do
		echo "== $n"
		compare_sb_cp "$F2_FIXTURES/$n.img"
		compare_nat "$F2_FIXTURES/$n.img" 3
		compare_sit "$F2_FIXTURES/$n.img"
		compare_ssa "$F2_FIXTURES/$n.img" 10
	done
}

@test "extract-kernel: every data block maps back to its file block (summary, node offset, f2_file_node_start); dump -b names the owner" {
	local p a ino
	for p in /size/direct929p1 /size/dnode2900 /size/indirect /sparse/dind /sparse/holes; do
		run "$F2_BUILD/tests/unit/test_read" --owner "$F2_FIXTURES/basic.img" "$p"
		echo "$output"
		[ "$status" -eq 0 ]
	done
	for p in /zstd/mixed1m.txt /lzo-rle/mixed1m.txt /lz4hc/mixed1m.txt; do
		run "$F2_BUILD/tests/unit/test_read" --owner "$F2_FIXTURES/compress.img" "$p"
		echo "$output"
		[ "$status" -eq 0 ]
	done
	ino=$("$DUMP" --json --stat /size/indirect "$F2_FIXTURES/basic.img" | jq .inode.ino)
	a=$("$DUMP" --json --stat /size/indirect "$F2_FIXTURES/basic.img" | jq '.inode.i_addr[5].addr')
	run "$DUMP" --json -b "$a" "$F2_FIXTURES/basic.img"
	echo "$output" | jq -c .block
	[ "$(echo "$output" | jq '.block["owner.ino"]')" = "$ino" ]
	[ "$(echo "$output" | jq '.block["owner.maps_back"]')" = 1 ]
}
