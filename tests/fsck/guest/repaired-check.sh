# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/fsck/kernel.bats (busybox sh).  Every virtio disk
# but the last is an image fsck.f2fs repaired (or a pristine one): mount
# it with the 6.1 driver, print the md5 of every regular file, write,
# delete and rewrite files, unmount.  The last disk is left with an orphan
# inode: a file is kept open by a background process, unlinked, and the
# file system synced; then a new file is written and fsync-ed (so it waits
# for roll-forward), and it stays mounted until the guest powers off.
# Our fsck.f2fs is then run on that mounted disk (-y must refuse, -n
# warns).  A disk named in /guest/roles ("vdX freecount") is a fresh
# volume for the free segment count of the kernel's checkpoints: an 8 MiB
# file written, synced, deleted, synced, our fsck -f -n -v run on it after
# each sync ("vdX count-a|count-b VERSION CP SIT RC": the checkpoint's
# version and free segments, the SIT's, fsck's exit status); then a
# directory's only dentry block left alone in a segment, the directory
# changed, and the volume remounted with checkpointing disabled: that
# checkpoint rewrites the block elsewhere, emptying the segment, which it
# keeps in use.  It stays mounted; the host checks that last checkpoint.
# Prints "vdX mount rc=N", "vdX md5 SUM PATH", "vdX write rc=N",
# "vdX umount rc=N" (for the last: "vdX orphan rc=N", "vdX fsck-y rc=N
# COUNT", "vdX fsck-n rc=N COUNT"; for the free count disk "vdX
# freecount rc=N"), then DONE.
# the last disk: vdz sorts after vdaa, so by name length first
last=$(ls -d /sys/block/vd* | awk '{ print length($0), $0 }' | sort -n | tail -n 1 | cut -d' ' -f2)
# counts TAG DEV: the newest checkpoint as our fsck reads it (bypassing
# the block device's cache, which the driver's writes do not update)
counts() {
	local rc=0
	echo 3 >/proc/sys/vm/drop_caches
	fsck.f2fs -f -n -v "/dev/$2" >/tmp/fc.out 2>&1 || rc=$?
	echo "$2 $1 $(sed -n 's/^checkpoint: pack .* version \([0-9]*\),.*/\1/p' /tmp/fc.out)" \
		"$(sed -n 's/^checkpoint: free_segment_count \([0-9]*\), the SIT has \([0-9]*\) .*/\1 \2/p' \
		/tmp/fc.out) $rc"
}

# freecount M DEV: an 8 MiB file's four segments emptied by a checkpoint
# (fewer than the 6 prefree segments, 5% of 120, that make the driver
# checkpoint on its own); then 600 directories with a dentry block each
# (noinline_dentry) fill a hot data segment with the root's and the first
# ones' blocks; the others removed and the root rewritten, d1's block is
# that segment's last; a new name in d1 dirties it, and the remount's
# checkpoint writes it out with checkpointing already disabled
freecount() {
	local i rest=
	dd if=/dev/zero of="$1/big" bs=1M count=8 2>/dev/null && sync || return
	counts count-a "$2"
	rm "$1/big" && sync || return
	counts count-b "$2"
	for i in $(seq 2 600); do rest="$rest $1/d$i"; done
	mkdir "$1/d1" $rest && sync && rmdir $rest && sync && touch "$1/d1/x" &&
		mount -o remount,noinline_dentry,checkpoint=disable:100% "/dev/$2" "$1"
}

for d in /sys/block/vd*; do
	dev=$(basename "$d")
	role=$(sed -n "s/^$dev //p" /guest/roles 2>/dev/null)
	if [ -n "$role" ]; then
		mkdir -p "/tmp/$dev" && mount -t f2fs -o noinline_dentry "/dev/$dev" "/tmp/$dev" &&
			$role "/tmp/$dev" "$dev"
		echo "$dev $role rc=$?"
		continue
	fi
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
	{ dd if=/dev/urandom of=/mnt/new1 bs=4096 count=72 2>/dev/null && rm /mnt/new1 &&
	  dd if=/dev/urandom of=/mnt/new2 bs=4096 count=100 2>/dev/null &&
	  mkdir /mnt/newdir && echo x >/mnt/newdir/f && sync; }
	echo "$dev write rc=$?"
	umount /mnt
	echo "$dev umount rc=$?"
done
echo DONE
