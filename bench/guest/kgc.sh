# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of bench/gc-aged.sh (busybox sh): mount /dev/vda, the
# driver's f2fs statistics, /bin/gcioctl's foreground cleaning calls
# (count in /guest/calls), the statistics again, unmount (the checkpoint
# that frees what the calls emptied).  Prints "kgc ..." lines, then DONE.
mount -t f2fs /dev/vda /mnt || { echo "kgc mount failed"; echo DONE; exit 1; }
mount -t debugfs none /sys/kernel/debug 2>/dev/null
stat() { grep -E 'GC calls|data segments|node segments|data blocks|node blocks' \
	/sys/kernel/debug/f2fs/status 2>/dev/null | sed "s/^/kgc $1 /"; }
stat before
/bin/gcioctl /mnt "$(cat /guest/calls)" | sed 's/^/kgc /'
stat after
umount /mnt && echo "kgc umount ok"
echo DONE
