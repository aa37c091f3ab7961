# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/resize/devices.bats (busybox sh).  First a zoned NVMe
# namespace (/dev/nvme0n1, 512 MiB, 4 MiB zones: sections of two
# segments) with a regular virtio disk for the metadata (/dev/vda),
# formatted by our mkfs.f2fs -m -c and aged by the kernel.  Our
# resize.f2fs shrinks it to the smallest size (whole zones: 16 MiB steps
# of the namespace) whose plan moves blocks and fits; then the cut zones
# must read as zeros (reset), the kernel mounts it (no write-pointer
# complaint), every file has its md5, new files are written and read back
# after a remount, and both fscks judge it (the reference's verdict as
# before the shrink: it has known bugs on zoned volumes).  Then a
# two-device volume (/dev/vdb, /dev/vdc: 128 MiB each, mkfs.f2fs -c) is
# shrunk by half its last device and grown back (resize.f2fs with no
# size: the last device whole), the kernel mounting it after each with
# every md5 kept, writing and rereading; both fscks after (tag md).
# Prints "<tag> <fact>" lines, then DONE.

sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }
dmesg_f2fs() { dmesg | grep -i f2fs | grep -v 'Checking entire write pointers' |
	grep -v 'Valid blocks are not aligned with write pointer' |
	grep -Ei 'error|inconsistent|write pointer|fail|corrupt' ; }
sbv() { dump.f2fs -d 1 "${2:-/dev/vda}" 2>/dev/null | sed -n "s/^$1 .*: \([0-9]*\)\]\$/\1/p"; }
refv() {
	grep -v -e 'CKPT version' -e 'Free space' -e 'Done:' -e 'Max image size' \
		-e 'checkpoint state' -e 'free segment_count' -e 'Info:' "$1" |
		sed 's/ *\[0x[0-9a-f]*\]$//'
}

head -c 1048576 /dev/urandom >/tmp/seed
if ! mkfs.f2fs -f -m -c /dev/nvme0n1 /dev/vda >/tmp/mkfs.out 2>&1; then
	echo "mkfs failed"; cat /tmp/mkfs.out; echo DONE; exit 0
fi
echo "mkfs ok"
mount -t f2fs /dev/vda /mnt || { echo "age mount failed"; echo DONE; exit 0; }
for k in gc_min_sleep_time gc_max_sleep_time gc_no_gc_sleep_time; do
	echo 3600000 >/sys/fs/f2fs/vda/$k 2>/dev/null
done
# (6.11+: no background cleaning of zoned sections above 0% free)
{ echo 0 >/sys/fs/f2fs/vda/gc_boost_zoned_gc_percent; } 2>/dev/null
{ echo 0 >/sys/fs/f2fs/vda/gc_no_zoned_gc_percent; } 2>/dev/null
# a first batch (most of it deleted: free sections low in the main
# area), then a second one above it: what a shrink moves down
i=0
while [ $i -lt 120 ]; do
	{ echo "age $i"; cat /tmp/seed; head -c $((i * 9173 % 700000)) /tmp/seed; } >/mnt/f$i || break
	i=$((i + 1))
done
sync
i=120
while [ $i -lt 150 ]; do
	{ echo "age $i"; cat /tmp/seed; head -c $((i * 7919 % 900000)) /tmp/seed; } >/mnt/f$i || break
	i=$((i + 1))
done
i=0
while [ $i -lt 120 ]; do [ $((i % 10)) = 0 ] || rm -f /mnt/f$i; i=$((i + 1)); done
sync
sums /mnt >/tmp/sums
echo "age files $(wc -l </tmp/sums)"
umount /mnt && echo "age umount ok"
our-fsck.f2fs -f -n /dev/vda >/tmp/fsck0 2>&1; echo "fsck0 exit $?"
fsck.f2fs --dry-run /dev/vda </dev/null >/tmp/ref0 2>&1; echo "ref0 exit $?"

vda=64	# MiB: the metadata disk (zoned.bats)
old=$(sbv segment_count_main)
echo "old main $old vda $vda"
# the smallest namespace size (MiB, whole zones) whose plan moves blocks
mib=64 t=
while [ $mib -lt 512 ]; do
	t=$(((vda + mib) * 2048))
	if resize.f2fs -n -t $t /dev/vda >/tmp/rsn 2>&1 && grep -q 'blocks to move' /tmp/rsn; then
		break
	fi
	echo "tried $mib: $(tail -n 1 /tmp/rsn)"
	mib=$((mib + 16))
done
# room for the kernel's writes after: the largest of up to 64 MiB more
# whose plan still moves blocks
for extra in 64 48 32 16; do
	if resize.f2fs -n -t $(((vda + mib + extra) * 2048)) /dev/vda >/tmp/rsn2 2>&1 &&
	   grep -q 'blocks to move' /tmp/rsn2; then
		mib=$((mib + extra)); t=$(((vda + mib) * 2048)); mv /tmp/rsn2 /tmp/rsn
		break
	fi
