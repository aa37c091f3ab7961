#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel/mkfs.bats - the Linux 6.1 f2fs driver is the judge of the
# images our mkfs.f2fs writes.  One boot (setup_file) mounts every image,
# writes 1000 files in nested directories plus a file past the direct
# pointers, records md5s, unmounts, remounts and compares; a two-device
# volume is formatted inside the guest by our mkfs (the kernel opens the
# extra devices by the paths in the superblock); a zeroed superblock is
# the negative control.  The tests below read that boot's report, then
# run the reference fsck on the images the kernel wrote.

load ../lib/common
load ../lib/kernel

# name|size|mkfs options|features the kernel must report (may be empty)
IMAGES="
small|64M||
default|1G||
allfeat|1G|-O extra_attr,project_quota,inode_checksum,flexible_inline_xattr,quota,inode_crtime,lost_found,verity,sb_checksum,compression,encrypt|encryption,extra_attr,projquota,inode_checksum,flexible_inline_xattr,quota_ino,inode_crtime,lost_found,verity,sb_checksum,compression
casefold|1G|-O extra_attr,casefold -C utf8|extra_attr,casefold
bigsec|2G|-s 4 -z 2|
op10|1G|-o 10|
"

images() { printf '%s\n' "$IMAGES" | sed '/^$/d'; }

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	kernel_setup || return 0 # each test then skips or fails by itself
	local dir=$BATS_FILE_TMPDIR name size opts feat letters=abcdefghij i=0
	local -a disks=()
	require_prog "$MKFS" || return 1
	: >"$dir/disks"
	while IFS='|' read -r name size opts feat; do
		local img=$dir/$name.img
		truncate -s "$size" "$img"
		# shellcheck disable=SC2086 # the options are a word list
		"$MKFS" -q -f $opts "$img" >"$dir/$name.mkfs" 2>&1 ||
			echo "mkfs failed" >>"$dir/$name.mkfs"
		echo "$name vd${letters:$i:1} ${feat:--}" >>"$dir/disks"
		disks+=("$img")
		i=$((i + 1))
	done < <(images)
	# two blank devices for the multi-device volume, formatted in the guest
	truncate -s 512M "$dir/multi0.img" "$dir/multi1.img"
	disks+=("$dir/multi0.img" "$dir/multi1.img")
	echo "multi vd${letters:$i:1} vd${letters:$((i + 1)):1}" >"$dir/multi"
	i=$((i + 2))
	# negative control: a valid image whose both superblocks are zeroed
	truncate -s 256M "$dir/zeroed.img"
	"$MKFS" -q -f "$dir/zeroed.img" >/dev/null 2>&1
	dd if=/dev/zero of="$dir/zeroed.img" bs=4096 count=2 conv=notrunc 2>/dev/null
	disks+=("$dir/zeroed.img")
	echo "zeroed vd${letters:$i:1}" >"$dir/zeroed"

	kernel_add_binary "$MKFS" || return 1
	KERNEL_FILES="$dir/disks:/guest/disks $dir/multi:/guest/multi $dir/zeroed:/guest/zeroed $BATS_TEST_DIRNAME/guest/lib.sh:/guest/lib.sh" \
		KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=900 \
		kernel_run "$BATS_TEST_DIRNAME/guest/mkfs-check.sh" "${disks[@]}"
	echo $? >"$dir/run/status"
	cp "$KERNEL_OUT" "$dir/report"
	kernel_dmesg >"$dir/dmesg"
	echo "$KERNEL_WALL" >"$dir/wall"
}

# report_of NAME: the guest's lines for one image, without the prefix

setup() {
	kernel_require
	kernel_ran
}

@test "kernel: the guest ran the whole check script" {
	status=$(cat "$BATS_FILE_TMPDIR/run/status")
	echo "guest exit status $status; wall $(cat "$BATS_FILE_TMPDIR/wall") s"
	grep -q '^DONE$' "$BATS_FILE_TMPDIR/report"
	[ "$status" -eq 0 ]
}

@test "kernel: no f2fs errors in dmesg" {
	! grep -Ei 'f2fs.*(error|corrupt|inconsistent|bad |invalid|fsck)' "$BATS_FILE_TMPDIR/dmesg" || false
}

check_image() {
	local name=$1 feat
	feat=$(awk -v n="$name" '$1 == n { print $3 }' "$BATS_FILE_TMPDIR/disks")
	if grep -q "mkfs failed" "$BATS_FILE_TMPDIR/$name.mkfs"; then
		cat "$BATS_FILE_TMPDIR/$name.mkfs"
		return 1
	fi
	expect_report "$name" "mount ok" "wrote 1001 files" "umount ok" \
		"remount ok" "md5 match" "umount2 ok"
	if [ -n "$feat" ] && [ "$feat" != - ]; then
		local f kf
		kf=$(report_of "$name" | sed -n 's/^features //p')
		for f in ${feat//,/ }; do
			case ", $kf," in
			*", $f,"*) ;;
			*) echo "kernel features of $name lack $f: $kf"; return 1 ;;
			esac
		done
	fi
	ref_fsck_clean "$BATS_FILE_TMPDIR/$name.img"
}

@test "kernel: 64 MiB image" { check_image small; }
@test "kernel: 1 GiB default image" { check_image default; }
@test "kernel: 1 GiB image with every feature" { check_image allfeat; }
@test "kernel: casefold -C utf8 image" { check_image casefold; }
@test "kernel: -s 4 -z 2 image" { check_image bigsec; }
@test "kernel: -o 10 image" { check_image op10; }

@test "kernel: two-device volume formatted with -c in the guest" {
	expect_report multi "mkfs ok" "mount ok" "wrote 1001 files" "umount ok" \
		"remount ok" "md5 match" "umount2 ok"
	# the volume spans both devices: the kernel counts them
	expect_report multi "devices 2"
}

@test "kernel: a zeroed superblock is refused (negative control)" {
	expect_report zeroed "mount refused"
}
