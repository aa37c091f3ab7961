#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel/mount.bats - mount.f2fs against the Linux 6.1 kernel in
# QEMU, in one boot (setup_file): util-linux mount(8) calls our helper for
# -t f2fs on a device, on UUID= and LABEL=, and on an image file; the
# helper itself resolves UUID=/LABEL= and attaches image files to loop
# devices; a bad superblock and an unknown option are refused with
# nothing mounted; the loop device is released when mount(2) fails; -o ro
# and f2fs options reach the kernel; /etc/mtab is written when it is a
# regular file.  The fsck step runs a STUB fsck (our fsck.f2fs does not
# exist yet): those tests say "stub" in their names and only show that
# the helper runs the program it is configured with and obeys its exit
# code; nothing is repaired.  The tests below read the boot's report.

load ../lib/common
load ../lib/kernel

MOUNT_F2FS=${MOUNT_F2FS:-$F2_BUILD/mount-helper/mount.f2fs}
MH_UUID=4f2a1c3e-7b5d-4e8f-9a10-2b3c4d5e6f70
MH_LABEL=mhdev

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	kernel_setup || return 0 # each test then skips or fails by itself
	local d=$BATS_FILE_TMPDIR ko
	require_prog "$MKFS" "$MOUNT_F2FS" || return 1
	truncate -s 64M "$d/good.img" "$d/badsb.img"
	"$MKFS" -q -f -l "$MH_LABEL" -U "$MH_UUID" "$d/good.img" >"$d/mkfs.log" 2>&1 ||
		return 1
	"$MKFS" -q -f "$d/badsb.img" >>"$d/mkfs.log" 2>&1 || return 1
	# log_blocksize (superblock offset 0x10) = 13 in both copies
	printf '\x0d' | dd of="$d/badsb.img" bs=1 seek=$((1024 + 16)) conv=notrunc 2>/dev/null
	printf '\x0d' | dd of="$d/badsb.img" bs=1 seek=$((4096 + 1024 + 16)) conv=notrunc 2>/dev/null
	echo "$MH_UUID $MH_LABEL" >"$d/ids"

	# the stub fsck: logs its arguments, exits with the code in /tmp/fsck.code
	cat >"$d/fsck-stub" <<'EOF'
#!/bin/sh
echo "$@" >>/tmp/fsck.log
exit "$(cat /tmp/fsck.code 2>/dev/null || echo 0)"
EOF
	chmod +x "$d/fsck-stub"
	# util-linux mount(8) under another name: the guest's /init keeps busybox
	mkdir -p "$d/ul"
	cp /usr/bin/mount "$d/ul/ulmount" || return 1
	ko=$(find "$KERNEL_DIR/root/lib/modules/$KERNEL_RELEASE" -name 'loop.ko*' | head -n 1)
	[ -n "$ko" ] || { echo "no loop.ko in the kernel package" >&2; return 1; }
	f2k_cat_module "$ko" >"$d/loop.ko" || return 1

	kernel_add_binary "$MOUNT_F2FS" || return 1
	kernel_add_binary "$MKFS" || return 1
	kernel_add_binary "$d/ul/ulmount" || return 1
	KERNEL_FILES="$d/ids:/guest/ids $d/loop.ko:/guest/loop.ko $d/fsck-stub:/bin/fsck.f2fs" \
		KERNEL_RUN_DIR=$d/run KERNEL_TIMEOUT=600 \
		kernel_run "$BATS_TEST_DIRNAME/guest/mount-check.sh" "$d/good.img" "$d/badsb.img"
	echo $? >"$d/run/status"
	cp "$KERNEL_OUT" "$d/report"
	kernel_dmesg >"$d/dmesg"
	echo "$KERNEL_WALL" >"$d/wall"
}

setup() {
	kernel_require
	[ -f "$BATS_FILE_TMPDIR/run/status" ] || {
		echo "the kernel run did not happen"
		return 1
	}
}

# expect LINE...: each LINE is in the guest's report
expect() {
	local want
	for want in "$@"; do
		if ! grep -qxF -- "$want" "$BATS_FILE_TMPDIR/report"; then
			echo "guest did not report '$want'; report:"
			sed 's/^/  /' "$BATS_FILE_TMPDIR/report"
			return 1
		fi
	done
}

