# SPDX-License-Identifier: GPL-2.0-or-later
# verify.sh - the verify boots of tests/recovery: disks vda.. are, per
# scenario in SCENARIOS order, the image as the power cut left it (mounted normally:
# the driver rolls forward, tag A), then the copy our fsck -y recovered
# (mounted -o ro,norecovery: tag B; then normally: tag N).  Prints
# "TAG scenario md5 path ino= size= links= flags= user-xattrs" for every regular
# file, "TAG scenario dir path ino= links=" for every directory, then
# "TAG scenario end".
# The scenarios of this boot: /guest/scenarios (one line).
SCENARIOS=$(cat /guest/scenarios)
letters=abcdefghijklmnopqrstuvwxyz
list() {
	(cd "$3" && find . -mindepth 1 | sort | while read -r f; do
		if [ -d "$f" ]; then
			echo "$1 $2 dir $f $(stat -c 'ino=%i links=%h' "$f")"
		elif [ -f "$f" ]; then
			xa=$(getfattr -d -m user "$f" 2>/dev/null | grep -v '^#' | grep . | sort | tr '\n' ' ')
			fl=$(lsattr -d "$f" 2>/dev/null | cut -d' ' -f1)
			echo "$1 $2 $(md5sum <"$f" | cut -d' ' -f1) $f $(stat -c 'ino=%i size=%s links=%h' "$f") flags=$fl $xa"
		else
			echo "$1 $2 other $f $(stat -c 'ino=%i type=%F' "$f")"
		fi
	done)
	echo "$1 $2 end"
}
n=$(echo $SCENARIOS | wc -w)
i=1
for s in $SCENARIOS; do
	a=vd$(echo $letters | cut -c$i)
	b=vd$(echo $letters | cut -c$((i + n)))
	mkdir -p /mnt/a$s /mnt/b$s
	if mount -t f2fs /dev/$a /mnt/a$s; then
		list A $s /mnt/a$s; umount /mnt/a$s
	else
		echo "A $s mount-failed"
	fi
	if mount -t f2fs -o ro,norecovery /dev/$b /mnt/b$s; then
		list B $s /mnt/b$s; umount /mnt/b$s
	else
		echo "B $s mount-failed"
	fi
	if mount -t f2fs /dev/$b /mnt/b$s; then
		list N $s /mnt/b$s; umount /mnt/b$s
	else
		echo "N $s mount-failed"
	fi
	i=$((i + 1))
done
