# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of the kernel boot of tests/fsck/rescue.bats (busybox sh).
# Every virtio disk is a kernel-written fixture whose metadata area was
# zeroed and rebuilt by fsck.f2fs -y: mount it, print the md5 of every
# regular file under 1 GiB (lost+found included: a sparse 8 GiB file
# would take minutes under TCG), write, sync, delete and write again,
# unmount.  Prints "vdX mount rc=N", "vdX md5 SUM PATH", "vdX write rc=N",
# "vdX umount rc=N", then DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	(cd /mnt && find . -type f -size -1048577k -print0 | xargs -0 -r md5sum | sed "s/^\([0-9a-f]*\)  /$dev md5 \1 /")
	{ mkdir /mnt/rescue-new && dd if=/dev/urandom of=/mnt/rescue-new/a bs=4096 count=300 2>/dev/null &&
	  sync && rm /mnt/rescue-new/a && echo x >/mnt/rescue-new/b && sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
