#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tune/kernel.bats - volumes tune.f2fs changed mount under each
# kernel series (one boot): after -U on 10k inodes with inode_checksum and
# sb_checksum no checksum complaint and every file there; after -O
# lost_found,encrypt,verity,sb_checksum -C utf8 lost+found is there and
# files read back; after -O quota,project_quota the kernel keeps the
# quota files we built in step with what it writes (our fsck compares
# every id's usage with them afterwards); the kernel writes on all, and
# both fscks find them clean afterwards.

load ../lib/common
load ../lib/kernel

TUNE=${TUNE:-$F2_BUILD/tune/tune.f2fs}
f2_unwrap TUNE

@test "tune kernel: volumes after -U and -O mount, read back, take writes, check clean" {
	kernel_require
	require_prog "$TUNE" "$MKFS" "$FSCK"
	local T=$BATS_TEST_TMPDIR n i img
	mkdir -p "$T/a/sub" "$T/b"
	(cd "$T/a" && seq 1 10000 | xargs -n 500 touch && seq 1 5000 >sub/file)
	for i in 1 2 3; do head -c 300000 /dev/urandom >"$T/b/f$i"; done
	make_image "$T/a.img" 256M
	run_mkfs "$MKFS" -f -q -O extra_attr,inode_checksum,sb_checksum --root "$T/a" "$T/a.img"
	make_image "$T/b.img" 128M
	run_mkfs "$MKFS" -f -q -O extra_attr,inode_checksum --root "$T/b" "$T/b.img"
	"$TUNE" -U 5f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 "$T/a.img" >/dev/null
	"$TUNE" -O lost_found,encrypt,verity,sb_checksum -C utf8 "$T/b.img" >/dev/null
	mkdir -p "$T/c"
	for i in 1 2 3; do head -c $((i * 20000)) /dev/urandom >"$T/c/f$i"; chown "10$i:20$i" "$T/c/f$i"; done
	make_image "$T/c.img" 128M
	run_mkfs "$MKFS" -f -q -O extra_attr,inode_checksum --root "$T/c" "$T/c.img"
	"$TUNE" -O quota,project_quota "$T/c.img" >/dev/null
	rc=0; kernel_run "$BATS_TEST_DIRNAME/guest/tuned.sh" "$T/a.img" "$T/b.img" "$T/c.img" || rc=$?
	kernel_output >"$T/out"
	cat "$T/out"
	[ "$rc" -eq 0 ] && grep -q '^DONE' "$T/out"
	! grep -i '^dmesg.*checksum' "$T/out" || false
	for i in a b c; do
		dev=vd$i
		grep -q "^$dev mount rc=0" "$T/out"
		grep -q "^$dev write rc=0" "$T/out"
		grep -q "^$dev umount rc=0" "$T/out"
		n=$(cd "$T/$i" && find . | wc -l)
		[ "$i" != b ] || n=$((n + 1))	# lost+found
		grep -q "^$dev entries $n\$" "$T/out" || { echo "$dev: want $n entries"; return 1; }
		(cd "$T/$i" && find . -type f -print0 | xargs -0 md5sum) |
			sed 's/^\([0-9a-f]*\)  /\1 /' | LC_ALL=C sort -k2 >"$T/want"
		sed -n "/ -\$/d; s/^$dev md5 //p" "$T/out" | LC_ALL=C sort -k2 >"$T/got"
		diff "$T/want" "$T/got"
		"$FSCK" -f -n "$T/$i.img" >"$T/after" 2>&1 || { cat "$T/after"; return 1; }
		ref_fsck_clean "$T/$i.img"
	done
	grep -q '^vdb root lost+found$' "$T/out"
}
