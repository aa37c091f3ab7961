# SPDX-License-Identifier: GPL-2.0-or-later
# rfverify.sh - the verify boot of the roll-forward campaign.  /guest/plan
# names one seed a line; disks vda.. are the power-cut images of those
# seeds (mounted normally: the driver rolls forward, tag A), then the
# copies our fsck -y recovered (mounted -o ro,norecovery: tag B; then
# mounted normally and unmounted: tag N, which must change nothing).
# Prints "TAG SEED TYPE PATH ino= mode= uid= gid= links= size= md5 xattrs"
# for every path, "TAG SEED end" after each listing, "TAG SEED mount-failed",
# and "K TAG SEED line" for every kernel message of that mount.
letters=abcdefghijklmnopqrstuvwxyz
list() {
	local t=/tmp/list
	(cd "$3" || exit 1
	find . -mindepth 1 | sort >$t.all
	find . -type f | sort >$t.reg
	: >$t.md5; : >$t.xattr; : >$t.stat
	if [ -s $t.reg ]; then
		xargs md5sum <$t.reg >$t.md5
		xargs getfattr -e hex -d -m '^user\.' <$t.reg >$t.xattr 2>/dev/null
	fi
	[ -s $t.all ] && xargs stat -c '%F|%n|%i|%a|%u|%g|%h|%s' <$t.all >$t.stat
	awk -v tag="$1" -v s="$2" '
	FILENAME ~ /md5$/ { p = $0; sub(/^[0-9a-f]*  /, "", p); md5[p] = $1; next }
	FILENAME ~ /xattr$/ {
		if ($0 ~ /^# file: /) { cur = "./" substr($0, 9); next }
		if ($0 == "") next
		# kept in name order: the listing order is no part of the result
		n = split(xa[cur], v, " "); out = ""; done = 0
		for (i = 1; i <= n; i++) {
			if (!done && $0 < v[i]) { out = out " " $0; done = 1 }
			out = out " " v[i]
		}
		if (!done) out = out " " $0
		xa[cur] = out; next
	}
	{
		split($0, f, "|")
		ty = f[1] == "directory" ? "dir" : f[1] ~ /regular/ ? "reg" : f[1]
		gsub(/ /, "_", ty)
		line = tag " " s " " ty " " f[2] " ino=" f[3] " mode=" f[4] " uid=" f[5] " gid=" f[6] \
			" links=" f[7]
		if (ty == "reg")
			line = line " size=" f[8] " md5=" md5[f[2]] xa[f[2]]
		print line
	}' $t.md5 $t.xattr $t.stat)
	echo "$1 $2 end"
}
# kmsg TAG SEED: the kernel messages since the last call
kmsg() { dmesg -c | sed "s/^/K $1 $2 /"; }
n=$(wc -l </guest/plan)
dmesg -c >/dev/null
i=1
while read -r seed; do
	a=vd$(echo $letters | cut -c$i)
	b=vd$(echo $letters | cut -c$((i + n)))
	mkdir -p /mnt/a /mnt/b
	if mount -t f2fs /dev/$a /mnt/a; then
		list A $seed /mnt/a; umount /mnt/a
	else
		echo "A $seed mount-failed"
	fi
	kmsg A $seed
	if mount -t f2fs -o ro,norecovery /dev/$b /mnt/b; then
		list B $seed /mnt/b; umount /mnt/b
	else
		echo "B $seed mount-failed"
	fi
	kmsg B $seed
	if mount -t f2fs /dev/$b /mnt/b; then
		umount /mnt/b && echo "N $seed end"
	else
		echo "N $seed mount-failed"
	fi
	kmsg N $seed
	i=$((i + 1))
done </guest/plan
