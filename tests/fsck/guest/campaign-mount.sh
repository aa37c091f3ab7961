# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of the fault campaign's boot (tests/fsck/campaign.bash, busybox
# sh).  /dev/vda holds the volumes one after another; /guest/vols has a
# line "ID OFFSET" (bytes) for each.  Each is attached to a loop device
# at its offset, mounted, every regular file's md5 printed, a file
# written and synced, unmounted; then what the kernel said of it.  Prints
# "V ID mount rc=N", "V ID md5 SUM PATH", "V ID write rc=N",
# "V ID umount rc=N", "V ID dmesg LINE" (f2fs and I/O lines), then DONE.
dmesg -c >/dev/null
while read -r id off; do
	losetup -o "$off" /dev/loop0 /dev/vda || { echo "V $id losetup failed"; continue; }
	mount -t f2fs /dev/loop0 /mnt
	echo "V $id mount rc=$?"
	if grep -q " /mnt " /proc/mounts; then
		# (NUL-separated: a name a fault left holding a blank, a quote or
		# a newline is still read; a newline's remainder is dropped)
		(cd /mnt && find . -type f -print0 | xargs -0 -r md5sum 2>/dev/null) |
			sed -n "s/^\([0-9a-f]\{32\}\)  /V $id md5 \1 /p"
		{ dd if=/dev/urandom of=/mnt/campaign.new bs=4096 count=8 2>/dev/null && sync; }
		echo "V $id write rc=$?"
		umount /mnt
		echo "V $id umount rc=$?"
	fi
	losetup -d /dev/loop0
	dmesg -c | grep -Ei 'f2fs|i/o error|blk_update|buffer' | sed "s/^/V $id dmesg /"
done </guest/vols
echo DONE
