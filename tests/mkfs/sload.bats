#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sload.bats - sload.f2fs on the host: its command line, canned
# fs_config files (owners, modes, capabilities by path), the
# Buildroot/genimage sequence `mkfs.f2fs IMG && sload.f2fs -f DIR IMG`
# against `mkfs.f2fs --root DIR`, reproducible output, and both fscks.
# The kernel's view of an sload-ed Android image is checked in
# tests/kernel/populate.bats; compression (-c) in sload-compress.bats.

bats_require_minimum_version 1.5.0
load ../lib/common

setup() {
	require_prog "$MKFS" "$SLOAD" "$F2EXTRACT"
	D=$BATS_TEST_TMPDIR
	mkdir -p "$D/src/bin" "$D/src/etc/sub"
	printf '#!/bin/sh\necho hi\n' >"$D/src/bin/sh"
	seq 1 20000 >"$D/src/etc/big"
	echo inline >"$D/src/etc/sub/small"
	ln -s ../bin/sh "$D/src/etc/link"
	chmod 0700 "$D/src/etc/sub"
	chown 123:456 "$D/src/etc/big"
	truncate -s 128M "$D/a.img" "$D/b.img"
}

# manifest IMG: the tree the read path extracts from IMG
manifest() {
	rm -rf "$D/x" && mkdir "$D/x" && "$F2EXTRACT" "$1" "$D/x" >/dev/null &&
		"$F2_TOP/tests/engine/manifest.py" "$D/x"
}

@test "sload: --help, -V, and usage errors (exit 16) write nothing" {
	run "$SLOAD" --help
	[ "$status" -eq 0 ] && [[ $output == *"-C FILE"* ]] && [[ $output == *"Max image size"* ]]
	run "$SLOAD" -V
	[ "$status" -eq 0 ] && [[ $output == "sload.f2fs (f2fs-progs) "* ]]
	"$MKFS" -q -f "$D/a.img"
	cp "$D/a.img" "$D/a.orig"
	run "$SLOAD" "$D/a.img"
	[ "$status" -eq 16 ] && [[ $output == *"-f DIR"* ]]
	run "$SLOAD" -f "$D/src"
	[ "$status" -eq 16 ] && [[ $output == *"no device"* ]]
	run "$SLOAD" -f "$D/src" -t system "$D/a.img"
	[ "$status" -eq 16 ] && [[ $output == *"must start with /"* ]]
	run "$SLOAD" -f "$D/src" -T yesterday "$D/a.img"
	[ "$status" -eq 16 ]
	cmp "$D/a.img" "$D/a.orig"
}

@test "sload: a malformed fs_config line is named by file and line, the image untouched" {
	"$MKFS" -q -f "$D/a.img"
	cp "$D/a.img" "$D/a.orig"
	printf 'system 0 0 0755\nsystem/bin zero 0 0755\n' >"$D/bad.cfg"
	run "$SLOAD" -f "$D/src" -t /system -C "$D/bad.cfg" "$D/a.img"
	[ "$status" -eq 1 ] && [[ $output == *"bad.cfg:2:"* ]]
	printf 'system 0 0 0755\nsystem/bin 0 0 0755 capabilities=zz\n' >"$D/bad.cfg"
	run "$SLOAD" -f "$D/src" -t /system -C "$D/bad.cfg" "$D/a.img"
	[ "$status" -eq 1 ] && [[ $output == *"bad.cfg:2:"* ]]
	printf 'system/bin 0 0 0755\n/system/bin 0 0 0700\n' >"$D/bad.cfg"
	run "$SLOAD" -f "$D/src" -t /system -C "$D/bad.cfg" "$D/a.img"
	[ "$status" -eq 1 ] && [[ $output == *"listed twice"* ]]
	run "$SLOAD" -f "$D/src" -C "$D/missing.cfg" "$D/a.img"
	[ "$status" -eq 1 ] && [[ $output == *"missing.cfg"* ]]
	cmp "$D/a.img" "$D/a.orig"
}

