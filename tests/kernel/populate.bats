#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel/populate.bats - the Linux 6.1 f2fs driver reads images
# populated by our engine (f2fs-populate): one boot mounts each image,
# prints the tree as it sees it (tests/engine/manifest.sh: types, modes,
# owners, link counts, sizes, md5s, symlink targets, devices, xattrs and
# security.selinux labels), writes and changes files, unmounts, remounts
# and checks them.  The host compares the kernel's manifest with the one
# of the source tree (or, with SELinux labels, with what the read path
# extracts), and the reference fsck judges the images the kernel wrote.
# A third image (-s 4 -z 2) is only written to by the kernel (its tree is
# compared on the host in tests/engine/populate.bats).  A fourth is made
# as Android's build makes a system image: mkfs.f2fs -g android, then
# sload.f2fs with a canned fs_config, file_contexts and -t /system.
# Three more are loaded with compression: sload.f2fs -c -a lz4 (written
# to by the kernel like the others), sload.f2fs -c -a zstd -r and
# -c -a lzo-rle -r (released blocks: the kernel reads them and refuses
# writes to their files).

load ../lib/common
load ../lib/kernel

POP=$POPULATE
FEAT=extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	kernel_setup || return 0 # each test then skips or fails by itself
	local dir=$BATS_FILE_TMPDIR
	require_prog "$MKFS" "$POP" || return 1
	MKTREE_NO_DIND=1 "$F2_TOP/tests/engine/mktree.sh" "$dir/tree" 400 || return 1
	# one block past the double-indirect boundary, read alone in the guest
	# (a whole-file md5 of 8 GiB is too slow under TCG)
	truncate -s $(( (923 + 2036 + 2*1018*1018 + 7) * 4096 )) "$dir/tree/dind_probe"
	printf 'past the double-indirect boundary' |
		dd of="$dir/tree/dind_probe" bs=4096 seek=$((923 + 2036 + 2*1018*1018 + 3)) \
		   conv=notrunc status=none
	dd if="$dir/tree/dind_probe" bs=4096 skip=$((923 + 2036 + 2*1018*1018 + 3)) count=1 \
	   status=none | md5sum | cut -c1-32 >"$dir/dind.md5"
	EXCLUDE=./dind_probe "$F2_TOP/tests/engine/manifest.py" "$dir/tree" >"$dir/tree.manifest"
	# the compressed images: the tree and files that compress (text of
	# 1, 3, 4, 5 and 1000 blocks, a partial last cluster, a sparse one)
	cp -a --sparse=always "$dir/tree" "$dir/ctree" || return 1
	mkdir "$dir/ctree/text" || return 1
	seq -f 'line %g of text that compresses' 1 150000 >"$dir/ctree/text/big" || return 1
	local n
	for n in 1 3 4 5 1000; do
		head -c $((n * 4096)) "$dir/ctree/text/big" >"$dir/ctree/text/b$n" || return 1
	done
	head -c $((9 * 4096 + 100)) "$dir/ctree/text/big" >"$dir/ctree/text/partial"
	head -c 20000 "$dir/ctree/text/big" | dd of="$dir/ctree/text/sparse" bs=1 seek=41060 \
		conv=notrunc status=none
	truncate -s 10M "$dir/ctree/text/sparse"
	EXCLUDE=./dind_probe "$F2_TOP/tests/engine/manifest.py" "$dir/ctree" >"$dir/ctree.manifest"
	cat >"$dir/file_contexts" <<-'FC'
	/(/.*)?			u:object_r:root_file:s0
	/sizes(/.*)?		u:object_r:sizes_file:s0
	/special/null		u:object_r:null_device:s0
	FC
	cat >"$dir/fc_system" <<-'FC'
	/system(/.*)?		u:object_r:system_file:s0
	/system/sizes(/.*)?	u:object_r:sizes_file:s0
	FC
	# the root, a directory, files with and without capabilities
	cat >"$dir/fs_config" <<-'CFG'
	system 0 0 0751
	system/sizes 1000 1000 0750
	system/sizes/f1 0 2000 0750 capabilities=0x1000000400
	system/sizes/f4096 1013 1005 0640
	system/links/short 7 8 0777
	CFG
	truncate -s 1G "$dir/plain.img" "$dir/labels.img" "$dir/android.img" "$dir/ro.img" \
		"$dir/compress.img" "$dir/released.img" "$dir/lzorle.img"
	truncate -s 2G "$dir/bigsec.img"
	{
		"$MKFS" -q -f "$dir/plain.img" &&
		"$POP" -q --root "$dir/tree" -T 1700000000 "$dir/plain.img" &&
		"$MKFS" -q -f -O "$FEAT" "$dir/labels.img" &&
		"$POP" -q --root "$dir/tree" --file-contexts "$dir/file_contexts" "$dir/labels.img" &&
		"$MKFS" -q -f -s 4 -z 2 "$dir/bigsec.img" &&
		"$POP" -q --root "$dir/tree" "$dir/bigsec.img" &&
		"$MKFS" -q -f -g android -O "$FEAT" "$dir/android.img" &&
		"$SLOAD" -q -f "$dir/tree" -t /system -C "$dir/fs_config" -s "$dir/fc_system" \
			-T 1700000000 "$dir/android.img" >"$dir/sload.out" &&
		"$MKFS" -q -f -O ro "$dir/ro.img" &&
		"$SLOAD" -q -P -f "$dir/tree" -s "$dir/file_contexts" "$dir/ro.img" >/dev/null &&
		"$MKFS" -q -f -O "$FEAT,compression" "$dir/compress.img" &&
		"$SLOAD" -q -P -c -a lz4 -f "$dir/ctree" "$dir/compress.img" >/dev/null &&
		"$MKFS" -q -f -O "$FEAT,compression" "$dir/released.img" &&
		"$SLOAD" -q -P -c -a zstd -r -f "$dir/ctree" "$dir/released.img" >/dev/null &&
		"$MKFS" -q -f -O "$FEAT,compression" "$dir/lzorle.img" &&
		"$SLOAD" -q -P -c -a lzo-rle -r -f "$dir/ctree" "$dir/lzorle.img" >/dev/null
	} >"$dir/populate.log" 2>&1 || echo "populate failed" >>"$dir/populate.log"
	# what the read path sees in the labelled image (its labels differ
	# from the source's xattrs by design)
	local x
	for x in labels android ro compress released lzorle; do
		mkdir "$dir/$x.x"
		"$F2_BUILD/tests/tools/f2extract" "$dir/$x.img" "$dir/$x.x" &&
			EXCLUDE=./dind_probe "$F2_TOP/tests/engine/manifest.py" "$dir/$x.x" \
			>"$dir/$x.manifest"
	done
	printf 'plain vda manifest\nlabels vdb manifest\nbigsec vdc -\nandroid vdd manifest\nro vde ro\n' \
		>"$dir/disks"
	printf 'compress vdf manifest\nreleased vdg released\nlzorle vdh released\n' >>"$dir/disks"
	kernel_add_binary /usr/bin/getfattr || return 1
	KERNEL_FILES="$dir/disks:/guest/disks $F2_TOP/tests/engine/manifest.sh:/guest/manifest.sh $BATS_TEST_DIRNAME/guest/lib.sh:/guest/lib.sh" \
		KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=900 \
		kernel_run "$BATS_TEST_DIRNAME/guest/populate-check.sh" \
		"$dir/plain.img" "$dir/labels.img" "$dir/bigsec.img" "$dir/android.img" "$dir/ro.img" \
		"$dir/compress.img" "$dir/released.img" "$dir/lzorle.img"
	echo $? >"$dir/run/status"
	cp "$KERNEL_OUT" "$dir/report"
	kernel_dmesg >"$dir/dmesg"
}

