#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel/mount.bats - mount.f2fs against the Linux 6.1 kernel in
# QEMU, in one boot (setup_file): util-linux mount(8) calls our helper for
# -t f2fs on a device, on UUID= and LABEL= (a label f2fslabel set), and
# on an image file; the
# helper itself resolves UUID=/LABEL= and attaches image files to loop
# devices; a bad superblock and an unknown option are refused with
# nothing mounted; the loop device is released when mount(2) fails; -o ro
# and f2fs options reach the kernel; /etc/mtab is written when it is a
# regular file.  The fsck step runs our own fsck.f2fs (staged next to the
# helper): -o fsck and errors=fsck on a dirty image (copied while the
# kernel had it mounted), on a volume whose backup superblock fsck -p
# repairs (exit 1: mounted, files intact, and a full check on the host
# afterwards is clean) and on one with damage -p cannot repair (exit 4:
# refused with the reason, nothing mounted, no loop device left, as a
# device and as an image file).  The stub fsck's exit codes are tested on
# the host (tests/mount/mount.bats).  The tests below read the boot's
# report.

load ../lib/common
load ../lib/kernel

MOUNT_F2FS=${MOUNT_F2FS:-$F2_BUILD/mount-helper/mount.f2fs}
F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
F2LABEL=${F2LABEL:-$F2_BUILD/tune/f2fslabel}
f2_unwrap F2LABEL
MH_UUID=4f2a1c3e-7b5d-4e8f-9a10-2b3c4d5e6f70
MH_LABEL=mhdev

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	kernel_setup || return 0 # each test then skips or fails by itself
	local d=$BATS_FILE_TMPDIR ko
	require_prog "$MKFS" "$MOUNT_F2FS" "$F2LABEL" || return 1
	truncate -s 64M "$d/good.img" "$d/badsb.img"
	# labelled by f2fslabel after mkfs: the LABEL= mounts also show that
	# Linux takes a label it set
	"$MKFS" -q -f -l "before-relabel" -U "$MH_UUID" "$d/good.img" >"$d/mkfs.log" 2>&1 ||
		return 1
	"$F2LABEL" "$d/good.img" "$MH_LABEL" >>"$d/mkfs.log" 2>&1 || return 1
	"$MKFS" -q -f "$d/badsb.img" >>"$d/mkfs.log" 2>&1 || return 1
	# log_blocksize (superblock offset 0x10) = 40 in both copies: no block
	# size (13, a block size this version does not handle, is refused by
	# name instead: tests/mount/mount.bats)
	printf '\x28' | dd of="$d/badsb.img" bs=1 seek=$((1024 + 16)) conv=notrunc 2>/dev/null
	printf '\x28' | dd of="$d/badsb.img" bs=1 seek=$((4096 + 1024 + 16)) conv=notrunc 2>/dev/null
	echo "$MH_UUID $MH_LABEL" >"$d/ids"

	# for the fsck step: a volume populated by our mkfs, then sbfix (backup
	# superblock invalid: fsck -p rewrites it) and broken (the inode of
	# /seq has no file type, and the checkpoint asks for fsck (CP_FSCK
	# 0x10) so that -p checks it fully: -p cannot repair that)
	require_prog "$FSCK" "$F2FIELD" || return 1
	mkdir -p "$d/tree/d"
	echo hello >"$d/tree/hello"
	seq 1 20000 >"$d/tree/seq"
	echo inner >"$d/tree/d/inner"
	truncate -s 64M "$d/fs.img"
	"$MKFS" -q -f --root "$d/tree" "$d/fs.img" >>"$d/mkfs.log" 2>&1 || return 1
	cp --sparse=always "$d/fs.img" "$d/sbfix.img"
	"$F2FIELD" "$d/sbfix.img" set sb1.log_blocksize 13 >/dev/null || return 1
	cp --sparse=always "$d/fs.img" "$d/broken.img"
	"$F2FIELD" "$d/broken.img" set \
		"inode.$("$F2FIELD" "$d/fs.img" get dent.3.seq.ino | cut -d' ' -f3).mode" 0 \
		>/dev/null || return 1
	perl "$F2_TOP/tests/mount/cpflags.pl" "$d/broken.img" 0 0x10 >/dev/null || return 1
	# util-linux mount(8) under another name: the guest's /init keeps busybox
	mkdir -p "$d/ul"
	cp /usr/bin/mount "$d/ul/ulmount" || return 1
	ko=$(find "$KERNEL_DIR/root/lib/modules/$KERNEL_RELEASE" -name 'loop.ko*' | head -n 1)
	[ -n "$ko" ] || { echo "no loop.ko in the kernel package" >&2; return 1; }
	f2k_cat_module "$ko" >"$d/loop.ko" || return 1

	kernel_add_binary "$MOUNT_F2FS" || return 1
	kernel_add_binary "$MKFS" || return 1
	kernel_add_binary "$FSCK" || return 1
	kernel_add_binary "$d/ul/ulmount" || return 1
	KERNEL_FILES="$d/ids:/guest/ids $d/loop.ko:/guest/loop.ko" \
		KERNEL_RUN_DIR=$d/run KERNEL_TIMEOUT=600 \
		kernel_run "$BATS_TEST_DIRNAME/guest/mount-check.sh" "$d/good.img" "$d/badsb.img" \
		"$d/sbfix.img" "$d/broken.img"
	echo $? >"$d/run/status"
	# the volume fsck -p repaired in the guest (then mounted and unmounted)
	# (its exit status is the test's to judge, not setup_file's: a finding
	# here once failed the whole suite without showing it, 6.12 in CI)
	local rc=0
	"$FSCK" -n -f "$d/sbfix.img" >"$d/sbfix.fsck" 2>&1 || rc=$?
	echo $rc >>"$d/sbfix.fsck"
	cp "$KERNEL_OUT" "$d/report"
	kernel_dmesg >"$d/dmesg"
	echo "$KERNEL_WALL" >"$d/wall"
}

