#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mount/mount.bats - mount.f2fs on the host: command line, option
# parsing, and every refusal that happens before mount(2).  Nothing is
# ever mounted here: every run that could reach mount(2) goes through
# mh(), which always passes -f ("fake": do everything but mount(2); image
# files are then read directly, no loop device is attached).  Mounting is
# tested in QEMU by tests/kernel/mount.bats.
#
# The fsck step is tested with a stub fsck program (tests named "fsck
# step ... (stub)": every exit code, including 2, which our fsck never
# returns) and with our own fsck.f2fs (tests named "fsck step (our
# fsck)": damage it preens, damage it cannot fix).  The reference
# fsck.f2fs on PATH must never be run by our tools, so F2_FSCK always
# points at a stub, at our $FSCK, or at nothing.  The same with the
# kernel: tests/kernel/mount.bats.

load ../lib/common

MOUNT_F2FS=${MOUNT_F2FS:-$F2_BUILD/mount-helper/mount.f2fs}

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	local d=$BATS_FILE_TMPDIR
	[ -x "$MKFS" ] || return 0
	truncate -s 64M "$d/good.img"
	"$MKFS" -q -f -l mhlabel "$d/good.img" >/dev/null 2>&1 || rm -f "$d/good.img"
	truncate -s 64M "$d/feat.img"
	"$MKFS" -q -f -O extra_attr,compression,lost_found "$d/feat.img" >/dev/null 2>&1 ||
		rm -f "$d/feat.img"
	# a populated volume for our fsck: /hello, /seq (several blocks), /d/inner
	mkdir -p "$d/tree/d"
	echo hello >"$d/tree/hello"
	seq 1 20000 >"$d/tree/seq"
	echo inner >"$d/tree/d/inner"
	truncate -s 64M "$d/fs.img"
	"$MKFS" -q -f --root "$d/tree" "$d/fs.img" >/dev/null 2>&1 || rm -f "$d/fs.img"
}

setup() {
	require_prog "$MOUNT_F2FS" "$MKFS"
	[ -f "$BATS_FILE_TMPDIR/good.img" ] || { echo "mkfs of the test image failed"; return 1; }
	T=$(f2_tmp)
	mkdir -p "$T/mnt"
	# never the reference fsck on PATH; never the real /etc/mtab or sysfs
	export F2_FSCK=$T/no-such-fsck F2_MTAB=$T/no-mtab F2_SYSFS=$T/no-sysfs
	cp --sparse=always "$BATS_FILE_TMPDIR/good.img" "$T/img"
}

# mh ARGS...: the helper in fake mode, always.
mh() { "$MOUNT_F2FS" -f "$@"; }

# A stub fsck: logs its arguments to $T/fsck.log, exits $1.
stub_fsck() {
	cat >"$T/fsck-stub" <<EOF
#!/bin/sh
echo "\$@" >>"$T/fsck.log"
exit $1
EOF
	chmod +x "$T/fsck-stub"
	export F2_FSCK=$T/fsck-stub
}

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}

# fs_image: $T/fs, a copy of the populated volume, and F2_FSCK=$FSCK
fs_image() {
	require_prog "$FSCK" "$F2FIELD"
	[ -f "$BATS_FILE_TMPDIR/fs.img" ] || { echo "mkfs --root of the test image failed"; return 1; }
	cp --sparse=always "$BATS_FILE_TMPDIR/fs.img" "$T/fs"
	export F2_FSCK=$FSCK
}

# An image whose checkpoint says it was not unmounted cleanly.
dirty_image() {
	perl "$BATS_TEST_DIRNAME/cpflags.pl" "$T/img" 1 0 >/dev/null
}

@test "mount: --help and -V" {
	run "$MOUNT_F2FS" --help
	[ "$status" -eq 0 ]
	[[ $output == *"Usage: mount.f2fs SPEC DIR"* ]]
	run "$MOUNT_F2FS" -V
	[ "$status" -eq 0 ]
	[[ $output == "mount.f2fs (f2fs-progs) "* ]]
}

