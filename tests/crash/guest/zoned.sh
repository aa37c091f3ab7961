# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/crash/zoned.bats (busybox sh): records the write logs
# of our writers on a real zoned volume, for the host to cut.  /dev/vda is
# the metadata disk, /dev/nvme0n1 a zoned namespace (4 MiB zones); both are
# named through symlinks under the directory in /etc/f2pc, a path the host
# can give to image files, so the superblock's device list holds there too.
#   1. mkfs.f2fs -m -c over both, recorded (mkfs.log);
#   2. the 6.1 driver ages the volume (files written, every other deleted,
#      more written); both devices are copied to /dev/vdb and /dev/vdc (the
#      start of the next run);
#   3. gc.f2fs, recorded (gc.log); our fsck checks the result on the zoned
#      device;
#   4. defrag.f2fs moves a range to the zoned namespace, recorded
#      (defrag.log; its start is gc's end: nothing else writes between),
#      checked the same way; then the driver mounts the volume and
#      compares every md5 (and complains of no write pointer).
# The logs go to /dev/vdd as a tar stream.  Prints "<tag> <fact>" lines.

sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }

# ourfsck TAG: our fsck on the zoned volume (it writes nothing)
ourfsck() {
	our-fsck.f2fs -f -n "$PC/meta" >/tmp/fsck.out 2>&1
	echo "$1 fsck exit $?"
	tail -n 3 /tmp/fsck.out | sed "s/^/$1 fsck /"
}

# mounted TAG: the driver mounts the volume; every md5 as before
mounted() {
	if mount -t f2fs /dev/vda /mnt; then
		sums /mnt >/tmp/now
		if cmp -s /tmp/sums /tmp/now; then echo "$1 md5 same"; else echo "$1 md5 differ"; fi
		umount /mnt && echo "$1 umount ok"
	else
		echo "$1 mount failed"
	fi
	# 6.12 says "Checking entire write pointers" at every zoned mount, and
	# "Valid blocks are not aligned with write pointer" for a zone that
	# holds valid blocks, is not full and no log writes in (the kernel
	# then finishes the zone; 6.1 accepted it): counted apart
	dmesg | grep -v 'Checking entire write pointers' | grep -i 'write pointer' >/tmp/wp
	echo "$1 write pointer notices $(grep -vc 'Valid blocks are not aligned with write pointer' /tmp/wp)"
	echo "$1 open zone notices $(grep -c 'Valid blocks are not aligned with write pointer' /tmp/wp)"
	sed "s/^/$1 notice: /" /tmp/wp
}

PC=$(cat /etc/f2pc)
mkdir -p "$PC" /tmp/out
ln -s /dev/vda "$PC/meta" && ln -s /dev/nvme0n1 "$PC/zns" || { echo "no links"; echo DONE; exit 0; }
head -c 1048576 /dev/urandom >/tmp/seed

F2_IO_RECORD=/tmp/out/mkfs.log mkfs.f2fs -f -m -c "$PC/zns" "$PC/meta" >/tmp/mkfs.out 2>&1
echo "mkfs exit $?"
tail -n 3 /tmp/mkfs.out | sed 's/^/mkfs /'

mount -t f2fs /dev/vda /mnt || { echo "age mount failed"; echo DONE; exit 0; }
i=0
while [ $i -lt 150 ]; do
	{ echo "age $i"; head -c $((100000 + i * 9173 % 500000)) /tmp/seed; } >/mnt/f$i || break
	i=$((i + 1))
done
sync	# on disk before every other file goes: sections left partly valid
i=0
while [ $i -lt 150 ]; do rm -f /mnt/f$i; i=$((i + 2)); done
sync
while [ $i -lt 190 ]; do
	{ echo "age $i"; head -c $((i * 7919 % 600000)) /tmp/seed; } >/mnt/f$i || break
	i=$((i + 1))
done
sync
sums /mnt >/tmp/sums
echo "age files $(wc -l </tmp/sums)"
umount /mnt && echo "age umount ok"
dd if=/dev/vda of=/dev/vdb bs=1M 2>/dev/null && dd if=/dev/nvme0n1 of=/dev/vdc bs=1M 2>/dev/null &&
	sync && echo "start copied"

F2_IO_RECORD=/tmp/out/gc.log gc.f2fs -c 4 --no-progress "$PC/meta" >/tmp/gc.out 2>&1
echo "gc exit $?"
grep -e '^result' -e '^zones reset' /tmp/gc.out | sed 's/^/gc /'
ourfsck gc

# the first two sections of the main area holding 100 valid blocks or
# more, moved right of 3/4 of the volume (on the zoned namespace, which
# starts at block 16384, after the 64 MiB disk)
main=$(dump.f2fs -d 1 /dev/vda 2>/dev/null | sed -n 's/^main_blkaddr .*: \([0-9]*\)\]$/\1/p')
nseg=$(dump.f2fs -d 1 /dev/vda 2>/dev/null | sed -n 's/^segment_count_main .*: \([0-9]*\)\]$/\1/p')
l=$((4 * 512)); t=$((main + nseg * 3 / 4 * 512)); s=$main
while [ $((s + l)) -le "$t" ]; do
	n=$(defrag.f2fs -n -s $s -l $l /dev/vda 2>/dev/null | sed -n 's/^valid blocks in the range: \([0-9]*\) to move.*/\1/p')
	[ "${n:-0}" -ge 100 ] && break
	s=$((s + l))
done
echo "defrag range $s $l $t"
F2_IO_RECORD=/tmp/out/defrag.log defrag.f2fs -s $s -l $l -t $t "$PC/meta" >/tmp/defrag.out 2>&1
echo "defrag exit $?"
sed 's/^/defrag /' /tmp/defrag.out | tail -n 3
ourfsck defrag
mounted final

ls -l /tmp/out | sed 's/^/out /'
tar -cf /dev/vdd -C /tmp/out . && sync && echo "logs saved"
echo DONE
