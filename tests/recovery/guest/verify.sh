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
# list TAG SCENARIO DIR: one line per path under DIR.  A handful of
# processes per tree, not per file: every fork is slow under TCG (a
# process per file made the 500-file scenario take minutes).
list() {
	local t=/tmp/list
	(cd "$3" || exit 1
	find . -mindepth 1 | sort >$t.all
	find . -type f | sort >$t.reg
	: >$t.md5; : >$t.attr; : >$t.xattr; : >$t.stat
	if [ -s $t.reg ]; then
		xargs md5sum <$t.reg >$t.md5
		xargs lsattr -d <$t.reg >$t.attr 2>/dev/null
		xargs getfattr -d -m user <$t.reg >$t.xattr 2>/dev/null
	fi
	[ -s $t.all ] && xargs stat -c '%F|%n|%i|%s|%h' <$t.all >$t.stat
	awk -v tag="$1" -v s="$2" '
	FILENAME ~ /md5$/ { p = $0; sub(/^[0-9a-f]*  /, "", p); md5[p] = $1; next }
	FILENAME ~ /attr$/ && FILENAME !~ /xattr$/ { p = $0; sub(/^[^ ]* /, "", p); fl[p] = $1; next }
	FILENAME ~ /xattr$/ {
		if ($0 ~ /^# file: /) { cur = "./" substr($0, 9); next }
		if ($0 == "") next
		# insert in order: the comparison must not depend on list order
		n = split(xa[cur], v, "\n"); out = ""; done = 0
		for (i = 1; i <= n; i++) {
			if (v[i] == "") continue
			if (!done && $0 < v[i]) { out = out $0 "\n"; done = 1 }
			out = out v[i] "\n"
		}
		if (!done) out = out $0 "\n"
		xa[cur] = out; next
	}
	{
		split($0, f, "|")
		if (f[1] == "directory")
			print tag, s, "dir", f[2], "ino=" f[3], "links=" f[5]
		else if (f[1] ~ /regular/) {
			x = xa[f[2]]; gsub(/\n/, " ", x)
			print tag, s, md5[f[2]], f[2], "ino=" f[3], "size=" f[4], "links=" f[5], "flags=" fl[f[2]], x
		} else
			print tag, s, "other", f[2], "ino=" f[3], "type=" f[1]
	}' $t.md5 $t.attr $t.xattr $t.stat)
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
