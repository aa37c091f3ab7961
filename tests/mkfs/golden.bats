#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# golden.bats - what mkfs.f2fs and populate write, and what dump.f2fs prints
# of it, stays byte-identical across refactors: tests/mkfs/golden.sh formats
# a fixed set of option combinations and trees with a fixed UUID and times
# and hashes each image and each dump (text and JSON); the hashes must equal
# tests/mkfs/golden.sha256.  A change meant to alter the output updates that
# file in the same commit and says why.
load ../lib/common

@test "golden: mkfs and populate images and their dumps are byte-identical to golden.sha256" {
	require_prog "$MKFS" "$DUMP"
	GOLDEN_TOP=$F2_TOP GOLDEN_DIND=1 "$F2_TOP/tests/mkfs/golden.sh" "$F2_BUILD" \
		"$BATS_TEST_TMPDIR/g" >"$BATS_TEST_TMPDIR/got"
	diff -u "$F2_TOP/tests/mkfs/golden.sha256" "$BATS_TEST_TMPDIR/got"
}