done
echo "target $mib $t"
sed 's/^/resizen /' /tmp/rsn
resize.f2fs -t $t /dev/vda >/tmp/rs 2>&1; echo "resize exit $?"
sed 's/^/resize /' /tmp/rs
new=$(sbv segment_count_main)
echo "new main $new"
# growing it back (the default target: the namespace whole) is refused
resize.f2fs -n /dev/vda >/tmp/rsg 2>&1; echo "grow exit $?"
sed 's/^/grow /' /tmp/rsg
# the cut zones, past the new end on the namespace, read as zeros
a=$(dd if=/dev/nvme0n1 bs=1M skip=$mib 2>/dev/null | md5sum | cut -d' ' -f1)
b=$(dd if=/dev/zero bs=1M count=$((512 - mib)) 2>/dev/null | md5sum | cut -d' ' -f1)
if [ "$a" = "$b" ]; then echo "cut zones zero"; else echo "cut zones written"; fi
our-fsck.f2fs -f -n /dev/vda >/tmp/fsck1 2>&1; echo "fsck1 exit $?"; tail -n 3 /tmp/fsck1 | sed 's/^/fsck1 /'
fsck.f2fs --dry-run /dev/vda </dev/null >/tmp/ref1 2>&1; echo "ref1 exit $?"
refv /tmp/ref0 >/tmp/r0
refv /tmp/ref1 >/tmp/r1
if cmp -s /tmp/r0 /tmp/r1; then echo "ref same verdict"; else echo "ref verdict differs"; diff /tmp/r0 /tmp/r1 | head -n 20; fi

dmesg -c >/dev/null
if ! mount -t f2fs /dev/vda /mnt; then echo "mount failed"; dmesg | tail -n 20; echo DONE; exit 0; fi
echo "mount ok"
sums /mnt >/tmp/now
if cmp -s /tmp/sums /tmp/now; then echo "md5 same"; else echo "md5 differ"; diff /tmp/sums /tmp/now | head -n 10; fi
i=0
while [ $i -lt 16 ]; do
	{ echo "new $i"; cat /tmp/seed; } >"/mnt/new-$i" || echo "write $i failed"
	i=$((i + 1))
done
sync
(cd /mnt && md5sum new-*) >/tmp/new
df -k /mnt | tail -n 1 | sed 's/^/df /'
if umount /mnt; then echo "umount ok"; else echo "umount failed"; fi
if mount -t f2fs -o ro /dev/vda /mnt; then
	if (cd /mnt && md5sum -c /tmp/new >/dev/null 2>&1); then echo "reread ok"; else echo "reread differ"; fi
	umount /mnt
fi
echo "dmesg: $(dmesg_f2fs | wc -l) f2fs errors"
echo "write pointer notices: $(dmesg | grep -i 'write pointer' | grep -vc 'Checking entire write pointers')"
dmesg_f2fs | head -n 5
our-fsck.f2fs -f -n /dev/vda >/tmp/fsck2 2>&1; echo "fsck2 exit $?"; tail -n 3 /tmp/fsck2 | sed 's/^/fsck2 /'

# md_check TAG: mount the two-device volume, md5s against /tmp/msums,
# write 8 new files, remount read-only and reread them (kept in the tree)
md_check() {
	local tag=$1 i
	if ! mount -t f2fs /dev/vdb /mnt; then echo "md $tag mount failed"; dmesg | tail -n 10; return; fi
	sums /mnt >/tmp/mnow
	if cmp -s /tmp/msums /tmp/mnow; then echo "md $tag md5 same"; else echo "md $tag md5 differ"; fi
	i=0
	while [ $i -lt 8 ]; do
		{ echo "$tag $i"; cat /tmp/seed; } >"/mnt/new-$tag-$i" || echo "md $tag write $i failed"
		i=$((i + 1))
	done
	sync
	(cd /mnt && md5sum new-$tag-*) >/tmp/mnew
	umount /mnt || { echo "md $tag umount failed"; return; }
	mount -t f2fs -o ro /dev/vdb /mnt || { echo "md $tag remount failed"; return; }
	if (cd /mnt && md5sum -c /tmp/mnew >/dev/null 2>&1); then echo "md $tag reread ok"; else echo "md $tag reread differ"; fi
	sums /mnt >/tmp/msums
	umount /mnt
}
dmesg -c >/dev/null
if mkfs.f2fs -f -c /dev/vdc /dev/vdb >/tmp/mkfs.out 2>&1 && mount -t f2fs /dev/vdb /mnt; then
	i=0
	while [ $i -lt 30 ]; do
		{ echo "md $i"; cat /tmp/seed; head -c $((i * 7919 % 500000)) /tmp/seed; } >/mnt/m$i || break
		i=$((i + 1))
	done
	sync
	sums /mnt >/tmp/msums
	umount /mnt && echo "md made"
fi
echo "md main $(sbv segment_count_main /dev/vdb)"
resize.f2fs -t $(((128 + 64) * 2048)) /dev/vdb >/tmp/mrs 2>&1; echo "md shrink exit $?"
sed 's/^/md shrink /' /tmp/mrs
echo "md shrunk main $(sbv segment_count_main /dev/vdb)"
md_check shrunk
resize.f2fs /dev/vdb >/tmp/mrs 2>&1; echo "md grow exit $?"
sed 's/^/md grow /' /tmp/mrs
echo "md grown main $(sbv segment_count_main /dev/vdb)"
md_check grown
our-fsck.f2fs -f -n /dev/vdb >/tmp/mfsck 2>&1; echo "md fsck exit $?"; tail -n 2 /tmp/mfsck | sed 's/^/md fsck /'
fsck.f2fs --dry-run /dev/vdb </dev/null >/tmp/mref 2>&1; echo "md ref exit $?"
grep -i 'fail\|error' /tmp/mref | head -n 5 | sed 's/^/md ref /'
echo "md dmesg: $(dmesg_f2fs | wc -l) f2fs errors"
echo DONE
