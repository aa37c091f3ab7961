#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/resize/devices.bats - resize.f2fs on real devices in the guest:
# a zoned volume shrunk, a two-device volume shrunk and grown.  One QEMU
# boot with an emulated zoned NVMe namespace (512 MiB, 4 MiB zones) and a
# 64 MiB virtio disk for the metadata, formatted by our mkfs.f2fs -m -c in
# the guest and aged by the kernel; our resize.f2fs, run in the guest
# (tests/resize/guest/devices.sh), cuts whole zones off the namespace's end,
# moving the blocks there with writes at the zones' write pointers (the
# device refuses any other) and resetting the freed zones.  Then the cut
# zones read as zeros, the kernel mounts the smaller volume without a
# write-pointer complaint, every file has its md5, new files are written
# and read back after a remount, our fsck finds it clean before and after
# the kernel, and the reference fsck's verdict is the one it had before
# the shrink (it has known bugs on zoned volumes: tests/kernel/zoned.bats).
# Two more virtio disks of 128 MiB make a two-device volume (mkfs.f2fs -c
# in the guest): shrunk by half its last device, then grown back to it
# whole, the kernel mounting it after each (md5s kept, new files written
# and reread), both fscks clean at the end.
load ../lib/common
load ../lib/kernel
load helpers

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	kernel_setup || return 0 # each test then skips or fails by itself
	local dir=$BATS_FILE_TMPDIR
	require_prog "$MKFS" "$RESIZE" "$FSCK" "$DUMP" "$REF_FSCK" || return 1
	truncate -s 64M "$dir/vda.img"
	truncate -s 512M "$dir/zns.img"
	truncate -s 128M "$dir/vdb.img" "$dir/vdc.img"
	kernel_add_binary "$FSCK" our-fsck.f2fs || return 1
	kernel_add_binary "$MKFS" && kernel_add_binary "$RESIZE" && kernel_add_binary "$DUMP" &&
		kernel_add_binary "$REF_FSCK" || return 1
	KERNEL_ZONED=$dir/zns.img KERNEL_ZONE_SIZE=4M KERNEL_ZONE_CAP=4M \
		KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=900 \
		kernel_run "$BATS_TEST_DIRNAME/guest/devices.sh" "$dir/vda.img" "$dir/vdb.img" "$dir/vdc.img"
	echo $? >"$dir/run/status"
	cp "$KERNEL_OUT" "$dir/report"
	kernel_dmesg >"$dir/dmesg"
}

setup() {
	kernel_require
	kernel_ran
}

# expect LINE...: each line is in the report, else also the kernel's
# f2fs and nvme messages (kernel_expect)
REPORT_DMESG='f2fs|nvme'
expect() { kernel_expect "$@"; }

@test "resize zoned: the kernel aged our zoned volume, our fsck found it clean" {
	expect "mkfs ok" "age umount ok" "fsck0 exit 0" DONE
	[ "$(report_of age | sed -n 's/^files //p')" -ge 30 ]
}

@test "resize zoned: resize.f2fs cut whole zones, moved blocks at the write pointers, reset the freed zones; growing refused" {
	local old new mib moved resets
	expect "resize exit 0" "cut zones zero" "fsck1 exit 0"
	read -r old < <(report_of old | sed -n 's/^main \([0-9]*\) .*/\1/p')
	new=$(report_of new | sed -n 's/^main //p')
	mib=$(report_of target | cut -d' ' -f1)
	moved=$(report_of resize | sed -n 's/^ *moved \([0-9]*\) blocks.*/\1/p')
	resets=$(report_of resize | sed -n 's/^ *zones reset: \([0-9]*\)$/\1/p')
	echo "main $old -> $new segments (namespace kept: $mib MiB), $moved blocks moved, $resets zones reset"
	[ "$mib" -lt 512 ] && [ "$new" -lt "$old" ]
	# whole zones: the main area lost a multiple of 2 segments
	[ $(((old - new) % 2)) -eq 0 ]
	[ "${moved:-0}" -gt 0 ] && [ "${resets:-0}" -gt 0 ]
	# growing a zoned volume is refused by name
	expect "grow exit 8"
	report_of grow | grep -q 'growing a zoned volume (blkzoned) is not supported'
}

@test "resize zoned: the kernel mounts the smaller volume, every md5 the same, writes and rereads" {
	expect "mount ok" "md5 same" "umount ok" "reread ok" "dmesg: 0 f2fs errors" "fsck2 exit 0"
	# 6.12 reports a zone a log stopped writing in, not full (tests/gc/zoned.bats)
	[ "${F2_KERNEL:-6.1}" = 6.12 ] || expect "write pointer notices: 0"
	! grep -E '^(df |write [0-9]+ failed)' "$BATS_FILE_TMPDIR/report" | grep failed || false
}

@test "resize zoned: the reference fsck's verdict is the one it had before the shrink" {
	expect "ref same verdict"
}

@test "resize devices: a two-device volume shrunk within its last device and grown back; the kernel mounts both" {
	local main shrunk grown
	expect "md made" "md shrink exit 0" "md grow exit 0" \
		"md shrunk md5 same" "md shrunk reread ok" "md grown md5 same" "md grown reread ok" \
		"md fsck exit 0" "md ref exit 0" "md dmesg: 0 f2fs errors"
	main=$(report_of md | sed -n 's/^main //p')
	shrunk=$(report_of md | sed -n 's/^shrunk main //p')
	grown=$(report_of md | sed -n 's/^grown main //p')
	echo "main $main -> $shrunk -> $grown segments"
	# 64 MiB cut (32 segments), then given back
	[ "$shrunk" -eq $((main - 32)) ] && [ "$grown" -eq "$main" ]
}