@test "mount: bad command lines exit 1 (usage)" {
	run "$MOUNT_F2FS"
	[ "$status" -eq 1 ]
	run "$MOUNT_F2FS" -f "$T/img"
	[ "$status" -eq 1 ]
	run "$MOUNT_F2FS" -f -Q "$T/img" "$T/mnt"
	[ "$status" -eq 1 ]
	run "$MOUNT_F2FS" -f -t ext4 "$T/img" "$T/mnt"
	[ "$status" -eq 1 ]
	[[ $output == *"'ext4' is not f2fs"* ]]
}

@test "mount: only root mounts; -f works for anyone" {
	command -v setpriv >/dev/null || { echo "setpriv missing"; return 1; }
	local pub
	pub=$(mktemp -d /tmp/mh-nobody.XXXXXX)
	chmod 755 "$pub" && mkdir "$pub/mnt" && cp --sparse=always "$T/img" "$pub/img" &&
		chmod 644 "$pub/img"
	# without -f: refused before anything is opened
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$MOUNT_F2FS" "$pub/img" "$pub/mnt"
	[ "$status" -eq 1 ]
	[[ $output == *"only root can mount"* ]]
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$MOUNT_F2FS" -f "$pub/img" "$pub/mnt"
	echo "$output"
	rm -rf "$pub"
	[ "$status" -eq 0 ]
}

@test "mount: fake mount of a good image, -v tells every step" {
	run mh -v "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"label 'mhlabel', checkpoint clean"* ]]
	[[ $output == *"would attach $T/img to a loop device"* ]]
	[[ $output == *"skipped (fake)"* ]]
	# no mount happened
	! grep -q " $T/mnt " /proc/mounts || false
}

@test "mount: generic options become mount(2) flags, not data" {
	run mh -v -o ro,nosuid,nodev,noexec,noatime,dirsync "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	# MS_RDONLY 1 | NOSUID 2 | NODEV 4 | NOEXEC 8 | DIRSYNC 128 | NOATIME 1024
	[[ $output == *'mount("'"$T/img"'", "'"$T/mnt"'", "f2fs", 0x48f, "")'* ]]
	run mh -v -o ro,rw,sync,async,lazytime "$T/img" "$T/mnt"
	# rw clears ro, async clears sync; MS_LAZYTIME is 1<<25
	[[ $output == *'"f2fs", 0x2000000, "")'* ]]
	# several -o add up, as with mount(8)
	run mh -v -o ro -o inline_data -o noatime "$T/img" "$T/mnt"
	[[ $output == *'"f2fs", 0x401, "inline_data")'* ]]
}

@test "mount: every f2fs option of Linux 6.1 passes through in order" {
	local opts="background_gc=sync,disable_roll_forward,discard,nodiscard,no_heap,heap"
	opts+=",user_xattr,nouser_xattr,acl,noacl,active_logs=4,disable_ext_identify"
	opts+=",inline_xattr,noinline_xattr,inline_xattr_size=50,inline_data,noinline_data"
	opts+=",inline_dentry,noinline_dentry,flush_merge,noflush_merge,nobarrier,fastboot"
	opts+=",extent_cache,noextent_cache,data_flush,reserve_root=100,resgid=0,resuid=0"
	opts+=",mode=fragment:segment,io_bits=0,fault_injection=1,fault_type=1,quota,noquota"
	opts+=",usrquota,grpquota,prjquota,usrjquota=aq,grpjquota=,prjjquota=pq,jqfmt=vfsv1"
	opts+=",alloc_mode=reuse,fsync_mode=strict,test_dummy_encryption,test_dummy_encryption=v2"
	opts+=",inlinecrypt,checkpoint=disable:10%,checkpoint=enable,checkpoint_merge"
	opts+=",nocheckpoint_merge,compress_algorithm=zstd:3,compress_log_size=2"
	opts+=",compress_extension=txt,nocompress_extension=jpg,compress_chksum"
	opts+=",compress_mode=user,compress_cache,atgc,gc_merge,nogc_merge"
	opts+=",discard_unit=section,memory=low,norecovery"
	run mh -v -o "ro,$opts" "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *'"f2fs", 0x1, "'"$opts"'")'* ]]
}