setup() {
	kernel_require
	kernel_ran "$BATS_FILE_TMPDIR/populate.log"
}

@test "kernel populate: the guest ran the whole script, no f2fs errors in dmesg" {
	! grep -q "populate failed" "$BATS_FILE_TMPDIR/populate.log" || false
	grep -q '^DONE$' "$BATS_FILE_TMPDIR/report"
	[ "$(cat "$BATS_FILE_TMPDIR/run/status")" -eq 0 ]
	! grep -Ei 'f2fs.*(error|corrupt|inconsistent|bad |invalid|fsck)' "$BATS_FILE_TMPDIR/dmesg" || false
}

@test "kernel populate: the kernel sees exactly the host tree (md5, sizes, modes, owners, links, symlinks, devices, xattrs)" {
	report_manifest plain >"$BATS_TEST_TMPDIR/k"
	[ -s "$BATS_TEST_TMPDIR/k" ]
	diff "$BATS_FILE_TMPDIR/tree.manifest" "$BATS_TEST_TMPDIR/k"
}

@test "kernel populate: the kernel reads a block past the double-indirect boundary" {
	local want
	want=$(cat "$BATS_FILE_TMPDIR/dind.md5")
	expect_report plain "dind $((923 + 2036 + 2*1018*1018 + 7)) $want"
	expect_report bigsec "dind $((923 + 2036 + 2*1018*1018 + 7)) $want"
}

