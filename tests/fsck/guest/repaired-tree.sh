# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of the repaired-image boots of tests/fsck/kernel.bats
# (busybox sh).  Every virtio disk is an image fsck.f2fs -y repaired:
# mount it, print the md5 of every regular file (lost+found included),
# say whether lost+found is there, write, delete and rewrite files in the
# repaired directories (or lost+found, or the root), unmount.  Prints
# "vdX mount rc=N", "vdX md5 SUM PATH", "vdX has lost+found",
# "vdX write rc=N", "vdX umount rc=N", then DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	# one md5sum for many files (a process per file is slow under TCG)
	(cd /mnt && find . -type f | xargs md5sum | sed "s/^\([0-9a-f]*\)  /$dev md5 \1 /")
	# (a tree that lost its root has these under lost+found)
	[ -d /mnt/lost+found ] && echo "$dev has lost+found"
	d2=/mnt/d1/d2 many=/mnt/many d1=/mnt/d1
	[ -d $d2 ] || d2=/mnt/lost+found
	[ -d $d2 ] || d2=/mnt
	[ -d $many ] || many=/mnt/lost+found
	[ -d $many ] || many=/mnt
	[ -d $d1 ] || d1=/mnt
	{ dd if=/dev/urandom of=$d2/new1 bs=4096 count=72 2>/dev/null && rm $d2/new1 &&
	  dd if=/dev/urandom of=$many/new2 bs=4096 count=100 2>/dev/null &&
	  mkdir $d1/newdir && echo x >$d1/newdir/f && rm -rf $d1/newdir &&
	  rm -f /mnt/huge && sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
