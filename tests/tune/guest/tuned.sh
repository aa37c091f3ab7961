# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/tune/kernel.bats (busybox sh): every virtio disk is
# a volume tune.f2fs changed.  Mount it, count its entries, print the md5
# of every regular file, list the root, write and remove a file (in a
# casefolded lost+found-free directory when /cf exists: a name looked up
# by another case), leave a 40 KiB file owned by 77:88 (quota charges
# it), unmount; then the kernel's f2fs messages.
# Prints "vdX mount rc=N", "vdX entries N", "vdX md5 SUM PATH",
# "vdX root NAME", "vdX write rc=N", "vdX umount rc=N", then "dmesg ..."
# lines and DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	echo "$dev entries $(cd /mnt && find . | wc -l)"
	(cd /mnt && find . -type f | xargs md5sum | sed "s/^\([0-9a-f]*\)  /$dev md5 \1 /")
	ls -a /mnt | sed "s/^/$dev root /"
	{ echo hello >/mnt/new && cat /mnt/new >/dev/null && rm /mnt/new &&
	  dd if=/dev/zero of=/mnt/kept bs=4096 count=10 2>/dev/null && chown 77:88 /mnt/kept &&
	  sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount rc=$?"
done
dmesg | grep -i f2fs | sed 's/^/dmesg /'
echo DONE