@test "kernel mount: the guest ran the whole check script" {
	echo "guest exit status $(cat "$BATS_FILE_TMPDIR/run/status"); wall $(cat "$BATS_FILE_TMPDIR/wall") s"
	expect "setup loop-control ok" DONE
	expect "final mounts [0] loops []"
}

@test "kernel mount: mount -t f2fs DEVICE goes through mount.f2fs" {
	expect "dev rc=0" "dev says helper" "dev in-proc-mounts" "dev write ok"
}

@test "kernel mount: the helper reads the running kernel's /sys/fs/f2fs/features" {
	expect "dev kernel-features-read"
	grep -q '^features .*extra_attr' "$BATS_FILE_TMPDIR/report"
}

@test "kernel mount: mount -t f2fs UUID= and LABEL= (mount(8) and the helper's own lookup)" {
	expect "uuid rc=0" "uuid says helper" "uuid in-proc-mounts"
	expect "uuidh rc=0" "uuidh says resolved" "uuidh in-proc-mounts"
	expect "label rc=0" "label in-proc-mounts"
	expect "labelh rc=0" "labelh says resolved" "labelh in-proc-mounts"
}

@test "kernel mount: -o ro and f2fs options reach the kernel" {
	expect "ro rc=0" "ro is-ro" "ro noatime" "ro background_gc=off" "ro write refused"
}

@test "kernel mount: -o remount,ro through the helper" {
	expect "remount rc=0" "remount is-ro"
}

@test "kernel mount: -o ro on an image file attaches a read-only loop device" {
	expect "imgro rc=0" "imgro loop-ro"
}

@test "kernel mount: an unknown option is refused, named, nothing mounted (exit 32)" {
	expect "badopt rc=32" "badopt says named" "badopt nothing-mounted"
}

@test "kernel mount: a bad superblock is refused, nothing mounted (exit 32)" {
	expect "badsb rc=32" "badsb says reason" "badsb nothing-mounted"
	expect "badsbh rc=32" "badsbh nothing-mounted"
}

@test "kernel mount: an image file is attached to a loop device by the helper, released at umount" {
	expect "img rc=0" "img says attached" "img on-loop" "img loop-attached" \
		"img loop-released-after-umount"
}

@test "kernel mount: mount -t f2fs IMAGE-FILE through mount(8) mounts on a loop device" {
	expect "imgm rc=0" "imgm on-loop" "imgm says helper" "imgm data ok" \
		"imgm loop-released-after-umount"
}

@test "kernel mount: the loop device is released when mount(2) fails" {
	expect "loopfail rc=32" "loopfail says attached" "loopfail says detaching" \
		"loopfail nothing-mounted" "loopfail loop-released"
}

@test "kernel mount: an image copied while mounted is not clean; errors=refuse refuses it" {
	expect "stub made-dirty-copy" "dirtyref rc=32" "dirtyref says dirty" "dirtyref nothing-mounted"
}

@test "kernel mount: fsck step (stub): -o fsck runs the stub with -p, then mounts the dirty image" {
	expect "stubfsck rc=0" "stubfsck log [-p /tmp/dirty.f2fs]" "stubfsck mounted" \
		"stubfsck data ok"
}

@test "kernel mount: fsck step (stub): stub exit 4 refuses, nothing mounted, no loop left" {
	expect "stubfail rc=32" "stubfail says refused" "stubfail nothing-mounted" "stubfail no-loop"
}

@test "kernel mount: fsck step (stub): errors=fsck does not run fsck on a clean device" {
	expect "errfsck rc=0" "errfsck clean-not-checked"
}

@test "kernel mount: /etc/mtab (a regular file) gets the mount's line" {
	expect "mtab rc=0" "mtab [/dev/vda /mnt f2fs rw,noatime 0 0]"
}

@test "kernel mount: no f2fs errors in dmesg" {
	! grep -Ei 'f2fs.*(error|corrupt|inconsistent|fsck)' "$BATS_FILE_TMPDIR/dmesg"
}
