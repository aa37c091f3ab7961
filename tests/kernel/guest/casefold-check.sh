# SPDX-License-Identifier: GPL-2.0-or-later
# casefold-check.sh - guest side of tests/kernel/casefold.bats.
# /guest/disks: "NAME DEV MODE" lines; MODE is
#   create  mkdir /cf with +F, create every name of /guest/create (one a
#           line, raw bytes), remount, then probe
#   probe   only probe (the image was made on the host)
# Probing: for every line of /guest/probe (a path under the mount, raw
# bytes), drop the dentry cache (a cached dentry of a casefolded
# directory matches every spelling of its name without reading the
# disk), then stat it.  Output lines (names in lowercase hex):
#   NAME create HEX RC          the create's exit status
#   NAME entry HEX INO          readdir of /cf after the remount
#   NAME probe HEX INO|none     stat of the probe
#   NAME mount-failed | NAME done
hex() { printf %s "$1" | od -An -tx1 | tr -d ' \n'; }
while read -r name dev mode; do
	if ! mount -t f2fs "/dev/$dev" /mnt; then
		echo "$name mount-failed"
		continue
	fi
	if [ "$mode" = create ]; then
		mkdir /mnt/cf && chattr +F /mnt/cf
		echo "$name chattr $?"
		while IFS= read -r n; do
			touch "/mnt/cf/$n" 2>/dev/null
			echo "$name create $(hex "$n") $?"
		done </guest/create
		umount /mnt
		mount -t f2fs "/dev/$dev" /mnt || { echo "$name remount-failed"; continue; }
		for f in /mnt/cf/* /mnt/cf/.[!.]*; do
			[ -e "$f" ] || continue
			n=${f#/mnt/cf/}
			echo "$name entry $(hex "$n") $(stat -c %i "$f" 2>/dev/null || echo none)"
		done
		umount /mnt
		mount -t f2fs "/dev/$dev" /mnt || { echo "$name remount-failed"; continue; }
	fi
	while IFS= read -r p; do
		echo 2 >/proc/sys/vm/drop_caches
		echo "$name probe $(hex "$p") $(stat -c %i "/mnt/$p" 2>/dev/null || echo none)"
	done </guest/probe
	umount /mnt
	echo "$name done"
done </guest/disks
