#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# mounted.bats - the one mount check (support/mounted.c) that mkfs.f2fs,
# fsck.f2fs, gc.f2fs and defrag.f2fs make: an image file counts as mounted
# when a mounted loop device is backed by it.  fsck.f2fs checks a volume
# mounted read-only and repairs it (-p only when every error is safe to
# preen), asking for a reboot.  Nothing is mounted: a fake
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

@test "mounted: fsck.f2fs will not repair a read-write mount, checks it read-only with -n" {
	run_mkfs "$MKFS" -f "$IMG"
	fake_loop "$IMG"
	for mode in -y -p; do
		run "$FSCK" $mode "$IMG" </dev/null
		echo "$output"
		[ "$status" -eq 8 ]
		[[ $output == *"$IMG is mounted on /mnt/f2-fake; not checking it for repair"* ]]
	done
	run "$FSCK" -n "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"warning: $IMG is mounted on /mnt/f2-fake; checking read-only"* ]]
}

# plant IMG what...: damage the volume our mkfs made (root inode only):
# "safe" valid_inode_count one too high (-p fixes it), "unsafe" the root's
# i_links one too high (-p leaves it), "flag" CP_FSCK set, as the kernel
# sets it when it meets an inconsistency (so -p checks in full)
plant() {
	local img=$1 what v
	shift
	for what in "$@"; do
		case $what in
		safe) v=$("$F2FIELD" "$img" get cp.valid_inode_count | cut -d' ' -f3)
			"$INJECT" --cp 0 --mb valid_inode_count --val $((v + 1)) "$img" ;;
		unsafe) "$INJECT" --node --nid 3 --mb i_links --val 3 "$img" ;;
		flag) v=$("$F2FIELD" "$img" get cp.ckpt_flags | cut -d' ' -f3)
			"$INJECT" --cp 0 --mb ckpt_flags --val $((v | 0x10)) "$img" ;;
		esac >/dev/null || return 1
	done
}

@test "mounted read-only: fsck.f2fs -p and -n check a clean volume, exit 0, write nothing" {
	require_prog "$F2FIELD"
	run_mkfs "$MKFS" -f "$IMG"
	fake_loop "$IMG" ro,relatime
	local before=$(img_sum "$IMG")
	run "$FSCK" -p "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "$IMG: clean (checkpoint says unmounted cleanly; -f forces a full check)" ]
	run "$FSCK" -p -f "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	run "$FSCK" -n "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"$IMG is mounted read-only on /mnt/f2-fake"* ]]
	[ "$(img_sum "$IMG")" = "$before" ]
}

@test "mounted read-only: fsck.f2fs -p repairs damage safe to preen, exit 3 (reboot), clean afterwards" {
	require_prog "$F2FIELD" "$INJECT"
	run_mkfs "$MKFS" -f "$IMG"
	plant "$IMG" safe flag
	fake_loop "$IMG" ro,relatime
	run "$FSCK" -n "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 4 ]
	run "$FSCK" -p "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 3 ]
	[[ $output == *"0x0A0003 CNT_VALID_INODES"*"yes (preen)"* ]]
	[[ $output == *"REBOOT"* ]]
	# the findings once: the probe's report was not printed
	[ "$(grep -c '^0x0A0003' <<<"$output")" -eq 1 ]
	run "$FSCK" -p "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	unset F2_PROC_MOUNTS F2_SYS_BLOCK
	run "$FSCK" -f -n "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mounted read-only: damage not safe to preen: fsck.f2fs -p reports it, exit 4, writes nothing at all" {
	require_prog "$F2FIELD" "$INJECT"
	run_mkfs "$MKFS" -f "$IMG"
	plant "$IMG" unsafe flag
	cp --sparse=always "$IMG" "$IMG.unsafe"
	plant "$IMG" safe
	fake_loop "$IMG" ro,relatime
	local img before
	for img in "$IMG.unsafe" "$IMG"; do
		before=$(img_sum "$img")
		[ "$img" = "$IMG" ] || echo "$img /mnt/f2-other f2fs ro 0 0" >>"$F2_PROC_MOUNTS"
		run "$FSCK" -a "$img" </dev/null
		echo "$output"
		[ "$status" -eq 4 ]
		[[ $output == *"0x050002 INODE_LINKS"*"not safe to preen"* ]]
		[[ $output == *"$img: mounted read-only: nothing written"* ]]
		[ "$(img_sum "$img")" = "$before" ]
	done
	# the safe counter waited for the unsafe link count
	[[ $output == *"0x0A0003 CNT_VALID_INODES"*"not repaired"* ]]
}

@test "mounted read-only: fsck.f2fs -y repairs with a warning, exit 3 (reboot)" {
	require_prog "$F2FIELD" "$INJECT"
	run_mkfs "$MKFS" -f "$IMG"
	plant "$IMG" unsafe safe
	fake_loop "$IMG" ro,relatime
	run "$FSCK" -f -y "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 3 ]
	[[ $output == *"warning: $IMG is mounted read-only on /mnt/f2-fake"* ]]
	[[ $output == *"REBOOT"* ]]
	unset F2_PROC_MOUNTS F2_SYS_BLOCK
	run "$FSCK" -f -n "$IMG" </dev/null
	echo "$output"
	[ "$status" -eq 0 ]
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
