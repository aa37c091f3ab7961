#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/unit.bats - the C unit tests of the victim costs and the planner
# (its prediction under LFS, SSR and auto), and of SSR allocation.
load ../lib/common

@test "gc unit: costs (6.1 formula), ordering, targets, histogram" {
	run "$F2_BUILD/tests/unit/test_gc"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "gc unit: SSR fills slots free at the last checkpoint, never one it still references; both fscks clean" {
	require_prog "$MKFS" "$FSCK"
	local img
	img=$(f2_tmp)/ssr.img
	make_image "$img" 64M
	run_mkfs "$MKFS" -f -q "$img"
	run "$F2_BUILD/tests/unit/test_ssr" "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	"$FSCK" -f -n "$img"
	ref_fsck_clean "$img"
}
