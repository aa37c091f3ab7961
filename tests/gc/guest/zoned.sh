# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/gc/zoned.bats (busybox sh): a zoned NVMe namespace
# (/dev/nvme0n1, 4 MiB zones: sections of two segments) with a regular
# virtio disk for the metadata (/dev/vda), formatted by our
# mkfs.f2fs -m -c.  The 6.1 driver ages it (files written, every other
# deleted, more written); then our gc.f2fs cleans it and defrag.f2fs moves
# a range of it, each followed by a mount that compares every file's md5,
# writes new files into the freed zones, remounts and reads them back.
# Prints "<tag> <fact>" lines, then DONE.

sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }
# 6.12 says "Checking entire write pointers" at every zoned mount (not a
# finding), and "Valid blocks are not aligned with write pointer" for a
# zone that holds valid blocks, is not full and no log writes in (it then
# finishes the zone; 6.1 takes such a zone silently): counted apart, as
# "open zone notices"
dmesg_f2fs() { dmesg | grep -i f2fs | grep -v 'Checking entire write pointers' |
	grep -v 'Valid blocks are not aligned with write pointer' |
	grep -Ei 'error|inconsistent|write pointer|fail|corrupt' ; }

# mount, compare md5s with /tmp/sums, write N new 1 MiB files, remount, reread
verify() {
	local tag=$1 i
	if ! mount -t f2fs /dev/vda /mnt; then echo "$tag mount failed"; dmesg | tail -n 20; return; fi
	sums /mnt >/tmp/now
	if cmp -s /tmp/sums /tmp/now; then echo "$tag md5 same"; else
		echo "$tag md5 differ"; diff /tmp/sums /tmp/now | head -n 10; fi
	i=0
	while [ $i -lt 24 ]; do
		{ echo "$tag $i"; cat /tmp/seed; } >"/mnt/new-$tag-$i" || echo "$tag write $i failed"
		i=$((i + 1))
	done
	sync
	(cd /mnt && md5sum new-$tag-*) >/tmp/new
	if umount /mnt; then echo "$tag umount ok"; else echo "$tag umount failed"; return; fi
	mount -t f2fs -o ro /dev/vda /mnt || { echo "$tag remount failed"; return; }
	if (cd /mnt && md5sum -c /tmp/new >/dev/null 2>&1); then echo "$tag reread ok"; else echo "$tag reread differ"; fi
	# the new files stay part of the tree for the next round (one pass
	# over the tree: md5s of hundreds of MiB are slow under TCG)
	sums /mnt >/tmp/after
	grep -v " \./new-$tag-" /tmp/after >/tmp/check
	cmp -s /tmp/sums /tmp/check || echo "$tag tree changed"
	mv /tmp/after /tmp/sums
	umount /mnt
	echo "$tag dmesg: $(dmesg_f2fs | wc -l) f2fs errors"
	echo "$tag open zone notices: $(dmesg | grep -c 'Valid blocks are not aligned with write pointer')"
	dmesg_f2fs | head -n 5
}

head -c 1048576 /dev/urandom >/tmp/seed
if ! mkfs.f2fs -f -m -c /dev/nvme0n1 /dev/vda >/tmp/mkfs.out 2>&1; then
	echo "mkfs failed"; cat /tmp/mkfs.out; echo DONE; exit 0
fi
echo "mkfs ok"
mount -t f2fs /dev/vda /mnt || { echo "age mount failed"; echo DONE; exit 0; }
# as little background cleaning as the driver allows while it ages (zoned
# volumes refuse background_gc=off): on a slow guest 6.12's own GC once
# emptied every partly valid section before gc.f2fs ran (CI)
for k in gc_min_sleep_time gc_max_sleep_time gc_no_gc_sleep_time; do
	echo 3600000 >/sys/fs/f2fs/vda/$k 2>/dev/null