@test "mount: an unknown option is refused, named, nothing mounted (exit 32)" {
	run mh -o noatime,bogus_opt=1,inline_data "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"unknown option 'bogus_opt'"* ]]
	[[ $output == *"nothing mounted"* ]]
	[[ $output != *"mount("* ]]
}

@test "mount: bad values of known options are refused with the allowed ones" {
	local bad
	for bad in mode=xx background_gc=maybe active_logs=3 inline_xattr_size=abc \
		compress_algorithm=gzip compress_algorithm=lz4:x checkpoint=disable:x \
		discard=1 fsck=1 jqfmt=vfsv2 resuid=-1 compress_extension= errors=panic \
		loop=/dev/loop7 offset=4096 context=; do
		run mh -o "$bad" "$T/img" "$T/mnt"
		echo "$bad -> $status: $output"
		[ "$status" -eq 32 ]
		[[ $output == *"option '${bad%%=*}"* ]]
	done
}

@test "mount: -s (sloppy) drops an unknown option with a warning" {
	run mh -s -v -o bogus,inline_data "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"sloppy: ignoring 'bogus'"* ]]
	[[ $output == *'"f2fs", 0x0, "inline_data")'* ]]
}

@test "mount: userspace options are stripped (defaults, noauto, nofail, x-*, loop, ...)" {
	run mh -v -o defaults,auto,noauto,nofail,_netdev,user,users,nouser,owner,group,x-systemd.device-timeout=5,X-mount.mkdir,comment=foo,loop,errors=continue,inline_data "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *'"f2fs", 0x0, "inline_data")'* ]]
}

@test "mount: SELinux context options are dropped with a warning when SELinux is off" {
	if [ -e /sys/fs/selinux/enforce ]; then
		echo "SELinux is enabled on this host: this test checks the disabled path"
		return 1
	fi
	run mh -v -o 'context="system_u:object_r:tmp_t:s0:c1,c2",fscontext=a,defcontext=b,rootcontext=c,inline_data' "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *'ignoring context=system_u:object_r:tmp_t:s0:c1,c2'* ]]
	[[ $output == *'ignoring fscontext=a'* ]]
	# the quoted comma did not split the option; inline_data still passes
	[[ $output == *'"f2fs", 0x0, "inline_data")'* ]]
}

@test "mount: a file that is not f2fs is refused (exit 32)" {
	truncate -s 64M "$T/zero.img"
	run mh "$T/zero.img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"does not hold an f2fs file system"* ]]
}

@test "mount: a bad superblock (both copies) is refused with the reason" {
	# log_blocksize (sb offset 0x10) = 40 in both copies: no block size
	printf '\x28' | dd of="$T/img" bs=1 seek=$((1024 + 16)) conv=notrunc 2>/dev/null
	printf '\x28' | dd of="$T/img" bs=1 seek=$((4096 + 1024 + 16)) conv=notrunc 2>/dev/null
	run mh "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"bad f2fs superblock"*"log_blocksize 40 is no block size"* ]]
}

@test "mount: a block size other than 4096 (both copies) is refused by name, not as damage" {
	# log_blocksize = 13 in both copies
	printf '\x0d' | dd of="$T/img" bs=1 seek=$((1024 + 16)) conv=notrunc 2>/dev/null
	printf '\x0d' | dd of="$T/img" bs=1 seek=$((4096 + 1024 + 16)) conv=notrunc 2>/dev/null
	run mh "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"$T/img: superblock: block size 8192 is not supported"* ]]
	[[ $output != *"bad f2fs superblock"* ]]
}