setup() {
	kernel_require
	kernel_ran
}

@test "kernel mount: the guest ran the whole check script" {
	echo "guest exit status $(cat "$BATS_FILE_TMPDIR/run/status"); wall $(cat "$BATS_FILE_TMPDIR/wall") s"
	kernel_expect "setup loop-control ok" DONE
	kernel_expect "final mounts [0] loops []"
}

@test "kernel mount: mount -t f2fs DEVICE goes through mount.f2fs" {
	kernel_expect "dev rc=0" "dev says helper" "dev in-proc-mounts" "dev write ok"
}

@test "kernel mount: the helper reads the running kernel's /sys/fs/f2fs/features" {
	kernel_expect "dev kernel-features-read"
	grep -q '^features .*extra_attr' "$BATS_FILE_TMPDIR/report"
}

@test "kernel mount: mount -t f2fs UUID= and LABEL= (mount(8) and the helper's own lookup)" {
	kernel_expect "uuid rc=0" "uuid says helper" "uuid in-proc-mounts"
	kernel_expect "uuidh rc=0" "uuidh says resolved" "uuidh in-proc-mounts"
	kernel_expect "label rc=0" "label in-proc-mounts"
	kernel_expect "labelh rc=0" "labelh says resolved" "labelh in-proc-mounts"
}

@test "kernel mount: -o ro and f2fs options reach the kernel" {
	kernel_expect "ro rc=0" "ro is-ro" "ro noatime" "ro background_gc=off" "ro write refused"
}

@test "kernel mount: -o remount,ro through the helper" {
	kernel_expect "remount rc=0" "remount is-ro"
}

@test "kernel mount: -o ro on an image file attaches a read-only loop device" {
	kernel_expect "imgro rc=0" "imgro loop-ro"
}

@test "kernel mount: an unknown option is refused, named, nothing mounted (exit 32)" {
	kernel_expect "badopt rc=32" "badopt says named" "badopt nothing-mounted"
}

