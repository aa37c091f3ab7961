#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel/android.bats - Android's image build, as its build system
# runs it, judged by simg2img, both fscks and the kernel (F2_KERNEL: 6.1
# or 6.12; tests/run.sh runs it with each).
#
#   mkfs.f2fs -g android -O FEATURES -S SIZE -l system IMG
#   sload.f2fs -S -C fs_config -f DIR -p DIR -s file_contexts -t /system
#              -T TS -c -a ALG [-r] IMG
#
# for four feature sets (project_quota, plain, casefold -C utf8, ro; each
# with compression,extra_attr), ALG lz4, lzo and zstd, with and without
# -r: 24 sparse images.  On the host each expands with simg2img, and the
# raw image is clean under both fscks (ours also reads the sparse image
# itself).  One boot then mounts all 24, laid one after another in a
# single disk, through a loop device at each offset: the kernel's view of
# the tree (contents, fs_config owners, modes and capabilities, SELinux
# labels) must be what the source and fs_config say, compressed files
# must carry the compressed flag, ro volumes mount only read-only,
# released files refuse appends, and the others take writes that
# survive a remount and leave the reference fsck clean.

load ../lib/common
load ../lib/kernel

SETS="pq cmp cf ro"
ALGS="lz4 lzo zstd"
MB=128 # each image's size

set_opts() { # SET: mkfs options of a feature set
	case $1 in
	pq) echo "-O project_quota,extra_attr,compression" ;;
	cmp) echo "-O compression,extra_attr" ;;
	cf) echo "-O casefold,compression,extra_attr -C utf8" ;;
	ro) echo "-O ro,compression,extra_attr" ;;
	esac
}

# ids: "ID SET ALG R" for the 24 images, in disk order
ids() {
	local s a r
	for s in $SETS; do
		for a in $ALGS; do
			for r in 0 1; do
				echo "$s-$a-$r $s $a $r"
			done
		done
	done
}

# android_tree DIR: a small system partition: binaries (random bytes),
# text that compresses (a partial last cluster, one block, many clusters),
# an empty file, an inline-sized one, a sparse one, symlinks, a setuid
# binary with capabilities, nested directories
android_tree() {
	local t=$1
	mkdir -p "$t"/{bin,xbin,lib64,etc/init,app/Settings,empty} || return 1
	head -c 300000 /dev/urandom >"$t/bin/toybox"
	head -c 3000 /dev/urandom >"$t/bin/sh"
	ln -s toybox "$t/bin/ls"
	ln -s /system/bin/toybox "$t/bin/cat"
	head -c 70000 /dev/urandom >"$t/xbin/su"
	head -c 500000 /dev/urandom >"$t/lib64/libc.so"
	seq -f 'service %g /system/bin/daemon --flag' 1 40000 >"$t/etc/big.txt"
	head -c $((9 * 4096 + 100)) "$t/etc/big.txt" >"$t/etc/init.rc"
	head -c 4096 "$t/etc/big.txt" >"$t/etc/one.txt"
	head -c 20000 "$t/etc/big.txt" >"$t/etc/init/part.rc"
	: >"$t/etc/empty.txt"
	echo 'ro.build=1' >"$t/etc/build.prop"
	{ head -c 100000 "$t/etc/big.txt"; head -c 100000 /dev/urandom; } >"$t/app/Settings/Settings.apk"
	truncate -s 1M "$t/app/Settings/sparse.odex"
	chmod 0755 "$t/bin/toybox" "$t/bin/sh" "$t/xbin/su"
}

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	kernel_setup || return 0 # each test then skips or fails by itself
	local d=$BATS_FILE_TMPDIR id set alg r i=0 kind
	require_prog "$MKFS" "$SLOAD" "$F2EXTRACT" "$(command -v simg2img)" || return 1
	android_tree "$d/tree" || return 1
	"$F2_TOP/tests/engine/manifest.py" "$d/tree" >"$d/tree.manifest" || return 1
	cat >"$d/fs_config" <<-'CFG'
	system 0 0 0755
	system/bin 0 2000 0751
	system/bin/sh 0 2000 0755
	system/bin/toybox 0 2000 0755
	system/xbin/su 0 2000 4750 capabilities=0xc0
	system/etc/init.rc 1000 1000 0640
	CFG
	cat >"$d/file_contexts" <<-'FC'
	/system(/.*)?		u:object_r:system_file:s0
	/system/bin(/.*)?	u:object_r:system_exec:s0
	/system/etc(/.*)?	u:object_r:system_etc_file:s0
	FC
	truncate -s $((24 * MB))M "$d/disk"
	: >"$d/vols"
	while read -r id set alg r; do
		kind=rw
		[ "$r" = 1 ] && kind=released
		[ "$set" = ro ] && kind=ro
		{
			# shellcheck disable=SC2046
			"$MKFS" -g android $(set_opts "$set") -S $((MB << 20)) -l system \
				"$d/$id.simg" >/dev/null &&
			"$SLOAD" -S -C "$d/fs_config" -f "$d/tree" -p "$d/tree" -s "$d/file_contexts" \
				-t /system -T 1700000000 -c -a "$alg" $([ "$r" = 1 ] && echo -r) \
				"$d/$id.simg" >"$d/$id.sload" &&
			simg2img "$d/$id.simg" "$d/$id.raw" &&
			dd if="$d/$id.raw" of="$d/disk" bs=1M seek=$((i * MB)) conv=notrunc,sparse \
				status=none &&
			mkdir "$d/$id.x" && "$F2EXTRACT" "$d/$id.raw" "$d/$id.x" &&
			"$F2_TOP/tests/engine/manifest.py" "$d/$id.x" >"$d/$id.manifest"
		} >>"$d/build.log" 2>&1 || echo "$id build failed" >>"$d/build.log"
		echo "$id $((i * MB << 20)) $kind" >>"$d/vols"
		i=$((i + 1))
	done < <(ids)
	kernel_add_binary /usr/bin/getfattr || return 1
	kernel_add_binary /usr/bin/lsattr || return 1
	KERNEL_FILES="$d/vols:/guest/vols $F2_TOP/tests/engine/manifest.sh:/guest/manifest.sh" \
		KERNEL_RUN_DIR=$d/run KERNEL_TIMEOUT=900 \
		kernel_run "$BATS_TEST_DIRNAME/guest/android-check.sh" "$d/disk"
	echo $? >"$d/run/status"
	cp "$KERNEL_OUT" "$d/report"
	kernel_dmesg >"$d/dmesg"
}

