# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers sourced (as /guest/lib.sh) by the guest scripts of
# tests/kernel/{mkfs,populate,zoned}.bats (busybox sh): the mount, write,
# unmount, remount and compare round they all run on a volume, reported
# as "<tag> <fact>" lines.  The bats file stages it with KERNEL_FILES.

# sums DIR [PATH...]: md5sums of the regular files under DIR (or under
# the PATHs inside it), sorted by name
sums() {
	local d=$1
	shift
	[ $# -gt 0 ] || set -- .
	(cd "$d" && find "$@" -type f | sort | xargs md5sum)
}

# mount_dev TAG DEV: mount /dev/DEV on /mnt; "TAG mount ok", or "TAG mount
# failed" with the kernel's new messages, and status 1
mount_dev() {
	local before
	before=$(dmesg | wc -l)
	if ! mount -t f2fs "/dev/$2" /mnt; then
		echo "$1 mount failed"
		dmesg | tail -n +$((before + 1)) | sed "s/^/$1 dmesg /"
		return 1
	fi
	echo "$1 mount ok"
}

# write_files TAG FN: run FN /mnt; "TAG wrote <what FN printed>", or "TAG
# FN failed: <its last error lines> <df of /mnt>"
write_files() {
	local out
	if out=$("$2" /mnt 2>/tmp/err); then
		echo "$1 wrote $out"
	else
		echo "$1 $2 failed: $(tail -n 3 /tmp/err | tr '\n' ' ') $(df -k /mnt | tail -n 1)"
	fi
}

# remount_check TAG DEV [PATH...]: note the md5s of the mounted /mnt (of
# PATHs in it), unmount, mount again, compare, unmount: "TAG umount ok",
# "TAG remount ok", "TAG md5 match", "TAG umount2 ok" or "TAG remount failed"
remount_check() {
	local tag=$1 dev=$2
	shift 2
	sums /mnt "$@" >"/tmp/$tag.md5"
	umount /mnt && echo "$tag umount ok"
	if mount -t f2fs "/dev/$dev" /mnt; then
		echo "$tag remount ok"
		sums /mnt "$@" | cmp -s - "/tmp/$tag.md5" && echo "$tag md5 match"
		umount /mnt && echo "$tag umount2 ok"
	else
		echo "$tag remount failed"
	fi
}
