#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/inject/kernel.bats - "fixed" means the kernel mounts it and reads
# every file: the volumes of fstests' inject.f2fs cases (fstests.bash),
# each with its fault planted by our inject.f2fs and repaired by our
# fsck -y, mount in one boot of each kernel series; every entry is there
# and every regular file reads back with the md5 of the tree it was made
# from (in f2fs/019 and 022 fsck puts back the node a bent pointer
# displaced), and our fsck finds it clean after the kernel's unmount.

load ../lib/common
load ../lib/kernel
load fstests

# Disk name of the i-th virtio disk (vda.. vdz, vdaa..).
vd_name() {
	local i=$1 l=abcdefghijklmnopqrstuvwxyz
	if [ "$i" -lt 26 ]; then echo "vd${l:$i:1}"; else echo "vd${l:$((i / 26 - 1)):1}${l:$((i % 26)):1}"; fi
}

@test "inject kernel: the repaired volumes of fstests' inject cases mount and read back" {
	kernel_require
	require_prog "$INJECT" "$MKFS" "$FSCK" "$DUMP"
	T=$BATS_TEST_TMPDIR
	local c i dev imgs=() cases=($FST_CASES) n
	for c in "${cases[@]}"; do
		fst_make "$c" "$T" || { echo "$c: not made"; return 1; }
		repaired "$T/$c.img" || { echo "in $c"; return 1; }
		imgs+=("$T/$c.img")
	done
	rc=0; kernel_run "$BATS_TEST_DIRNAME/guest/read-all.sh" "${imgs[@]}" || rc=$?
	kernel_output >"$T/out"
	cat "$T/out"
	[ "$rc" -eq 0 ] && grep -q '^DONE' "$T/out"
	for i in "${!cases[@]}"; do
		c=${cases[$i]} dev=$(vd_name "$i")
		grep -q "^$dev mount rc=0" "$T/out" ||
			{ echo "$c: no mount"; kernel_dmesg | grep -i f2fs | tail -n 5; return 1; }
		grep -q "^$dev umount rc=0" "$T/out" || { echo "$c: umount failed"; return 1; }
		n=$(cd "$T/$c.tree/" && find . | wc -l)
		grep -q "^$dev entries $n\$" "$T/out" || { echo "$c: want $n entries"; return 1; }
		(cd "$T/$c.tree/" && find . -type f -size -65536k -print0 | xargs -0 -r md5sum) |
			sed 's/^\([0-9a-f]*\)  /\1 /' | LC_ALL=C sort -k2 >"$T/want"
		# a file over 64 MiB by its last MiB (019's, with the data)
		(cd "$T/$c.tree/" && find . -type f -size +65535k) | while read -r f; do
			s=$(stat -c %s "$T/$c.tree/$f")
			t=$(dd if="$T/$c.tree/$f" bs=1M skip=$((s / 1048576 - 1)) count=1 status=none | md5sum)
			echo "${t%% *} $f"
		done >"$T/want.tail"
		sed -n "s/^$dev tail //p" "$T/out" | diff "$T/want.tail" - ||
			{ echo "$c: a large file's last MiB differs"; return 1; }
		# (busybox xargs runs md5sum on stdin when find names nothing)
		sed -n "/ -\$/d; s/^$dev md5 //p" "$T/out" | LC_ALL=C sort -k2 >"$T/got"
		diff "$T/want" "$T/got" || { echo "$c: contents differ"; return 1; }
		# (the reference's verdict on the repairs: inject.bats, once)
		"$FSCK" -f -n "${imgs[$i]}" >"$T/after" 2>&1 || { cat "$T/after"; echo "$c"; return 1; }
	done
}