@test "mount: only the primary superblock bad: the backup is used" {
	dd if=/dev/zero of="$T/img" bs=4096 count=1 conv=notrunc 2>/dev/null
	run mh -v "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "mount: missing SPEC, non-file SPEC, missing mount point, unknown UUID" {
	run mh "$T/nothing.img" "$T/mnt"
	[ "$status" -eq 32 ]
	[[ $output == *"nothing.img: No such file or directory"* ]]
	run mh "$T/mnt" "$T/mnt"
	[ "$status" -eq 32 ]
	[[ $output == *"neither a block device nor an image file"* ]]
	run mh "$T/img" "$T/no-dir"
	[ "$status" -eq 32 ]
	[[ $output == *"mount point $T/no-dir: does not exist"* ]]
	run mh UUID=00000000-1111-2222-3333-444444444444 "$T/mnt"
	[ "$status" -eq 32 ]
	[[ $output == *"no device with UUID=00000000-1111-2222-3333-444444444444 found"* ]]
	run mh -o loop /dev/null "$T/mnt"
	[ "$status" -eq 32 ]
}

@test "mount: features the kernel lacks (/sys/fs/f2fs/features) are refused by name" {
	[ -f "$BATS_FILE_TMPDIR/feat.img" ] || { echo "mkfs -O compression failed"; return 1; }
	mkdir -p "$T/sysfs/features"
	touch "$T/sysfs/features/"{extra_attr,lost_found,atomic_write,verity}
	run env F2_SYSFS="$T/sysfs" "$MOUNT_F2FS" -f "$BATS_FILE_TMPDIR/feat.img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"needs features the running kernel lacks"*": compression;"* ]]
	touch "$T/sysfs/features/compression"
	run env F2_SYSFS="$T/sysfs" "$MOUNT_F2FS" -f "$BATS_FILE_TMPDIR/feat.img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "fsck step (stub): -o fsck runs the configured fsck program with -p DEV" {
	stub_fsck 0
	run mh -v -o fsck "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/fsck.log")" = "-p $T/img" ]
}

@test "fsck step (stub): exit 1 (corrected) mounts, 2 mounts with a reboot warning" {
	stub_fsck 1
	run mh -o fsck "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
	stub_fsck 2
	run mh -o fsck "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"advises a reboot (exit 2); mounting anyway"* ]]
}

@test "fsck step (stub): exit 4 (uncorrected) refuses the mount" {
	stub_fsck 4
	run mh -v -o fsck "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"failed (exit 4): errors left uncorrected; not mounting"* ]]
	[[ $output != *"mount(\""* ]]
}

@test "fsck step: a missing fsck program fails -o fsck with a clear message" {
	export F2_FSCK=$T/none/fsck.f2fs
	run mh -o fsck "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"the fsck program '$T/none/fsck.f2fs' was not found"* ]]
}

@test "fsck step (stub): errors=fsck runs fsck only when the checkpoint is not clean" {
	stub_fsck 0
	run mh -o errors=fsck "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
	[ ! -e "$T/fsck.log" ]
	dirty_image
	run mh -v -o errors=fsck "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"not unmounted cleanly"* ]]
	[ "$(cat "$T/fsck.log")" = "-p $T/img" ]
}

@test "mount: errors=refuse refuses a dirty checkpoint; errors=continue (default) mounts it" {
	dirty_image
	run mh -o errors=refuse "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"not unmounted cleanly"*"errors=refuse; not mounting"* ]]
	run mh -o errors=continue "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
	run mh "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
	# a clean image is not refused by errors=refuse
	cp --sparse=always "$BATS_FILE_TMPDIR/good.img" "$T/img"
	run mh -o errors=refuse "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
}

