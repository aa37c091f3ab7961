#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Volumes this version does not fully understand, planted with f2field in
# both superblock copies (crc fixed) of an image made by our mkfs:
#  - feature bits later kernels define and Linux 6.12 does not:
#    device_alias (0x8000: changes what is read), packed_ssa (0x10000: the
#    same layout with 4 KiB blocks), and an unknown bit (0x40000000).
#    Every writer (fsck -y/-p/-a, gc.f2fs, defrag.f2fs in both modes, the
#    write engine through f2field orphan, mount.f2fs -o fsck) refuses,
#    naming the device and the bit, exits non-zero, and leaves the image
#    byte-identical; every reader (dump.f2fs, fsck -n, gc.f2fs -n,
#    defrag.f2fs -n, mount.f2fs) names the bit; fsck -n checks on through
#    packed_ssa (a warning, exit 0) and stops at the others (exit 8).
#  - a block size of 16384 (log_blocksize 14, as 16K-page kernels make):
#    every tool refuses it by name at open.
load ../lib/common

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}
MOUNT_F2FS=${MOUNT_F2FS:-$F2_BUILD/mount-helper/mount.f2fs}

setup() {
	require_prog "$MKFS" "$FSCK" "$DUMP" "$GC" "$DEFRAG" "$MOUNT_F2FS" "$F2FIELD"
	T=$BATS_TEST_TMPDIR
	IMG=$T/img
	make_image "$IMG" 256M
	run_mkfs "$MKFS" -f -O extra_attr,inode_checksum,sb_checksum "$IMG"
	mkdir -p "$T/mnt"
	# never the reference fsck, the real mtab or sysfs
	export F2_FSCK=$T/no-such-fsck F2_MTAB=$T/no-mtab F2_SYSFS=$T/no-sysfs
}

# plant FIELD VALUE: in both superblock copies, crcs fixed
plant() {
	local s
	for s in sb sb1; do
		"$F2FIELD" "$IMG" set "$s.$1" "$2" && "$F2FIELD" "$IMG" fixcrc "$s" || return 1
	done
}

add_feature() {
	plant feature $(( $("$F2FIELD" "$IMG" get sb.feature | cut -d' ' -f3) | $1 ))
}

# refuses WHAT CMD...: CMD exits non-zero, says WHAT and the image's
# name, and leaves the image byte-identical
refuses() {
	local what=$1 before rc=0
	shift
	before=$(img_sum "$IMG")
	"$@" </dev/null >"$T/out" 2>&1 || rc=$?
	echo "\$ $* -> $rc"
	cat "$T/out"
	[ "$rc" -ne 0 ] || { echo "exit 0"; return 1; }
	grep -qF -- "$what" "$T/out" || { echo "no '$what'"; return 1; }
	grep -qF -- "$IMG" "$T/out" || { echo "device not named"; return 1; }
	[ "$(img_sum "$IMG")" = "$before" ] || { echo "the image changed"; return 1; }
}

# reads WANT_RC WHAT CMD...: CMD exits WANT_RC and names WHAT, no write
reads() {
	local want=$1 what=$2 before rc=0
	shift 2
	before=$(img_sum "$IMG")
	"$@" </dev/null >"$T/out" 2>&1 || rc=$?
	echo "\$ $* -> $rc"
	cat "$T/out"
	[ "$rc" -eq "$want" ] || { echo "exit $rc, expected $want"; return 1; }
	grep -qF -- "$what" "$T/out" || { echo "no '$what'"; return 1; }
	[ "$(img_sum "$IMG")" = "$before" ] || { echo "the image changed"; return 1; }
}

# every_writer_refuses NAME: the writers, each naming NAME
every_writer_refuses() {
	local what="$1 is not supported by this version"
	refuses "$what" "$FSCK" -y "$IMG"
	refuses "$what" "$FSCK" -f -y "$IMG"
	refuses "$what" "$FSCK" -p "$IMG"
	refuses "$what" "$FSCK" -a "$IMG"
	refuses "$what" "$GC" "$IMG"
	refuses "$what" "$GC" -t 100 "$IMG"
	refuses "$what" "$DEFRAG" "$IMG"
	refuses "$what" "$DEFRAG" --file /nothing "$IMG"
	refuses "$what" "$F2FIELD" "$IMG" orphan 3
	# mount.f2fs -o fsck runs our fsck -p first, which refuses
	F2_FSCK=$FSCK refuses "$what" "$MOUNT_F2FS" -f -o fsck "$IMG" "$T/mnt"
}

