# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/zoned.bats (busybox sh).  Two zoned NVMe
# namespaces (nvme0n1: capacity = zone size; nvme0n2: capacity below the
# zone size) and two regular virtio disks (vda, vdb) for their metadata;
# then a null_blk host-managed device with conventional zones, alone.
# Staged: our mkfs.f2fs, the reference as ref-mkfs.f2fs and fsck.f2fs,
# and f2sb.  Prints "<tag> <fact>" lines, superblock dumps between
# "<tag> SB-BEGIN" and "<tag> SB-END", then DONE.
. /guest/lib.sh

# wait up to 20 s for the second namespace (init waits for the first)
i=0
while [ $i -lt 200 ] && [ ! -b /dev/nvme0n2 ]; do
	sleep 0.1
	i=$((i + 1))
done
for ns in nvme0n1 nvme0n2; do
	q=/sys/block/$ns/queue
	echo "$ns queue $(cat $q/zoned 2>/dev/null) $(cat $q/chunk_sectors 2>/dev/null)" \
		"$(cat $q/nr_zones 2>/dev/null)"
done

# refuse TAG CMD...: the command must fail; print its verdict and message
refuse() {
	local tag=$1
	shift
	if "$@" >/tmp/out 2>&1; then
		echo "$tag accepted"
	else
		echo "$tag refused: $(grep -v '^$' /tmp/out | tail -n 2 | tr '\n' ' ')"
	fi
}
refuse refuse-no-m mkfs.f2fs -f -c /dev/nvme0n1 /dev/vda
refuse ref-refuse-no-m ref-mkfs.f2fs -f -c /dev/nvme0n1 /dev/vda
refuse refuse-single mkfs.f2fs -f /dev/nvme0n1
refuse ref-refuse-single ref-mkfs.f2fs -f /dev/nvme0n1
refuse refuse-no-conv mkfs.f2fs -f -m /dev/nvme0n1
refuse ref-refuse-no-conv ref-mkfs.f2fs -f -m /dev/nvme0n1
refuse refuse-not-zoned mkfs.f2fs -f -m /dev/vda
refuse refuse-nodiscard mkfs.f2fs -f -m -t 0 -c /dev/nvme0n1 /dev/vda

# sb TAG DEV: superblock and checkpoint fields of the volume whose first
# device is DEV
sb() {
	echo "$1 SB-BEGIN"
	f2sb --cp "/dev/$2" 2>&1 | sed "s/^/$1 /"
	echo "$1 SB-END"
}

# fsck TAG DEV: the reference checker (it only reads) on the volume of DEV
fsck() {
	fsck.f2fs --dry-run "/dev/$2" </dev/null >/tmp/fsck.out 2>&1
	echo "$1 fsck-status $?"
	echo "$1 FSCK-BEGIN"
	sed "s/^/$1 /" /tmp/fsck.out
	echo "$1 FSCK-END"
	# our verdict beside it (shown by the host when the reference objects)
	our-fsck.f2fs -f -n "/dev/$2" </dev/null >/tmp/ours.fsck 2>&1
	echo "$1 ours exit $?"
	sed "s/^/$1 ours /" /tmp/ours.fsck | tail -n 20
}

# use TAG DEV: mount, fill, unmount, remount, compare md5s, unmount
use() {
	local tag=$1 r=$2
	mount_dev "$tag" "$r" || return
	grep " /mnt " /proc/mounts | sed "s/^/$tag mounted /"
	write_files "$tag" fill
	echo "$tag df $(df -k /mnt | tail -n 1)"
	remount_check "$tag" "$r"
}

# volume TAG DEV0 REFVOL DEVICE-ARGS...: the reference's format (used by
# the kernel and checked too when REFVOL is 1), then ours: fresh check,
# use, check again.  DEV0 holds the superblock.
volume() {
	local tag=$1 r=$2 refvol=$3
	shift 3
	if ref-mkfs.f2fs -f -m "$@" >/tmp/ref.out 2>&1; then
		echo "$tag ref-mkfs ok"
		sb "$tag-ref" "$r"
		fsck "$tag-ref-fresh" "$r"
		if [ "$refvol" = 1 ]; then
			# a little use by the kernel, enough for it to write
			# its own checkpoint
			if mount -t f2fs "/dev/$r" /mnt; then
				mkdir /mnt/d && for f in 1 2 3 4 5 6 7 8; do
					head -c $((f * 5000)) /dev/urandom >/mnt/d/f$f
				done
				umount /mnt && echo "$tag-refvol used"
			fi
			fsck "$tag-refvol-used" "$r"
		fi
	else
		echo "$tag ref-mkfs failed: $(tail -n 3 /tmp/ref.out | tr '\n' ' ')"
	fi
	grep -i 'overprovision\|zone' /tmp/ref.out | sed "s/^/$tag ref-info /"
	if ! mkfs.f2fs -f -m "$@" >/tmp/ours.out 2>&1; then
		echo "$tag mkfs failed: $(tail -n 3 /tmp/ours.out | tr '\n' ' ')"
		return
	fi
	echo "$tag mkfs ok"
	sed "s/^/$tag info /" /tmp/ours.out
	sb "$tag-ours" "$r"
	fsck "$tag-fresh" "$r"
	use "$tag" "$r"
	fsck "$tag-used" "$r"
}

volume full vda 0 -c /dev/nvme0n1 /dev/vda
volume cap vdb 1 -c /dev/nvme0n2 /dev/vdb

# a single host-managed device whose first zones are conventional
# (null_blk: 64 zones of 64 MiB, 4 conventional, memory backed)
if insmod /guest/configfs.ko 2>/dev/null; [ -f /guest/null_blk.ko ] &&
   insmod /guest/null_blk.ko nr_devices=1 zoned=1 zone_size=64 zone_nr_conv=4 \
	memory_backed=1 gb=4 && [ -b /dev/nullb0 ]; then
	q=/sys/block/nullb0/queue
	echo "nullb0 queue $(cat $q/zoned) $(cat $q/chunk_sectors) $(cat $q/nr_zones)"
	volume single nullb0 0 /dev/nullb0
else
	echo "single null_blk unavailable"
fi
echo DONE
