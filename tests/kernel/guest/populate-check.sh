# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/populate.bats (busybox sh).  /guest/disks
# holds "name vdX manifest|-" lines for images populated on the host.
# For each: mount, print (if asked) the kernel's view of the tree as a
# manifest between
# "<name> MANIFEST-BEGIN/END" lines (/guest/manifest.sh), write more files,
# unmount, remount, check their md5s, unmount ("released": print the
# manifest, try to append to a compressed file, unmount).  Prints
# "<name> <fact>" lines, then DONE.
PATH=/bin:$PATH
. /guest/lib.sh

more() {
	local d f
	for d in 0 1 2 3 4; do
		mkdir -p "$1/more/d$d" || return 1
		for f in 0 1 2 3 4 5 6 7 8 9; do
			head -c $(( (d * 10 + f) * 997 )) /dev/urandom >"$1/more/d$d/f$f" || return 1
		done
	done
	dd if=/dev/urandom of="$1/more/big" bs=1M count=5 2>/dev/null || return 1
	# and change what populate wrote: append, remove, rename, link
	echo appended >>"$1/sizes/f4096" && rm -f "$1/links/h2" &&
		mv "$1/deep/a/b" "$1/deep/moved" && ln "$1/sizes/f1" "$1/more/f1.link" &&
		echo more
}

while read -r name dev want; do
	if [ "$want" = ro ]; then
		# a read-only volume (feature ro): Linux mounts it only so
		if mount -t f2fs -o ro "/dev/$dev" /mnt; then
			echo "$name mount ro ok"
			echo "$name MANIFEST-BEGIN"
			EXCLUDE=./dind_probe sh /guest/manifest.sh /mnt
			echo "$name MANIFEST-END"
			umount /mnt && echo "$name umount ok"
		else
			echo "$name mount ro failed"
		fi
		# (busybox mount retries read-only when refused: read /proc/mounts)
		if mount -t f2fs "/dev/$dev" /mnt 2>/dev/null; then
			grep ' /mnt ' /proc/mounts | grep -q ' rw[ ,]' && echo "$name rw mount allowed"
			umount /mnt
		fi
		continue
	fi
	mount_dev "$name" "$dev" || continue
	if [ "$want" = released ]; then
		# compressed files whose reserved blocks were released (sload -r)
		echo "$name MANIFEST-BEGIN"
		EXCLUDE=./dind_probe sh /guest/manifest.sh /mnt
		echo "$name MANIFEST-END"
		if echo x 2>/dev/null >>/mnt/text/big; then
			echo "$name append allowed"
		else
			echo "$name append refused"
		fi
		umount /mnt && echo "$name umount ok"
		continue
	fi
	if [ "$want" = manifest ]; then
		echo "$name MANIFEST-BEGIN"
		EXCLUDE=./dind_probe sh /guest/manifest.sh /mnt
		echo "$name MANIFEST-END"
	fi
	# one block past the double-indirect boundary: size in blocks, md5
	echo "$name dind $(($(stat -c %s /mnt/dind_probe) / 4096))" \
		"$(dd if=/mnt/dind_probe bs=4096 skip=$((923 + 2036 + 2*1018*1018 + 3)) count=1 \
		   2>/dev/null | md5sum | cut -c1-32)"
	write_files "$name" more
	remount_check "$name" "$dev" more sizes
done </guest/disks
echo DONE
