# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/inject/kernel.bats (busybox sh): every virtio disk
# is an image fsck.f2fs -y repaired after an injected fault.  Mount it,
# count its entries, print the md5 of every regular file, unmount.
# Prints "vdX mount rc=N", "vdX entries N", "vdX md5 SUM PATH",
# "vdX umount rc=N", then DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	echo "$dev entries $(cd /mnt && find . | wc -l)"
	(cd /mnt && find . -type f | xargs md5sum | sed "s/^\([0-9a-f]*\)  /$dev md5 \1 /")
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
