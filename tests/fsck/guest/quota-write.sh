# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/fsck/quota.bats (busybox sh).  Every virtio disk is
# a quota volume (quota_ino feature: the 6.1 driver turns usage tracking
# on at mount).  On each: files written, given to other users and groups
# (chown/chgrp move their usage), hard-linked, truncated, deleted and
# rewritten, a directory tree removed, then unmounted.  Prints
# "vdX mount rc=N", "vdX write rc=N", "vdX umount rc=N", then DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	{ mkdir -p /mnt/q/a /mnt/q/b /mnt/q/c &&
	  seq 1 200000 >/mnt/q/a/big && echo small >/mnt/q/a/small &&
	  for i in 1 2 3 4 5 6 7 8 9 10; do seq 1 $((i * 700)) >/mnt/q/b/f$i; done &&
	  chown -R 1000:2000 /mnt/q/a && chown -R 1001:2001 /mnt/q/b &&
	  chgrp 2002 /mnt/q/b/f3 && chown 1002 /mnt/q/b/f4 &&
	  ln /mnt/q/a/small /mnt/q/c/hard &&
	  dd if=/dev/zero of=/mnt/q/b/f5 bs=4096 count=1 seek=300 2>/dev/null &&
	  : >/mnt/q/b/f6 && rm /mnt/q/b/f7 &&
	  seq 1 90000 >/mnt/q/c/tmp && chown 1003:2003 /mnt/q/c/tmp && rm /mnt/q/c/tmp &&
	  mkdir -p /mnt/q/gone/x && seq 1 5000 >/mnt/q/gone/x/y && chown -R 1004 /mnt/q/gone &&
	  rm -r /mnt/q/gone && seq 1 30000 >/mnt/q/b/f8 && sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
