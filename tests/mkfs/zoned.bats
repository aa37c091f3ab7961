#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# zoned.bats - the host-side part of mkfs.f2fs -m: option handling and
# refusals on devices that are not zoned (image files), the unit test of
# zone lists and zoned layouts, and the reserve/overprovision accounting of
# large sections, which zoned volumes use and which must equal the
# reference's also when the device ends inside a zone.  The zoned devices
# themselves are exercised in QEMU by tests/kernel/zoned.bats.

load ../lib/common

@test "zoned: unit test of zone lists and zoned layouts" {
	run "$F2_BUILD/tests/unit/test_zoned"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "zoned: -m is documented in --help" {
	run "$MKFS" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"-m "*zoned* ]]
}

# refused_untouched IMG CMD...: CMD fails with exit 1, says why, and IMG
# still holds no file system
refused_untouched() {
	local img=$1
	shift
	run "$@"
	echo "exit $status: $output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not a zoned block device"* || "$output" == *"no zoned block device"* ]]
	# nothing written: the first 8 KiB (both superblocks) are still zero
	cmp -n 8192 "$img" /dev/zero
}

@test "zoned: -m on an image file is refused and writes nothing" {
	img=$BATS_TEST_TMPDIR/a.img
	truncate -s 1G "$img"
	refused_untouched "$img" "$MKFS" -f -m "$img"
}

@test "zoned: -m on a volume of image files is refused and writes nothing" {
	truncate -s 256M "$BATS_TEST_TMPDIR/a.img"
	truncate -s 1G "$BATS_TEST_TMPDIR/b.img"
	refused_untouched "$BATS_TEST_TMPDIR/a.img" "$MKFS" -f -m -c "$BATS_TEST_TMPDIR/b.img" \
		"$BATS_TEST_TMPDIR/a.img"
	cmp -n 8192 "$BATS_TEST_TMPDIR/b.img" /dev/zero
}

@test "zoned: the reference also refuses -m on an image file" {
	require_prog "$REF_MKFS"
	img=$BATS_TEST_TMPDIR/a.img
	truncate -s 1G "$img"
	run "$REF_MKFS" -f -m "$img"
	echo "$output"
	[ "$status" -ne 0 ]
}

@test "zoned: without -m an image file gets no blkzoned feature" {
	require_prog "$F2SB"
	img=$BATS_TEST_TMPDIR/a.img
	truncate -s 1G "$img"
	"$MKFS" -q -f "$img"
	feat=$("$F2SB" "$img" | sed -n 's/^feature=//p')
	echo "feature=$feat"
	[ $(( feat & 0x2 )) -eq 0 ]
}

# same_as_ref SIZE OPTIONS...: our superblock geometry and the checkpoint's
# reserve, overprovision, free segments and user blocks equal the
# reference's for the same image size and options
same_as_ref() {
	local size=$1
	shift
	require_prog "$REF_MKFS" "$F2SB"
	local o=$BATS_TEST_TMPDIR/ours.img r=$BATS_TEST_TMPDIR/ref.img
	truncate -s "$size" "$o" "$r"
	"$MKFS" -q -f "$@" "$o"
	"$REF_MKFS" -q -f "$@" "$r"
	compare_geometry "$o" "$r"
	compare_cp "$o" "$r" user_block_count rsvd_segment_count overprov_segment_count \
		free_segment_count
}

# Sections of several segments: the reference counts every segment of the
# device as usable, also those past the last whole zone, and reserves in
# units of usable segments per section.
@test "zoned: large sections, device ending inside a zone (1000M -s 4 -z 4)" {
	same_as_ref 1000M -s 4 -z 4
}
@test "zoned: large sections, device ending inside a zone (3001M -s 32)" {
	same_as_ref 3001M -s 32
}
@test "zoned: large sections, device ending inside a zone (5000M -s 8 -z 3)" {
	same_as_ref 5000M -s 8 -z 3
}
@test "zoned: large sections, two devices (-s 32, 300M + 4G)" {
	require_prog "$REF_MKFS" "$F2SB"
	local side
	for side in ours ref; do
		mkdir -p "$BATS_TEST_TMPDIR/$side"
		truncate -s 300M "$BATS_TEST_TMPDIR/$side/main.img"
		truncate -s 4G "$BATS_TEST_TMPDIR/$side/dev1.img"
	done
	"$MKFS" -q -f -s 32 -c "$BATS_TEST_TMPDIR/ours/dev1.img" "$BATS_TEST_TMPDIR/ours/main.img"
	"$REF_MKFS" -q -f -s 32 -c "$BATS_TEST_TMPDIR/ref/dev1.img" "$BATS_TEST_TMPDIR/ref/main.img"
	compare_geometry "$BATS_TEST_TMPDIR/ours/main.img" "$BATS_TEST_TMPDIR/ref/main.img"
	compare_cp "$BATS_TEST_TMPDIR/ours/main.img" "$BATS_TEST_TMPDIR/ref/main.img" \
		user_block_count rsvd_segment_count overprov_segment_count free_segment_count
}
