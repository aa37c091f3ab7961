# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/mkfs.bats (busybox sh).  Reads
# /guest/disks ("name vdX features"), /guest/multi ("multi vdX vdY") and
# /guest/zeroed ("zeroed vdX"); prints "<name> <fact>" lines, then DONE.
. /guest/lib.sh

# fill DIR: 10 directories x 10 subdirectories x 10 files of varied
# sizes (0..~12 KiB, so inline data and multi-block files) and one
# 6 MiB file (past the 923 direct pointers of the inode).  On a volume
# with under 64 MiB for users (a 64 MiB image leaves 16 MiB) the files
# stay under 3000 bytes (inline) and the big one is 4 MiB.
fill() {
	local d s f n=0 mod=12289 big=6
	if [ "$(df -k "$1" | awk 'NR == 2 { print $2 }')" -lt 65536 ]; then
		mod=3000 big=4
	fi
	for d in 0 1 2 3 4 5 6 7 8 9; do
		for s in 0 1 2 3 4 5 6 7 8 9; do
			mkdir -p "$1/d$d/s$s" || return 1
			for f in 0 1 2 3 4 5 6 7 8 9; do
				head -c $(( (d * 100 + s * 10 + f) * 127 % mod )) /dev/urandom \
					>"$1/d$d/s$s/f$f" || return 1
				n=$((n + 1))
			done
		done
	done
	dd if=/dev/urandom of="$1/big" bs=1M count=$big 2>/dev/null || return 1
	n=$((n + 1))
	echo "$n files"
}

exercise() {
	local name=$1 dev=$2
	mount_dev "$name" "$dev" || return
	[ -r "/sys/fs/f2fs/$dev/features" ] &&
		echo "$name features $(cat "/sys/fs/f2fs/$dev/features")"
	write_files "$name" fill
	remount_check "$name" "$dev"
}

while read -r name dev feat; do
	exercise "$name" "$dev"
done </guest/disks

read -r name d0 d1 </guest/multi
if mkfs.f2fs -q -f -c "/dev/$d1" "/dev/$d0" >/tmp/err 2>&1; then
	echo "$name mkfs ok"
	before=$(dmesg | grep -c 'Mount Device')
	if mount -t f2fs "/dev/$d0" /mnt; then
		after=$(dmesg | grep -c 'Mount Device')
		echo "$name devices $((after - before))"
		umount /mnt
	fi
	exercise "$name" "$d0"
else
	echo "$name mkfs failed: $(tail -n 3 /tmp/err | tr '\n' ' ')"
fi

read -r name dev </guest/zeroed
if mount -t f2fs "/dev/$dev" /mnt 2>/dev/null; then
	echo "$name mount accepted"
	umount /mnt
else
	echo "$name mount refused"
fi
echo DONE
