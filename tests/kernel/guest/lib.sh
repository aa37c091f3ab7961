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

# fill DIR: 10 x 10 directories of 10 files of varied sizes (0..~12 KiB:
# inline data and multi-block files) and one 6 MiB file (past the 923
# direct pointers of the inode); "N files".  On a volume with under 64
# MiB for users (a 64 MiB image leaves 16 MiB) the files stay under 3000
# bytes (inline) and the big one is 4 MiB.  The small files are cut from
# one random text with shell builtins: a fork per file costs seconds
# under TCG.
fill() {
	local d s f n=0 mod=12289 big=6 data
	if [ "$(df -k "$1" | awk 'NR == 2 { print $2 }')" -lt 65536 ]; then
		mod=3000 big=4
	fi
	data=$(head -c 9300 /dev/urandom | base64 | tr -d '\n') || return 1
	for d in 0 1 2 3 4 5 6 7 8 9; do
		for s in 0 1 2 3 4 5 6 7 8 9; do
			mkdir -p "$1/d$d/s$s" || return 1
			for f in 0 1 2 3 4 5 6 7 8 9; do
				n=$((n + 1))
				printf '%s' "${data:$n:$(( (d * 100 + s * 10 + f) * 127 % mod ))}" \
					>"$1/d$d/s$s/f$f" || return 1
			done
		done
	done
	dd if=/dev/urandom of="$1/big" bs=1M count=$big 2>/dev/null || return 1
	echo "$((n + 1)) files"
}