@test "sload: mkfs.f2fs IMG && sload.f2fs -P -f DIR IMG gives the tree mkfs.f2fs --root DIR gives" {
	"$MKFS" -q -f -T 1700000000 "$D/a.img"
	run "$SLOAD" -P -f "$D/src" -T 1700000000 "$D/a.img"
	[ "$status" -eq 0 ]
	[[ ${lines[-1]} =~ ^Info:\ Max\ image\ size:\ [0-9]+\ MB,\ Free\ space:\ [0-9]+\ MB$ ]]
	# the fifth field, as Android's mkf2fsuserimg.sh reads it
	size=$(tail -n 1 <<<"$output" | awk '{ print $5 }')
	[ "$size" -ge 1 ] && [ "$size" -le 128 ]
	"$MKFS" -q -f -T 1700000000 --root "$D/src" "$D/b.img"
	manifest "$D/a.img" >"$D/a.m"
	manifest "$D/b.img" >"$D/b.m"
	grep -q '^\./etc/big f 644:123:456:1:' "$D/a.m"
	diff "$D/b.m" "$D/a.m"
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
}

@test "sload: fs_config sets owners, modes and capabilities by path; unlisted paths are 0:0 without -P" {
	"$MKFS" -q -f -O extra_attr,flexible_inline_xattr "$D/a.img"
	cat >"$D/fs.cfg" <<-'EOF'
	# comments and blank lines are skipped

	vendor 0 2000 0751
	vendor/bin/sh 0 2000 0755 capabilities=0x1000000400
	/vendor/etc/sub 1000 1000 0750
	EOF
	"$SLOAD" -q -f "$D/src" -t /vendor/ -C "$D/fs.cfg" "$D/a.img" >/dev/null
	manifest "$D/a.img" >"$D/a.m"
	grep -qx '\. d 751:0:2000:[0-9]*' "$D/a.m"
	grep -q '^\./bin/sh f 755:0:2000:1:' "$D/a.m"
	grep -qx '\./etc/sub d 750:1000:1000:2' "$D/a.m"
	grep -q '^\./etc/big f 644:0:0:1:' "$D/a.m"
	grep -qx '\./bin/sh security.capability=0x0100000200040000000000001000000000000000' "$D/a.m"
	[ "$(grep -c 'security.capability' "$D/a.m")" = 1 ]
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
}

@test "sload: mkfs.f2fs --root --fs-config --mount-point gives the tree sload.f2fs -P -C -t gives" {
	printf 'vendor 0 2000 0751\nvendor/bin/sh 0 2000 0755 capabilities=0x20\n' >"$D/fs.cfg"
	"$MKFS" -q -f -T 1700000000 -O extra_attr "$D/a.img"
	"$SLOAD" -q -P -f "$D/src" -t /vendor -C "$D/fs.cfg" -T 1700000000 "$D/a.img" >/dev/null
	"$MKFS" -q -f -T 1700000000 -O extra_attr --root "$D/src" --mount-point /vendor \
		--fs-config "$D/fs.cfg" "$D/b.img"
	manifest "$D/a.img" >"$D/a.m"
	manifest "$D/b.img" >"$D/b.m"
	grep -qx '\. d 751:0:2000:[0-9]*' "$D/b.m"
	grep -q '^\./etc/big f 644:123:456:1:' "$D/b.m"
	grep -q '^\./bin/sh security.capability=0x0100000220' "$D/b.m"
	diff "$D/a.m" "$D/b.m"
	"$FSCK" -f -n "$D/b.img"
	run "$MKFS" -q -f --fs-config "$D/fs.cfg" "$D/b.img"
	[ "$status" -ne 0 ]
	[[ $output == *"--fs-config needs --root"* ]]
}

@test "sload: -P onto a quota volume: every id charged (both fscks check the quota files)" {
	"$MKFS" -q -f -O extra_attr,quota,project_quota "$D/a.img"
	"$SLOAD" -q -P -f "$D/src" "$D/a.img" >/dev/null
	run "$FSCK" -f -n -v "$D/a.img"
	[ "$status" -eq 0 ]
	"$F2_BUILD/dump/dump.f2fs" --ls /etc "$D/a.img" | grep -q ' 123 *456 .* big$'
	ref_fsck_clean "$D/a.img"
}

