# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of the multi-device test of tests/fsck/kernel.bats (busybox
# sh).  The virtio disks are the devices of one volume that fsck.f2fs -y
# repaired; /guest/devmap ("vdX PATH" a line) gives the path its
# superblock records for each, where the driver opens it: a link to the
# disk is made there.  Mount the first device, count the devices the
# driver mounted, print the md5 of every regular file, run our fsck -y
# on the mounted volume (refused), write, delete and rewrite files,
# unmount.  Prints "multi mount rc=N", "multi devices N", "multi md5 SUM
# PATH", "multi fsck-y rc=N", "multi write rc=N", "multi umount rc=N",
# then DONE.
while read -r dev path; do
	mkdir -p "$(dirname "$path")" && ln -sf "/dev/$dev" "$path"
done </guest/devmap
first=$(awk 'NR == 1 { print $1 }' /guest/devmap)
before=$(dmesg | grep -c 'Mount Device')
mount -t f2fs "/dev/$first" /mnt
echo "multi mount rc=$?"
grep -q " /mnt " /proc/mounts || { echo DONE; exit 0; }
echo "multi devices $(( $(dmesg | grep -c 'Mount Device') - before ))"
# one md5sum for many files (a process per file is slow under TCG)
(cd /mnt && find . -type f | xargs md5sum | sed 's/^\([0-9a-f]*\)  /multi md5 \1 /')
fsck.f2fs -f -y "/dev/$first" >/tmp/fsck.out 2>&1
echo "multi fsck-y rc=$?"
{ dd if=/dev/urandom of=/mnt/d1/d2/new1 bs=4096 count=72 2>/dev/null && rm /mnt/d1/d2/new1 &&
  dd if=/dev/urandom of=/mnt/many/new2 bs=4096 count=100 2>/dev/null &&
  mkdir /mnt/d1/newdir && echo x >/mnt/d1/newdir/f && rm -rf /mnt/d1/newdir &&
  rm -f /mnt/huge && sync; }
echo "multi write rc=$?"
umount /mnt
echo "multi umount rc=$?"
echo DONE
