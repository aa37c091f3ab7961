#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# fsck.f2fs on the images the Linux 6.1 driver wrote, deleted and rewrote
# in QEMU (tests/lib/fixtures.bash: basic, compress, aged, allfeat, small):
# a full check finds nothing and exits 0, never writes, and -y on them
# writes nothing either.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

setup() {
	fixtures_require
}

@test "fsck fixtures: every kernel-written image is clean under -f -n, and -n and -y write nothing" {
	require_prog "$FSCK"
	local name img=$BATS_TEST_TMPDIR/img sum rc
	for name in $(fixtures_names); do
		fixture_copy "$name" "$img"
		sum=$(img_sum "$img")
		rc=0; "$FSCK" -f -n "$img" </dev/null >"$BATS_TEST_TMPDIR/out" 2>&1 || rc=$?
		echo "$name: exit $rc"
		if [ "$rc" -ne 0 ] || grep -q '^0x' "$BATS_TEST_TMPDIR/out"; then
			cat "$BATS_TEST_TMPDIR/out"
			return 1
		fi
		rc=0; "$FSCK" -f -y "$img" </dev/null >/dev/null 2>&1 || rc=$?
		[ "$rc" -eq 0 ]
		[ "$(img_sum "$img")" = "$sum" ]
		rm -f "$img"
	done
}

@test "fsck fixtures: a link count changed on the kernel's basic image is found" {
	require_prog "$FSCK" "$F2_BUILD/tests/tools/f2field"
	local img=$BATS_TEST_TMPDIR/img ino
	fixture_copy basic "$img"
	ino=$("$F2_BUILD/tests/tools/f2field" "$img" get inode.3.links | cut -d' ' -f3)
	[ -n "$ino" ]
	"$F2_BUILD/tests/tools/f2field" "$img" set inode.3.links $((ino + 1))
	"$F2_BUILD/tests/tools/f2field" "$img" fixcrc inode.3
	run "$FSCK" -f -n "$img"
	echo "$output"
	[ "$status" -eq 4 ]
	[[ "$output" == *"0x050002 INODE_LINKS: ino 3: i_links $((ino + 1)), found $ino"* ]]
}
