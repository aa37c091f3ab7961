#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# mounted.bats - the one mount check (support/mounted.c) that mkfs.f2fs,
# fsck.f2fs, gc.f2fs and defrag.f2fs make: an image file counts as mounted
# when a mounted loop device is backed by it.  Nothing is mounted: a fake
# mount table ($F2_PROC_MOUNTS) names /dev/loop97 and a fake /sys/block
# ($F2_SYS_BLOCK) says loop97 is backed by the image.

load ../lib/common

GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}

# fake_loop IMG [MOUNT_OPTS]: loop97 backed by IMG, mounted on /mnt/f2-fake.
fake_loop() {
	local t=$(f2_tmp) img=$1 opts=${2:-rw,relatime}
	mkdir -p "$t/sys/loop97/loop" "$t/sys/loop3/loop"
	# a second loop device backed by another file: must not match
	echo "$t/other.img" >"$t/sys/loop3/loop/backing_file"
	echo "7:3" >"$t/sys/loop3/dev"
	echo "$(readlink -f "$img")" >"$t/sys/loop97/loop/backing_file"
	echo "7:97" >"$t/sys/loop97/dev"
	cat >"$t/mounts" <<-END
	proc /proc proc rw,nosuid 0 0
	/dev/loop3 /mnt/other ext4 rw 0 0
	/dev/loop97 /mnt/f2-fake f2fs $opts 0 0
	END
	export F2_PROC_MOUNTS=$t/mounts F2_SYS_BLOCK=$t/sys
}

setup() {
	require_prog "$MKFS" "$FSCK" "$GC" "$DEFRAG"
	IMG=$(f2_tmp)/img
	make_image "$IMG" 256M
	touch "$(f2_tmp)/other.img"
}

@test "mounted: mkfs.f2fs refuses an image mounted through a loop device" {
	fake_loop "$IMG"
	run "$MKFS" -f "$IMG" </dev/null
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"$IMG is mounted on /mnt/f2-fake; not formatting it"* ]]
	# the image is untouched
	[ "$(allocated_bytes "$IMG")" -eq 0 ]
}

@test "mounted: mkfs.f2fs formats it when the loop device is not mounted" {
	fake_loop "$IMG"
	grep -v loop97 "$F2_PROC_MOUNTS" >"$F2_PROC_MOUNTS.new"
	mv "$F2_PROC_MOUNTS.new" "$F2_PROC_MOUNTS"
	run "$MKFS" -f "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mounted: mkfs.f2fs formats an image backing only an unmounted loop device" {
	fake_loop "$(f2_tmp)/other.img"
	sed -i '/loop97/d' "$F2_PROC_MOUNTS"
	run "$MKFS" -f "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mounted: fsck.f2fs will not repair it, checks it read-only with -n" {
	run_mkfs "$MKFS" -f "$IMG"
	fake_loop "$IMG" ro,relatime
	run "$FSCK" -y "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 8 ]
	[[ $output == *"$IMG is mounted on /mnt/f2-fake (read-only); not checking it for repair"* ]]
	run "$FSCK" -n "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"warning: $IMG is mounted on /mnt/f2-fake; checking read-only"* ]]
}

@test "mounted: gc.f2fs and defrag.f2fs refuse it" {
	run_mkfs "$MKFS" -f "$IMG"
	fake_loop "$IMG"
	run "$GC" -n "$IMG"
	echo "$output"
	[ "$status" -eq 8 ]
	[[ $output == *"$IMG is mounted on /mnt/f2-fake; clean it only when unmounted"* ]]
	run "$DEFRAG" -n "$IMG"
	echo "$output"
	[ "$status" -eq 8 ]
	[[ $output == *"mounted on /mnt/f2-fake"* ]]
}