done
# (6.11+: no background cleaning of zoned sections above 0% free)
echo 0 >/sys/fs/f2fs/vda/gc_boost_zoned_gc_percent 2>/dev/null
echo 0 >/sys/fs/f2fs/vda/gc_no_zoned_gc_percent 2>/dev/null
i=0
while [ $i -lt 160 ]; do
	{ echo "age $i"; cat /tmp/seed; head -c $((i * 9173 % 700000)) /tmp/seed; } >/mnt/f$i || break
	i=$((i + 1))
done
echo "age wrote $i"
i=0
while [ $i -lt 160 ]; do rm -f /mnt/f$i; i=$((i + 2)); done
sync
i=160
while [ $i -lt 200 ]; do
	{ echo "age $i"; cat /tmp/seed; head -c $((i * 7919 % 900000)) /tmp/seed; } >/mnt/f$i || break
	i=$((i + 1))
done
sync
sums /mnt >/tmp/sums
echo "age files $(wc -l </tmp/sums)"
umount /mnt && echo "age umount ok"

our-fsck.f2fs -f -n /dev/vda >/tmp/fsck0 2>&1; echo "fsck0 exit $?"
fsck.f2fs --dry-run /dev/vda </dev/null >/tmp/ref0 2>&1; echo "ref0 exit $?"

gc.f2fs -n --no-progress /dev/vda >/tmp/gcn 2>&1; echo "gcn exit $?"
sed 's/^/gcn /' /tmp/gcn | head -n 12
gc.f2fs --no-progress /dev/vda >/tmp/gc 2>&1; echo "gc exit $?"
sed 's/^/gc /' /tmp/gc | grep -v '^gc  *[0-9]' | head -n 30
our-fsck.f2fs -f -n /dev/vda >/tmp/fsck1 2>&1; echo "fsck1 exit $?"; tail -n 3 /tmp/fsck1 | sed 's/^/fsck1 /'
fsck.f2fs --dry-run /dev/vda </dev/null >/tmp/ref1 2>&1; echo "ref1 exit $?"
# the reference's findings after cleaning are those it had before (counts
# and the checkpoint's flags aside: our checkpoint does not carry "trimmed")
refv() {
	grep -v -e 'CKPT version' -e 'Free space' -e 'Done:' -e 'Max image size' \
		-e 'checkpoint state' "$1" | sed 's/ *\[0x[0-9a-f]*\]$//'
}
refv /tmp/ref0 >/tmp/r0
refv /tmp/ref1 >/tmp/r1
if cmp -s /tmp/r0 /tmp/r1; then echo "ref same verdict"; else echo "ref verdict differs"; diff /tmp/r0 /tmp/r1 | head -n 20; fi
verify gc

# defrag: the first two sections of the zoned device holding 100 valid
# blocks or more, moved right of the last quarter of the main area
main=$(dump.f2fs -d 1 /dev/vda 2>/dev/null | sed -n 's/^main_blkaddr .*: \([0-9]*\)\]$/\1/p')
nseg=$(dump.f2fs -d 1 /dev/vda 2>/dev/null | sed -n 's/^segment_count_main .*: \([0-9]*\)\]$/\1/p')
echo "layout main $main segments $nseg"
# (block 16384 = 0x4000: the zoned namespace follows the 64 MiB metadata disk)
l=$((4 * 512)); t=$((main + nseg * 3 / 4 * 512)); s=16384
while [ $((s + l)) -le "$t" ]; do
	n=$(defrag.f2fs -n -s $s -l $l /dev/vda 2>/dev/null | sed -n 's/^valid blocks in the range: \([0-9]*\) to move.*/\1/p')
	[ "${n:-0}" -ge 100 ] && break
	s=$((s + l))
done
echo "defrag range $s $l $t"
defrag.f2fs -s $s -l $l -t $t /dev/vda >/tmp/defrag 2>&1; echo "defrag exit $?"
sed 's/^/defrag /' /tmp/defrag
defrag.f2fs -n -s $s -l $l /dev/vda 2>&1 | sed 's/^/defragn /'
our-fsck.f2fs -f -n /dev/vda >/tmp/fsck2 2>&1; echo "fsck2 exit $?"; tail -n 3 /tmp/fsck2 | sed 's/^/fsck2 /'
verify defrag
echo DONE
