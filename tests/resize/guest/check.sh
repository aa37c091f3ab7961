# SPDX-License-Identifier: GPL-2.0-or-later
# Guest side of tests/resize/kernel.bats (busybox sh).  Reads /guest/disks
# ("name vdX" lines: images resized by resize.f2fs).  For each: mount,
# print the raw facts of the tree (the fixture guest's record(): stat,
# md5, link targets, xattrs, count), write new files until the volume is
# nearly full (so the grown volumes write into the added segments), note
# the free space, unmount, remount read-only and read the new files back.
# A new file is a line naming it, then /guest/rand (4 MiB the host made
# random: /dev/urandom and a second md5 pass cost minutes under TCG); the
# host knows what each must hold.
# Prints "<name> <fact>" lines, then DONE.

record() {
	local name=$1
	(
		cd /mnt || exit 1
		find . -exec stat -c '%f %u %g %s %h %t %T %a %n' {} + | sed "s/^/$name stat /"
		find . -type f -size -1000000000c -exec md5sum {} + | sed "s/^/$name md5 /"
		find . -type l | while IFS= read -r p; do
			printf '%s link %s\t%s\n' "$name" "$p" "$(readlink "$p")"
		done
		find . -exec getfattr -h -d -m - -e hex {} + 2>/dev/null | sed "s/^/$name xattr /"
		echo "$name count $(find . | wc -l)"
	)
}

check() {
	local name=$1 dev=$2 i avail mb
	if ! mount -t f2fs "/dev/$dev" /mnt; then
		echo "$name mount failed"
		return
	fi
	echo "$name mount ok"
	record "$name"
	avail=$(df -k /mnt | awk 'NR == 2 { print $4 }')
	echo "$name avail $avail"
	mkdir /mnt/new || echo "$name mkdir failed"
	# 4 MiB files up to 90% of what is free, at most 700 MiB (TCG is slow)
	mb=$((avail * 9 / 10 / 1024 / 4))
	[ $mb -le 175 ] || mb=175
	i=0
	while [ $i -lt $mb ]; do
		{ echo "$name f$i"; cat /guest/rand; } >"/mnt/new/f$i" 2>/dev/null ||
			{ echo "$name write f$i failed"; break; }
		i=$((i + 1))
	done
	sync
	echo "$name files $i"
	if umount /mnt; then echo "$name umount ok"; else echo "$name umount failed"; return; fi
	if ! mount -t f2fs -o ro "/dev/$dev" /mnt; then
		echo "$name remount failed"
		return
	fi
	(cd /mnt && md5sum new/*) | sed "s/^/$name reread /"
	umount /mnt && echo "$name final umount ok"
}

while read -r name dev; do
	check "$name" "$dev"
done </guest/disks
echo DONE
