# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/mkfs.bats (busybox sh).  Reads
# /guest/disks ("name vdX features"), /guest/multi ("multi vdX vdY") and
# /guest/zeroed ("zeroed vdX"); prints "<name> <fact>" lines, then DONE.
. /guest/lib.sh

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
