#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The write engine (lib/eng_*.c) on images from our mkfs: a tree written
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

@test "engine: crash at sampled writes of a run with three checkpoints and deletions: a committed state, reference fsck clean" {
	local img=$BATS_TEST_TMPDIR/e.img base=$BATS_TEST_TMPDIR/base.img log=$BATS_TEST_TMPDIR/log
	local replay=$F2_BUILD/tests/tools/f2replay n p t=$BATS_TEST_TMPDIR/c.img status vers
	make_image "$base" 2G
	run_mkfs "$MKFS" -f "$base"
	cp --sparse=always "$base" "$img"
	F2_IO_RECORD=$log "$TE" write "$img"
	n=$("$replay" count "$log")
	echo "records: $n"
	vers=
	for p in $( (for k in $(seq 0 24); do echo $((n * k / 24)); done;
		     for k in 0 1 2 3 4; do echo $((n - k)); done) | sort -nu); do
		cp --sparse=always "$base" "$t"
		"$replay" apply "$log" "$t" "$p" >/dev/null
		status=0
		"$REF_FSCK" --dry-run "$t" </dev/null >"$t.out" 2>&1 || status=$?
		grep -Ev '^[[:space:]]*Invalid CP CRC' "$t.out" >"$t.f"
		if ! f2_ref_fsck_verdict "$t.f" "$status"; then
			echo "prefix $p of $n:"
			cat "$t.out"
			return 1
		fi
		vers="$vers $(sed -n 's/^Info: CKPT version = //p' "$t.out")"
	done
	echo "checkpoint versions seen:$vers"
	# the mkfs state, the three engine checkpoints: four versions
	[ "$(echo $vers | tr ' ' '\n' | sort -u | wc -l)" -eq 4 ]
	# the whole log is the final state, which reads back
	cp --sparse=always "$base" "$t"
	"$replay" apply "$log" "$t" all >/dev/null
	"$TE" check "$t"
}

@test "engine: an orphan is kept by a checkpoint and a reopen, then removed" {
	local img=$BATS_TEST_TMPDIR/o.img
	make_image "$img" 256M
	run_mkfs "$MKFS" -f "$img"
	run "$TE" orphan "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	ref_fsck_clean "$img"
}

@test "engine: the repair iterator sees a directory block under a node not yet written, and passes the holes of a sparse directory" {
	local img=$BATS_TEST_TMPDIR/s.img
	make_image "$img" 256M
	run_mkfs "$MKFS" -f "$img"
	run "$TE" sparse "$img"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "engine: compressed files (test_compress): encoders round-trip; clusters rewritten, refused, deleted, released; both fscks clean" {
	local img=$BATS_TEST_TMPDIR/c.img
	run "$F2_BUILD/tests/unit/test_compress"
	echo "$output"
	[ "$status" -eq 0 ]
	make_image "$img" 128M
	run_mkfs "$MKFS" -f -O extra_attr,compression "$img"
	run "$F2_BUILD/tests/unit/test_compress" "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	"$FSCK" -f -n "$img"
	ref_fsck_clean "$img"
}