@test "kernel mount: a bad superblock is refused, nothing mounted (exit 32)" {
	kernel_expect "badsb rc=32" "badsb says reason" "badsb nothing-mounted"
	kernel_expect "badsbh rc=32" "badsbh nothing-mounted"
}

@test "kernel mount: an image file is attached to a loop device by the helper, released at umount" {
	kernel_expect "img rc=0" "img says attached" "img on-loop" "img loop-attached" \
		"img loop-released-after-umount"
}

@test "kernel mount: mount -t f2fs IMAGE-FILE through mount(8) mounts on a loop device" {
	kernel_expect "imgm rc=0" "imgm on-loop" "imgm says helper" "imgm data ok" \
		"imgm loop-released-after-umount"
}

@test "kernel mount: the loop device is released when mount(2) fails" {
	kernel_expect "loopfail rc=32" "loopfail says attached" "loopfail says detaching" \
		"loopfail nothing-mounted" "loopfail loop-released"
}

@test "kernel mount: an image copied while mounted is not clean; errors=refuse refuses it" {
	kernel_expect "fsck made-dirty-copy" "dirtyref rc=32" "dirtyref says dirty" "dirtyref nothing-mounted"
}

@test "kernel mount: fsck step: -o fsck runs our fsck -p on the dirty image, then mounts it" {
	grep '^dirtyfsck fsck-said' "$BATS_FILE_TMPDIR/report" || true
	kernel_expect "dirtyfsck rc=0" "dirtyfsck says ran" "dirtyfsck says fsck-ok" "dirtyfsck mounted" \
		"dirtyfsck data ok"
}

@test "kernel mount: fsck step: mount -t f2fs -o errors=fsck on a dirty image file checks, then mounts" {
	kernel_expect "dirtyerr rc=0" "dirtyerr says ran" "dirtyerr says fsck-ok" "dirtyerr mounted" \
		"dirtyerr data ok" "dirtyerr loop-released-after-umount"
}

@test "kernel mount: fsck step: -o fsck preens a bad backup superblock (exit 1), mounts, files intact" {
	kernel_expect "sbfix rc=0" "sbfix says ran" "sbfix says found" "sbfix says preened" "sbfix says corrected" \
		"sbfix mounted" "sbfix hello ok" "sbfix seq ok" "sbfix inner ok" "sbfix copies-equal"
	# and the host's full check of the volume afterwards is clean
	cat "$BATS_FILE_TMPDIR/sbfix.fsck"
	[ "$(tail -n 1 "$BATS_FILE_TMPDIR/sbfix.fsck")" = 0 ]
}

@test "kernel mount: fsck step: damage fsck -p cannot repair (exit 4) refuses, nothing mounted" {
	kernel_expect "broken rc=32" "broken says found" "broken says refused" "broken nothing-mounted"
	kernel_expect "brokenerr rc=32" "brokenerr says refused" "brokenerr nothing-mounted"
}

@test "kernel mount: fsck step: an image file fsck refuses leaves no loop device (helper and mount(8))" {
	grep '^brokenimgm helper-saw' "$BATS_FILE_TMPDIR/report" || true
	kernel_expect "brokenimg rc=32" "brokenimg says refused" "brokenimg nothing-mounted" "brokenimg no-loop"
	kernel_expect "brokenimgm rc=32" "brokenimgm says refused" "brokenimgm nothing-mounted" \
		"brokenimgm no-loop"
}

@test "kernel mount: fsck step: errors=fsck does not run fsck on a clean device" {
	kernel_expect "errfsck rc=0" "errfsck clean-not-checked"
}

@test "kernel mount: /etc/mtab (a regular file) gets the mount's line" {
	kernel_expect "mtab rc=0" "mtab [/dev/vda /mnt f2fs rw,noatime 0 0]"
}

@test "kernel mount: no f2fs errors in dmesg" {
	! grep -Ei 'f2fs.*(error|corrupt|inconsistent|fsck)' "$BATS_FILE_TMPDIR/dmesg" || false
}
