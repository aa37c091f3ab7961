# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of bench/gc-aged.sh (busybox sh): mount /dev/vda, the
# driver's f2fs statistics, /bin/gcioctl's foreground cleaning calls
# (count in /guest/calls), the statistics again, unmount (the checkpoint
# that frees what the calls emptied).  With /guest/fill (MiB), only write
# a file of that size, sync and unmount: the volume to clean gets fuller.
# Prints "kgc ..." lines, then DONE.
mount -t f2fs /dev/vda /mnt || { echo "kgc mount failed"; echo DONE; exit 1; }
if [ -s /guest/fill ]; then
	dd if=/dev/urandom of=/mnt/kgc-fill bs=1M count="$(cat /guest/fill)" 2>/dev/null ||
		echo "kgc fill failed"
	sync
	umount /mnt && echo "kgc umount ok"
	echo DONE
	exit 0
fi
mount -t debugfs none /sys/kernel/debug 2>/dev/null
stat() { grep -E 'GC calls|data segments|node segments|data blocks|node blocks' \
	/sys/kernel/debug/f2fs/status 2>/dev/null | sed "s/^/kgc $1 /"; }
stat before
/bin/gcioctl /mnt "$(cat /guest/calls)" | sed 's/^/kgc /'
stat after
umount /mnt && echo "kgc umount ok"
echo DONE