setup() {
	kernel_require
	kernel_ran "$BATS_FILE_TMPDIR/build.log"
}

# files_md5 MANIFEST: "path md5" of every regular file
files_md5() { awk '$2 == "f" { print $1, $4 }' "$1"; }

@test "android: 24 images built (mkfs -g android -S, sload -S -C -p -s -t -T -c -a [-r]); the guest mounted them all" {
	local d=$BATS_FILE_TMPDIR
	! grep 'build failed' "$d/build.log" || false
	[ "$(wc -l <"$d/vols")" = 24 ]
	grep -q '^DONE$' "$d/report"
	[ "$(cat "$d/run/status")" -eq 0 ]
}

@test "android: sload prints Max image size (field 5: MB, within the image)" {
	local id set alg r n
	while read -r id set alg r; do
		n=$(awk '/Max image size/ { print $5 }' "$BATS_FILE_TMPDIR/$id.sload")
		[[ $n =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] && [ "$n" -le $MB ] ||
			{ echo "$id: '$(cat "$BATS_FILE_TMPDIR/$id.sload")'"; return 1; }
	done < <(ids)
}

@test "android: every image expands with simg2img to a volume both fscks find clean; ours reads the sparse image itself" {
	local d=$BATS_FILE_TMPDIR id set alg r
	while read -r id set alg r; do
		[ "$(stat -c %s "$d/$id.raw")" = $((MB << 20)) ]
		"$FSCK" -f -n "$d/$id.simg" >/dev/null || { echo "$id: our fsck on the sparse image"; return 1; }
		"$FSCK" -f -n "$d/$id.raw" >/dev/null || { echo "$id: our fsck"; return 1; }
		ref_fsck_clean "$d/$id.raw" || { echo "$id: reference fsck"; return 1; }
	done < <(ids)
}

@test "android: the kernel reads every file's content as the source holds it" {
	local d=$BATS_FILE_TMPDIR id set alg r
	files_md5 "$d/tree.manifest" >"$d/src.md5"
	[ "$(wc -l <"$d/src.md5")" -ge 12 ]
	while read -r id set alg r; do
		expect_report "$id" "mount $([ "$set" = ro ] && echo ro || echo rw) ok"
		report_manifest "$id" >"$BATS_TEST_TMPDIR/k"
		files_md5 "$BATS_TEST_TMPDIR/k" | diff "$d/src.md5" - || { echo "$id"; return 1; }
	done < <(ids)
}

@test "android: the kernel sees what our read path extracts (owners, modes, links, symlinks, xattrs)" {
	local d=$BATS_FILE_TMPDIR id set alg r
	while read -r id set alg r; do
		report_manifest "$id" >"$BATS_TEST_TMPDIR/k"
		diff "$d/$id.manifest" "$BATS_TEST_TMPDIR/k" || { echo "$id"; return 1; }
	done < <(ids)
}

@test "android: fs_config owners, modes and capabilities; unlisted paths 0:0; SELinux labels" {
	local id set alg r k=$BATS_TEST_TMPDIR/k cap label exec etc
	# VFS_CAP_REVISION_2 | effective; CAP_SETGID (6) and CAP_SETUID (7)
	cap=0x01000002c0000000000000000000000000000000
	label=$(printf 'u:object_r:system_file:s0\0' | od -An -tx1 | tr -d ' \n')
	exec=$(printf 'u:object_r:system_exec:s0\0' | od -An -tx1 | tr -d ' \n')
	etc=$(printf 'u:object_r:system_etc_file:s0\0' | od -An -tx1 | tr -d ' \n')
	while read -r id set alg r; do
		report_manifest "$id" >"$k"
		{
			grep -qx '\. d 755:0:0:[0-9]*' "$k" &&
			grep -qx '\./bin d 751:0:2000:2' "$k" &&
			grep -q '^\./bin/sh f 755:0:2000:1:3000 ' "$k" &&
			grep -q '^\./xbin/su f 4750:0:2000:1:70000 ' "$k" &&
			grep -q '^\./etc/init.rc f 640:1000:1000:1:' "$k" &&
			grep -q '^\./lib64/libc.so f 644:0:0:1:500000 ' "$k" &&
			grep -qx "\./xbin/su security.capability=$cap" "$k" &&
			[ "$(grep -c 'security.capability=' "$k")" = 1 ] &&
			grep -qx "\. security.selinux=0x$label" "$k" &&
			grep -qx "\./lib64/libc.so security.selinux=0x$label" "$k" &&
			grep -qx "\./bin/toybox security.selinux=0x$exec" "$k" &&
			grep -qx "\./etc/init/part.rc security.selinux=0x$etc" "$k"
		} || { echo "$id:"; grep -v '^\./app\|^\./empty' "$k"; return 1; }
	done < <(ids)
}

@test "android: compressed files carry the compressed flag as the kernel reports it" {
	local id set alg r f
	while read -r id set alg r; do
		for f in ./etc/big.txt ./etc/init.rc ./etc/init/part.rc; do
			report_of "$id" | grep -q "^flags [^ ]*c[^ ]* $f\$" ||
				{ echo "$id: $f"; report_of "$id" | grep '^flags'; return 1; }
		done
	done < <(ids)
}

@test "android: ro volumes mount only read-only; released files refuse appends; the others take writes and remount" {
	local id set alg r
	while read -r id set alg r; do
		if [ "$set" = ro ]; then
			expect_report "$id" "umount ok"
			if report_of "$id" | grep -q 'rw mount allowed'; then
				echo "$id: mounted read-write"
				return 1
			fi
		elif [ "$r" = 1 ]; then
			expect_report "$id" "append refused" "umount ok"
		else
			expect_report "$id" "wrote" "umount ok" "md5 match" "umount2 ok"
		fi
	done < <(ids)
}

@test "android: the volumes the kernel wrote stay clean under both fscks; no f2fs errors in dmesg" {
	local d=$BATS_FILE_TMPDIR id set alg r i=0
	while read -r id set alg r; do
		if [ "$set" != ro ]; then
			dd if="$d/disk" of="$d/after.img" bs=1M skip=$((i * MB)) count=$MB \
				conv=sparse status=none
			"$FSCK" -f -n "$d/after.img" >/dev/null || { echo "$id: our fsck"; return 1; }
			ref_fsck_clean "$d/after.img" || { echo "$id: reference fsck"; return 1; }
		fi
		i=$((i + 1))
	done < <(ids)
	! grep -Ei 'f2fs.*(error|corrupt|inconsistent|bad |invalid|fsck)' "$d/dmesg" || false
	! grep -E '^[^ ]+ dmesg .*(error|corrupt|inconsistent|invalid)' "$d/report" || false
}
