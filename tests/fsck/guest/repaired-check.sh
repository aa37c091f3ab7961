# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/fsck/kernel.bats (busybox sh): for every virtio disk
# (an image fsck.f2fs repaired, or a pristine one), mount it with the 6.1
# driver, print the md5 of every regular file, write, delete and rewrite
# a file, unmount.  Prints "vdX mount rc=N", "vdX md5 SUM PATH" lines,
# "vdX write rc=N", "vdX umount rc=N", then DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	(cd /mnt && find . -type f | sort | while read -r f; do
		echo "$dev md5 $(md5sum "$f" | cut -d' ' -f1) $f"
	done)
	{ seq 1 50000 >/mnt/new1 && rm /mnt/new1 && seq 1 70000 >/mnt/new2 &&
	  mkdir /mnt/newdir && echo x >/mnt/newdir/f && sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
