# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/inject/kernel.bats (busybox sh): every virtio disk
# is an image fsck.f2fs -y repaired after an injected fault.  Mount it,
# count its entries, print the md5 of every regular file (of the last MiB
# of one over 64 MiB), unmount.  Prints "vdX mount rc=N", "vdX entries N",
# "vdX md5 SUM PATH", "vdX tail SUM PATH", "vdX umount rc=N", then DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	echo "$dev entries $(cd /mnt && find . | wc -l)"
	(cd /mnt && find . -type f -size -65536k | xargs md5sum |
		sed "s/^\([0-9a-f]*\)  /$dev md5 \1 /")
	# a large (sparse) file: its last MiB only (reading gigabytes of holes
	# under TCG takes minutes)
	(cd /mnt && find . -type f -size +65535k) | while read -r f; do
		s=$(stat -c %s "/mnt/$f")
		t=$(dd if="/mnt/$f" bs=1048576 skip=$((s / 1048576 - 1)) count=1 2>/dev/null | md5sum)
		echo "$dev tail ${t%% *} $f"
	done
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
