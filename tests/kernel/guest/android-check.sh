# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/kernel/android.bats (busybox sh).  /dev/vda holds
# the Android images one after another; /guest/vols has "ID OFFSET KIND"
# lines, KIND one of rw (write, remount), released (sload -r on a
# read-write volume: appends to compressed files must fail) or ro (the
# ro feature: mounts read-only only).  For each: a loop device at the
# offset, the kernel's manifest between "ID MANIFEST-BEGIN/END", the
# inode flags of the text files ("ID flags FLAGS PATH", lsattr), then
# what KIND asks; "ID <fact>" lines, DONE at the end.
PATH=/bin:$PATH

while read -r id off kind; do
	losetup -o "$off" /dev/loop0 /dev/vda || { echo "$id losetup failed"; continue; }
	dmesg -c >/dev/null
	opt=rw
	[ "$kind" = ro ] && opt=ro
	if mount -t f2fs -o "$opt" /dev/loop0 /mnt; then
		echo "$id mount $opt ok"
		echo "$id MANIFEST-BEGIN"
		sh /guest/manifest.sh /mnt
		echo "$id MANIFEST-END"
		(cd /mnt && find ./etc -type f | sort) | while read -r f; do
			echo "$id flags $(lsattr "/mnt/$f" 2>/dev/null | cut -d' ' -f1) $f"
		done
		case $kind in
		rw)
			if dd if=/dev/urandom of=/mnt/new.bin bs=4096 count=64 2>/dev/null &&
				echo appended >>/mnt/etc/big.txt && sync; then
				echo "$id wrote"
			fi
			(cd /mnt && md5sum new.bin etc/big.txt) >/tmp/sums
			umount /mnt && echo "$id umount ok"
			if mount -t f2fs /dev/loop0 /mnt; then
				(cd /mnt && md5sum new.bin etc/big.txt) | cmp -s - /tmp/sums &&
					echo "$id md5 match"
				umount /mnt && echo "$id umount2 ok"
			fi
			;;
		released)
			if echo x 2>/dev/null >>/mnt/etc/big.txt; then
				echo "$id append allowed"
			else
				echo "$id append refused"
			fi
			umount /mnt && echo "$id umount ok"
			;;
		ro)
			umount /mnt && echo "$id umount ok"
			# (busybox mount retries read-only when refused: read /proc/mounts)
			if mount -t f2fs /dev/loop0 /mnt 2>/dev/null; then
				grep ' /mnt ' /proc/mounts | grep -q ' rw[ ,]' &&
					echo "$id rw mount allowed"
				umount /mnt
			fi
			;;
		esac
	else
		echo "$id mount $opt failed"
	fi
	losetup -d /dev/loop0
	dmesg -c | grep -Ei 'f2fs|i/o error' | sed "s/^/$id dmesg /"
done </guest/vols
echo DONE