@test "mount: /etc/mtab gets a line only when it is a regular file (and not with -n)" {
	: >"$T/mtab"
	run env F2_MTAB="$T/mtab" "$MOUNT_F2FS" -f -o noatime,inline_data,nofail "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/mtab")" = "$T/img $T/mnt f2fs rw,noatime,inline_data 0 0" ]
	run env F2_MTAB="$T/mtab" "$MOUNT_F2FS" -f -n -o ro "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$T/mtab")" -eq 1 ]
	# a symlink (to /proc/mounts on modern systems) is left alone
	ln -s "$T/mtab" "$T/mtab-link"
	run env F2_MTAB="$T/mtab-link" "$MOUNT_F2FS" -f -o ro "$T/img" "$T/mnt"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$T/mtab")" -eq 1 ]
}

@test "fsck step (our fsck): -o fsck preens a bad backup superblock (fsck exit 1), then mounts" {
	fs_image
	"$F2FIELD" "$T/fs" set sb1.log_blocksize 13
	run mh -v -o fsck "$T/fs" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"running $FSCK -p $T/fs (option fsck)"* ]]
	[[ $output == *"SB_BACKUP_BAD"*"(preen)"* ]]
	[[ $output == *"$FSCK exited 1: errors corrected"* ]]
	[[ $output == *"fake-mounted $T/fs on $T/mnt"* ]]
	# repaired for good: a full check finds nothing
	run "$FSCK" -n -f "$T/fs"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "fsck step (our fsck): damage -p cannot fix (exit 4) refuses the mount, -o fsck or errors=fsck" {
	fs_image
	local ino
	ino=$("$F2FIELD" "$T/fs" get dent.3.seq.ino | cut -d' ' -f3)
	"$F2FIELD" "$T/fs" set "inode.$ino.mode" 0
	# the kernel's "needs fsck" flag, so that -p checks beyond the checkpoint
	perl "$BATS_TEST_DIRNAME/cpflags.pl" "$T/fs" 0 0x10 >/dev/null
	run mh -v -o fsck "$T/fs" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"DENT_BAD_INODE"* ]]
	[[ $output == *"$FSCK -p $T/fs failed (exit 4): errors left uncorrected; not mounting"* ]]
	[[ $output != *'mount("'* ]]
	run mh -v -o errors=fsck "$T/fs" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"(errors=fsck with a checkpoint that is not clean)"* ]]
	[[ $output == *"failed (exit 4): errors left uncorrected; not mounting"* ]]
	# without the fsck step the helper leaves the judgement to the kernel
	run mh -o errors=continue "$T/fs" "$T/mnt"
	[ "$status" -eq 0 ]
}

@test "fsck step (our fsck): errors=fsck skips a clean checkpoint, checks one marked CP_FSCK" {
	fs_image
	run mh -v -o errors=fsck "$T/fs" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output != *"running "* ]]
	perl "$BATS_TEST_DIRNAME/cpflags.pl" "$T/fs" 0 0x10 >/dev/null
	run mh -v -o errors=fsck "$T/fs" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"checkpoint not clean"*"fsck requested"* ]]
	[[ $output == *"running $FSCK -p $T/fs (errors=fsck with a checkpoint that is not clean)"* ]]
	# the full check found nothing and cleared the kernel's mark (exit 1)
	[[ $output == *"CP_FSCK) cleared"* ]]
	[[ $output == *"$FSCK exited 1: errors corrected"* ]]
	# so the next mount skips fsck again
	run mh -v -o errors=fsck "$T/fs" "$T/mnt"
	[ "$status" -eq 0 ]
	[[ $output != *"running "* ]]
}

@test "fsck step (stub): exit 8, 16 and a signal refuse, each explained" {
	stub_fsck 8
	run mh -o fsck "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"failed (exit 8): operational error"*"; not mounting"* ]]
	stub_fsck 16
	run mh -o fsck "$T/img" "$T/mnt"
	[ "$status" -eq 32 ]
	[[ $output == *"failed (exit 16): usage error; not mounting"* ]]
	printf '#!/bin/sh\nkill -9 $$\n' >"$T/fsck-stub"
	run mh -o fsck "$T/img" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"failed (exit 137): killed by a signal; not mounting"* ]]
}
