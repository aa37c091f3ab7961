#!/usr/bin/env bats
# The write engine (lib/ew_*.c) on images from our mkfs: a tree written
# through it reads back through the read path, and the reference
# fsck.f2fs --dry-run finds every checkpoint it commits clean.
load ../lib/common

TE="$F2_BUILD/tests/unit/test_engine"

engine_round() {
	local img=$BATS_TEST_TMPDIR/e.img
	make_image "$img" "${SIZE:-2G}"
	run_mkfs "$MKFS" -f "$@" "$img"
	run "$TE" write "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	run "$TE" check "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	ref_fsck_clean "$img"
	if [ -x "$FSCK" ]; then
		# our fsck, when built: reported, not a verdict here
		"$FSCK" -f -n "$img" >"$BATS_TEST_TMPDIR/ourfsck.out" 2>&1 ||
			echo "note: our fsck.f2fs exit $?" >&2
	fi
}

@test "engine: default features, read back, reference fsck clean" {
	engine_round
}

@test "engine: extra_attr, inode_checksum, flexible_inline_xattr, crtime, lost_found" {
	engine_round -O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,lost_found,sb_checksum
}

@test "engine: sections of 4 segments in zones of 2 sections" {
	engine_round -s 4 -z 2
}

@test "engine: tiny block cache (write-back many times between checkpoints)" {
	TEST_ENGINE_CACHE=64 engine_round
}

@test "engine: a volume too small for the tree fails with ENOSPC, old checkpoint intact" {
	local img=$BATS_TEST_TMPDIR/s.img
	make_image "$img" 64M
	run_mkfs "$MKFS" -f "$img"
	cp --sparse=always "$img" "$img.orig"
	run "$TE" write "$img"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"No space"* || "$output" == *"no free"* || "$output" == *"ENOSPC"* || "$output" == *"space"* ]]
	ref_fsck_clean "$img"
}