@test "kernel populate: security.selinux labels from file_contexts as the kernel reads them" {
	report_manifest labels >"$BATS_TEST_TMPDIR/k"
	diff "$BATS_FILE_TMPDIR/labels.manifest" "$BATS_TEST_TMPDIR/k"
	# sizes_file on a file under /sizes, null_device on the device
	label=$(printf 'u:object_r:sizes_file:s0\0' | od -An -tx1 | tr -d ' \n')
	grep -A8 '^\./sizes/f1 ' "$BATS_TEST_TMPDIR/k" | grep -q "security.selinux=0x$label"
	label=$(printf 'u:object_r:null_device:s0\0' | od -An -tx1 | tr -d ' \n')
	grep -A8 '^\./special/null ' "$BATS_TEST_TMPDIR/k" | grep -q "security.selinux=0x$label"
}

@test "kernel populate: sload.f2fs -C fs_config -s file_contexts -t /system: owners, modes, capabilities and labels as the kernel reads them" {
	local k=$BATS_TEST_TMPDIR/k cap label
	report_manifest android >"$k"
	diff "$BATS_FILE_TMPDIR/android.manifest" "$k"
	grep -qx '\. d 751:0:0:[0-9]*' "$k"
	grep -qx '\./sizes d 750:1000:1000:2' "$k"
	grep -q '^\./sizes/f1 f 750:0:2000:1:1 ' "$k"
	grep -q '^\./sizes/f4096 f 640:1013:1005:1:4096 ' "$k"
	grep -q '^\./links/short l 7:8:1 ' "$k"
	# unlisted paths are 0:0 without -P (mktree made modes/m0644 1000:1000)
	grep -q '^\./modes/m0644 f 644:0:0:1:' "$k"
	# VFS_CAP_REVISION_2 | effective, bits 10 and 36
	cap=0x0100000200040000000000001000000000000000
	grep -qx "\./sizes/f1 security.capability=$cap" "$k"
	[ "$(grep -c 'security.capability=' "$k")" = 1 ]
	label=$(printf 'u:object_r:sizes_file:s0\0' | od -An -tx1 | tr -d ' \n')
	grep -qx "\./sizes/f1 security.selinux=0x$label" "$k"
	label=$(printf 'u:object_r:system_file:s0\0' | od -An -tx1 | tr -d ' \n')
	grep -qx "\. security.selinux=0x$label" "$k"
	grep -qx "\./modes/m0644 security.selinux=0x$label" "$k"
	grep -qx 'Info: Max image size: [0-9]* MB, Free space: [0-9]* MB' "$BATS_FILE_TMPDIR/sload.out"
}

@test "kernel populate: mkfs.f2fs -O ro then sload.f2fs: Linux mounts it read-only (only) and sees the tree" {
	local k=$BATS_TEST_TMPDIR/k
	expect_report ro "mount ro ok" "umount ok"
	[[ $(report_of ro) != *"rw mount allowed"* ]]
	report_manifest ro >"$k"
	[ -s "$k" ]
	diff "$BATS_FILE_TMPDIR/ro.manifest" "$k"
	# -P kept mktree's owners
	grep -q '^\./modes/m0644 f 644:1000:1000:1:' "$k"
	ref_fsck_clean "$BATS_FILE_TMPDIR/ro.img"
	"$FSCK" -f -n "$BATS_FILE_TMPDIR/ro.img"
}

@test "kernel populate: the kernel writes, unmounts, remounts; reference fsck stays clean" {
	local n
	for n in plain labels bigsec android; do
		expect_report "$n" "mount ok" "wrote more" "umount ok" "md5 match" "umount2 ok"
		ref_fsck_clean "$BATS_FILE_TMPDIR/$n.img"
	done
}

@test "kernel populate: sload.f2fs -c -a lz4: Linux reads the compressed tree, writes, remounts; both fscks clean" {
	local k=$BATS_TEST_TMPDIR/k
	report_manifest compress >"$k"
	[ -s "$k" ]
	diff "$BATS_FILE_TMPDIR/compress.manifest" "$k"
	diff "$BATS_FILE_TMPDIR/ctree.manifest" "$k"
	expect_report compress "mount ok" "wrote more" "umount ok" "md5 match" "umount2 ok"
	ref_fsck_clean "$BATS_FILE_TMPDIR/compress.img"
	"$FSCK" -f -n "$BATS_FILE_TMPDIR/compress.img"
}

@test "kernel populate: sload.f2fs -c -a zstd -r and -a lzo-rle -r: Linux reads the released trees and refuses writes to their files" {
	local k=$BATS_TEST_TMPDIR/k n
	for n in released lzorle; do
		expect_report "$n" "mount ok" "append refused" "umount ok"
		report_manifest "$n" >"$k"
		[ -s "$k" ]
		diff "$BATS_FILE_TMPDIR/$n.manifest" "$k"
		diff "$BATS_FILE_TMPDIR/ctree.manifest" "$k"
		ref_fsck_clean "$BATS_FILE_TMPDIR/$n.img"
		"$FSCK" -f -n "$BATS_FILE_TMPDIR/$n.img"
	done
}
