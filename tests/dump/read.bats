#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The read API (lib/fs/open.c, cp.c, nat.c, sit.c, node.c, inode.c) through the
# unit program tests/unit/test_read: images in memory from our mkfs writer
# with damaged superblock and checkpoint copies, and reference-mkfs images
# whose NAT, SIT and checkpoint counts must agree.
load ../lib/common

TEST_READ=$F2_BUILD/tests/unit/test_read

@test "read API: selection, lookups and reasons on in-memory images" {
	run "$TEST_READ"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "read API: decompressors (own lzo1x/lzo-rle decoder vs liblzo2, lz4, zstd; garbage input)" {
	run "$F2_BUILD/tests/unit/test_read_lzo"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "read API: reference mkfs images under several option sets agree with their cp counts" {
	require_prog "$REF_MKFS" "$TEST_READ"
	local i=0 opts
	for opts in "" "-O extra_attr,inode_checksum,flexible_inline_xattr,sb_checksum,compression,quota,lost_found" \
		    "-i" "-s 4 -z 2"; do
		img=$BATS_TEST_TMPDIR/ref$i.img
		truncate -s 1G "$img"
		# shellcheck disable=SC2086
		"$REF_MKFS" -q -f $opts "$img" >/dev/null
		run "$TEST_READ" "$img"
		echo "mkfs $opts: $output"
		[ "$status" -eq 0 ]
		rm -f "$img"
		i=$((i + 1))
	done
}

@test "read API: a 1 TiB reference image opens and walks NAT and SIT" {
	require_prog "$REF_MKFS" "$TEST_READ"
	img=$BATS_TEST_TMPDIR/big.img
	truncate -s 1T "$img"
	"$REF_MKFS" -q -f "$img" >/dev/null
	run "$TEST_READ" "$img"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "read API: file data on the second device of a two-device volume reads back exactly" {
	run "$F2_BUILD/tests/unit/test_read_multidev"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "read API: multi-device volumes (ours and the reference's) open through every device" {
	require_prog "$REF_MKFS" "$MKFS" "$TEST_READ" "$DUMP"
	local t=$BATS_TEST_TMPDIR
	truncate -s 512M "$t/a1" "$t/a2" "$t/b1" "$t/b2" "$t/b3"
	run_mkfs "$MKFS" -f -c "$t/a2" "$t/a1"
	"$REF_MKFS" -q -f -c "$t/b2" -c "$t/b3" "$t/b1" >/dev/null
	run "$TEST_READ" "$t/a1" "$t/b1"
	echo "$output"
	[ "$status" -eq 0 ]
	run "$DUMP" -d 1 "$t/b1"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "devs\[2\].path.*$t/b3"
	mv "$t/b3" "$t/b3.moved"
	run "$DUMP" "$t/b1"
	echo "$output"
	[ "$status" -eq 2 ]
	echo "$output" | grep -q "device 2: cannot open $t/b3"
}