@test "unknown features: device_alias (0x8000): writers refuse, readers name it, fsck -n stops (exit 8)" {
	add_feature 0x8000
	every_writer_refuses "feature device_alias (0x8000)"
	reads 0 "feature device_alias (0x8000) is not implemented" "$DUMP" "$IMG"
	reads 0 "feature device_alias (0x8000) is not implemented" "$DUMP" --json "$IMG"
	reads 8 "0x010008 SB_FEATURE_UNREADABLE: superblock: feature device_alias (0x8000)" "$FSCK" -n "$IMG"
	grep -q "not checked past the superblock" "$T/out"
	reads 8 "SB_FEATURE_UNREADABLE" "$FSCK" -f -n "$IMG"
	# no terminal and no fix mode: read-only, the same verdict
	reads 8 "SB_FEATURE_UNREADABLE" "$FSCK" "$IMG"
	reads 0 "feature device_alias (0x8000) is not implemented" "$GC" -n "$IMG"
	reads 0 "feature device_alias (0x8000) is not implemented" "$DEFRAG" -n "$IMG"
	reads 0 "feature device_alias (0x8000) is not implemented" "$MOUNT_F2FS" -f "$IMG" "$T/mnt"
	"$DUMP" --json "$IMG" 2>/dev/null | jq -e '.superblock.features | test("device_alias")'
}

@test "unknown features: packed_ssa (0x10000): writers refuse, fsck -n checks on with a warning (exit 0)" {
	add_feature 0x10000
	every_writer_refuses "feature packed_ssa (0x10000)"
	reads 0 "feature packed_ssa (0x10000) is not implemented by this version; read as without it" \
		"$DUMP" "$IMG"
	reads 0 "0x010005 SB_FEATURE_UNKNOWN: superblock: feature packed_ssa (0x10000)" "$FSCK" -f -n "$IMG"
	grep -q "0 left, 1 warning" "$T/out"
	reads 0 "feature packed_ssa (0x10000) is not implemented" "$GC" -n "$IMG"
	reads 0 "feature packed_ssa (0x10000) is not implemented" "$DEFRAG" -n "$IMG"
}

@test "unknown features: an unknown bit (0x40000000): writers refuse, readers name it in hex" {
	add_feature 0x40000000
	every_writer_refuses "feature 0x40000000"
	reads 0 "feature 0x40000000 is not implemented" "$DUMP" "$IMG"
	reads 8 "SB_FEATURE_UNREADABLE: superblock: feature 0x40000000" "$FSCK" -n "$IMG"
	reads 0 "feature 0x40000000 is not implemented" "$GC" -n "$IMG"
	reads 0 "feature 0x40000000 is not implemented" "$MOUNT_F2FS" -f "$IMG" "$T/mnt"
	# with a sysfs feature list, the kernel is judged to lack it
	mkdir -p "$T/sysfs/features"
	touch "$T/sysfs/features/"{extra_attr,inode_checksum,sb_checksum}
	F2_SYSFS=$T/sysfs refuses "0x40000000" "$MOUNT_F2FS" -f "$IMG" "$T/mnt"
}

@test "unknown features: two at once are both named" {
	add_feature $((0x8000 | 0x10000))
	refuses "features device_alias (0x8000), packed_ssa (0x10000) are not supported" \
		"$GC" "$IMG"
	reads 8 "packed_ssa (0x10000)" "$FSCK" -n "$IMG"
	grep -q "device_alias (0x8000)" "$T/out"
}

@test "block size 16384: every tool refuses it by name at open" {
	local what="block size 16384 is not supported"
	plant log_blocksize 14
	refuses "$what" "$DUMP" "$IMG"
	refuses "$what" "$DUMP" --json "$IMG"
	refuses "$what" "$DUMP" -d 1 "$IMG"
	refuses "$what" "$FSCK" -n "$IMG"
	refuses "$what" "$FSCK" -f -n "$IMG"
	refuses "$what" "$FSCK" -y "$IMG"
	refuses "$what" "$FSCK" -p "$IMG"
	refuses "$what" "$GC" "$IMG"
	refuses "$what" "$GC" -n "$IMG"
	refuses "$what" "$DEFRAG" "$IMG"
	refuses "$what" "$DEFRAG" -n "$IMG"
	refuses "$what" "$MOUNT_F2FS" -f "$IMG" "$T/mnt"
	# not a damaged volume: neither "no valid superblock" nor a problem code
	! grep -q "no valid superblock\|^0x01" "$T/out" || false
	rc=0; "$FSCK" -n "$IMG" >"$T/out" 2>&1 || rc=$?
	[ "$rc" -eq 8 ]
	! grep -q "no valid superblock\|^0x01" "$T/out" || false
}

@test "block size: 65536 is named too; a log_blocksize that is no size is corruption" {
	plant log_blocksize 16
	refuses "block size 65536 is not supported" "$DUMP" "$IMG"
	plant log_blocksize 40
	refuses "log_blocksize 40 is no block size" "$DUMP" "$IMG"
}
