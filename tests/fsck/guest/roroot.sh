# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/fsck/roroot.bats (busybox sh): the root file system
# at boot, as systemd-fsck finds it.  Each virtio disk (clean or damaged:
# the host knows which) is mounted read-only; our fsck.f2fs
# (staged as /bin/fsck.f2fs) runs -n, then -a twice on the mounted device
# (the second -a is the next boot's, which must find it clean: no reboot
# loop); the device's md5 before and after says whether it wrote.  The
# mount still reads its files; then it is unmounted and mounted again
# read-write (the reboot), every file read, one written, unmounted.
# Markers "roroot: vdX ro|rw" go to the kernel log before each mount, so
# the host can tell which mount a driver message belongs to.
# Prints "vdX mount-ro rc=N", "vdX fsck-n rc=N", "vdX fsck-a rc=N
# reboot=COUNT", "vdX fsck-a2 rc=N", "vdX written=0|1", "vdX read-ro
# rc=N", "vdX umount-ro rc=N", "vdX mount-rw rc=N", "vdX md5 SUM PATH",
# "vdX write rc=N", "vdX umount-rw rc=N", each fsck's output prefixed
# "vdX n|a|a2: ", then DONE.
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	echo "roroot: $dev ro" >/dev/kmsg
	mount -t f2fs -o ro "/dev/$dev" /mnt
	echo "$dev mount-ro rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	before=$(md5sum <"/dev/$dev")
	fsck.f2fs -n "/dev/$dev" >/tmp/n.out 2>&1
	echo "$dev fsck-n rc=$?"
	fsck.f2fs -a "/dev/$dev" >/tmp/a.out 2>&1
	echo "$dev fsck-a rc=$? reboot=$(grep -c 'REBOOT' /tmp/a.out)"
	fsck.f2fs -a "/dev/$dev" >/tmp/a2.out 2>&1
	echo "$dev fsck-a2 rc=$?"
	for t in n a a2; do sed "s/^/$dev $t: /" /tmp/$t.out; done
	after=$(md5sum <"/dev/$dev")
	[ "$before" = "$after" ]
	echo "$dev written=$?"
	# the kernel still serves the mount from its own view
	(cd /mnt && find . -type f | xargs cat >/dev/null)
	echo "$dev read-ro rc=$?"
	umount /mnt
	echo "$dev umount-ro rc=$?"
	echo "roroot: $dev rw" >/dev/kmsg
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount-rw rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	(cd /mnt && find . -type f | xargs md5sum | sed "s/^\([0-9a-f]*\)  /$dev md5 \1 /")
	{ dd if=/dev/urandom of=/mnt/new bs=4096 count=30 2>/dev/null && sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount-rw rc=$?"
done
echo "roroot: end" >/dev/kmsg
echo DONE
