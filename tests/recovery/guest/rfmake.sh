# SPDX-License-Identifier: GPL-2.0-or-later
# rfmake.sh - the make boot of the roll-forward campaign (busybox sh in
# the guest).  /guest/plan has one line "SEED full|-" per virtio disk
# (vda.. in order, made by the reference mkfs on the host).  Every disk
# gets rfwork's general phase, one sync checkpoints them all, then every
# disk gets its fsync phase, and the guest reboots at once through sysrq
# (qemu -no-reboot exits): a power cut with every chain in place.
letters=abcdefghijklmnopqrstuvwxyz
i=1
while read -r seed full; do
	d=vd$(echo $letters | cut -c$i)
	mkdir -p /mnt/$d
	mount -t f2fs -o background_gc=off /dev/$d /mnt/$d || { echo "F2RF-FAIL mount $seed"; exit 1; }
	# no periodic checkpoint while the workloads run
	echo 100000 >/sys/fs/f2fs/$d/cp_interval 2>/dev/null
	rfwork "$seed" /mnt/$d general "$full" || echo "F2RF-FAIL general $seed"
	i=$((i + 1))
done </guest/plan
sync
i=1
while read -r seed full; do
	d=vd$(echo $letters | cut -c$i)
	rfwork "$seed" /mnt/$d fsync || echo "F2RF-FAIL fsync $seed"
	i=$((i + 1))
done </guest/plan
echo F2RF-CUT
sleep 1
echo 1 >/proc/sys/kernel/sysrq
echo b >/proc/sysrq-trigger
sleep 10
echo "F2RF-FAIL the guest did not reboot"
