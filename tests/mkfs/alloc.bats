#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# alloc.bats - our mkfs must not fill big sparse images: at most 2 MiB
# allocated on 64 GiB and 1 TiB files (the reference allocates ~120 MiB).
# Timing is left to bench/mkfs-alloc.sh.

load ../lib/common

LIMIT=$((2 * 1024 * 1024))

check_alloc() {
	local size=$1 img=$BATS_TEST_TMPDIR/img bytes
	shift
	require_prog "$MKFS"
	make_image "$img" "$size"
	run_mkfs "$MKFS" -f "$@" "$img"
	bytes=$(allocated_bytes "$img")
	echo "allocated $bytes bytes on $size (limit $LIMIT)"
	[ "$bytes" -le "$LIMIT" ]
}

@test "alloc 64G: default allocates at most 2 MiB" { check_alloc 64G; }
@test "alloc 1T: default allocates at most 2 MiB" { check_alloc 1T; }
@test "alloc 64G: quota,lost_found allocates at most 2 MiB" { check_alloc 64G -O extra_attr,quota,lost_found; }
@test "alloc 1T: quota,lost_found allocates at most 2 MiB" { check_alloc 1T -O extra_attr,quota,lost_found; }
