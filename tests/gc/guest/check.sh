# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/gc/kernel.bats (busybox sh).  Reads /guest/disks
# ("name vdX" lines: images cleaned by gc.f2fs).  For each: mount, md5 of
# every file, write new files into the freed space, unmount, remount
# read-only and read them back.  Prints "<name> <fact>" lines, then DONE.

sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }

check() {
	local name=$1 dev=$2 i
	if ! mount -t f2fs "/dev/$dev" /mnt; then
		echo "$name mount failed"
		return
	fi
	echo "$name mount ok"
	sums /mnt | sed "s/^/$name md5 /"
	echo "$name avail $(df -k /mnt | awk 'NR == 2 { print $4 }')"
	mkdir /mnt/new || echo "$name mkdir failed"
	i=0
	while [ $i -lt 12 ]; do
		dd if=/dev/urandom of="/mnt/new/f$i" bs=1M count=2 2>/dev/null ||
			echo "$name write f$i failed"
		i=$((i + 1))
	done
	sync
	(cd /mnt && md5sum new/*) | sed "s/^/$name wrote /"
	if umount /mnt; then echo "$name umount ok"; else echo "$name umount failed"; return; fi
	if ! mount -t f2fs -o ro "/dev/$dev" /mnt; then
		echo "$name remount failed"
		return
	fi
	(cd /mnt && md5sum new/*) | sed "s/^/$name reread /"
	umount /mnt && echo "$name final umount ok"
}

while read -r name dev; do
	check "$name" "$dev"
done </guest/disks
echo DONE
