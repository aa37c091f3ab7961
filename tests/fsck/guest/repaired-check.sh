# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/fsck/kernel.bats (busybox sh).  Every virtio disk
# but the last is an image fsck.f2fs repaired (or a pristine one): mount
# it with the 6.1 driver, print the md5 of every regular file, write,
# delete and rewrite files, unmount.  The last disk is left with an orphan
# inode: a file is kept open by a background process, unlinked, and the
# file system synced; then a new file is written and fsync-ed (so it waits
# for roll-forward), and it stays mounted until the guest powers off.
# Our fsck.f2fs is then run on that mounted disk (-y must refuse, -n
# warns).  Prints "vdX mount rc=N", "vdX md5 SUM PATH", "vdX write rc=N",
# "vdX umount rc=N" (for the last: "vdX orphan rc=N", "vdX fsck-y rc=N
# COUNT", "vdX fsck-n rc=N COUNT"), then DONE.
# the last disk: vdz sorts after vdaa, so by name length first
last=$(ls -d /sys/block/vd* | awk '{ print length($0), $0 }' | sort -n | tail -n 1 | cut -d' ' -f2)
for d in /sys/block/vd*; do
	dev=$(basename "$d")
	mount -t f2fs "/dev/$dev" /mnt
	echo "$dev mount rc=$?"
	grep -q " /mnt " /proc/mounts || continue
	if [ "$d" = "$last" ]; then
		seq 1 100000 >/mnt/orphan && sync &&
			{ sleep 100000 </mnt/orphan & } && sleep 1 && rm /mnt/orphan && sync &&
			seq 1 3000 | dd of=/mnt/fsynced conv=fsync 2>/dev/null
		echo "$dev orphan rc=$?"
		# fsck.f2fs (staged as /bin/fsck.f2fs) refuses to repair it
		# while mounted, and checks it read-only with a warning
		fsck.f2fs -y "/dev/$dev" >/tmp/fy.out 2>&1
		echo "$dev fsck-y rc=$? $(grep -c 'is mounted on /mnt' /tmp/fy.out)"
		fsck.f2fs -n "/dev/$dev" >/tmp/fn.out 2>&1
		echo "$dev fsck-n rc=$? $(grep -c 'warning: .* is mounted on /mnt' /tmp/fn.out)"
		continue
	fi
	# one md5sum for many files (a process per file is slow under TCG)
	(cd /mnt && find . -type f | xargs md5sum | sed "s/^\([0-9a-f]*\)  /$dev md5 \1 /")
	{ seq 1 50000 >/mnt/new1 && rm /mnt/new1 && seq 1 70000 >/mnt/new2 &&
	  mkdir /mnt/newdir && echo x >/mnt/newdir/f && sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