@test "sload: the same inputs, -T and -U give byte-identical images" {
	local i
	printf 'system 0 0 0755\nsystem/bin/sh 0 2000 0750 capabilities=0x20\n' >"$D/fs.cfg"
	printf '/system(/.*)?\tu:object_r:system_file:s0\n' >"$D/fc"
	for i in a b; do
		"$MKFS" -q -f -g android -T 1700000000 -U 11111111-2222-3333-4444-555555555555 \
			-O extra_attr,flexible_inline_xattr "$D/$i.img"
		"$SLOAD" -q -f "$D/src" -t /system -C "$D/fs.cfg" -s "$D/fc" -T 1700000000 \
			"$D/$i.img" >"$D/$i.out"
	done
	cmp "$D/a.img" "$D/b.img"
	cmp "$D/a.out" "$D/b.out"
	# -g android turns quota on: the usage is counted after the load
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
	# and the check can fail: another -T changes the image
	"$MKFS" -q -f -g android -T 1700000000 -U 11111111-2222-3333-4444-555555555555 \
		-O extra_attr,flexible_inline_xattr "$D/b.img"
	"$SLOAD" -q -f "$D/src" -t /system -C "$D/fs.cfg" -T 1700000001 "$D/b.img" >/dev/null
	! cmp -s "$D/a.img" "$D/b.img" || false
}

@test "sload: make install puts sload.f2fs beside mkfs.f2fs; --enable-android-names adds make_f2fs and sload_f2fs" {
	local mk=$F2_BUILD/mkfs/Makefile sbin
	[ -f "$mk" ] || skip "no automake build tree"
	make -s -C "$F2_BUILD/mkfs" install DESTDIR="$D/plain" >/dev/null 2>&1
	sbin=$(find "$D/plain" -name sload.f2fs -printf '%h\n')
	[ -x "$sbin/mkfs.f2fs" ] && [ -x "$sbin/sload.f2fs" ]
	[ ! -e "$sbin/make_f2fs" ] && [ ! -e "$sbin/sload_f2fs" ]
	# the rules configure --enable-android-names turns on, run after the
	# same install
	grep -q '^#install-exec-hook:' "$mk"
	make -s -C "$F2_BUILD/mkfs" install DESTDIR="$D/android" >/dev/null 2>&1
	sed 's/^#\(install-exec-hook:\|uninstall-hook:\|\t\(cd\|rm -f\) \$(DESTDIR)\$(sbindir)\)/\1/' \
		"$mk" >"$F2_BUILD/mkfs/Makefile.android-names-test"
	make -s -C "$F2_BUILD/mkfs" -f Makefile.android-names-test install-exec-hook \
		DESTDIR="$D/android" >/dev/null 2>&1 ||
		{ rm -f "$F2_BUILD/mkfs/Makefile.android-names-test"; false; }
	rm -f "$F2_BUILD/mkfs/Makefile.android-names-test"
	sbin=$(find "$D/android" -name sload.f2fs -printf '%h\n')
	[ "$(readlink "$sbin/make_f2fs")" = mkfs.f2fs ]
	[ "$(readlink "$sbin/sload_f2fs")" = sload.f2fs ]
	"$sbin/sload_f2fs" -V | grep -q 'f2fs-progs'
	"$sbin/make_f2fs" -V
}

@test "sload: Android sparse output (mkfs -S, sload -S) is byte-reproducible and expands to the raw image the same commands write" {
	command -v simg2img >/dev/null || { echo "simg2img missing: apt-get install android-sdk-libsparse-utils"; false; }
	local i u=11111111-2222-3333-4444-555555555555
	printf 'system 0 0 0755\nsystem/bin/sh 0 2000 0750 capabilities=0x20\n' >"$D/fs.cfg"
	for i in a b; do
		"$MKFS" -q -g android -T 1700000000 -U $u -O extra_attr,compression \
			-S $((128 << 20)) "$D/$i.simg"
		"$SLOAD" -q -S -f "$D/src" -t /system -C "$D/fs.cfg" -T 1700000000 -c -a lz4 \
			"$D/$i.simg" >/dev/null
	done
	cmp "$D/a.simg" "$D/b.simg"
	[ "$(stat -c %s "$D/a.simg")" -lt $((8 << 20)) ]
	"$MKFS" -q -f -g android -T 1700000000 -U $u -O extra_attr,compression "$D/a.img"
	"$SLOAD" -q -f "$D/src" -t /system -C "$D/fs.cfg" -T 1700000000 -c -a lz4 "$D/a.img" >/dev/null
	simg2img "$D/a.simg" "$D/x.img"
	cmp "$D/a.img" "$D/x.img"
}
