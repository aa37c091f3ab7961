#!/usr/bin/env bats
# The read API (lib/fs.c, cp.c, nat.c, sit.c, node.c, inode.c) through the
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
