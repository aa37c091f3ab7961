#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/populate.bats - power cuts while f2fs-populate copies a tree
# into a fresh volume (tests/lib/powercut.bash): after every prefix of its
# write log, and torn writes of 512 and 2048 bytes, the volume opens, our
# fsck -n -f finds it consistent (a torn newer checkpoint pack, reported as
# CP_NEWER_PACK_BAD, is the expected state there: see powercut_fsck_ok),
# and the read path shows exactly the empty volume's tree or the whole
# copy (populate checkpoints once, at the end): powercut_check_start_or_final.

load ../lib/common
load ../lib/powercut

POPULATE=${POPULATE:-$F2_BUILD/mkfs/f2fs-populate}

setup() {
	require_prog "$MKFS" "$POPULATE" "$FSCK" "$F2REPLAY" "$F2WALK"
	T=$(f2_tmp)
	POWERCUT_FSCK="$FSCK -n -f"
}

fresh_volume() {
	make_image "$1" "$2"
	run_mkfs "$MKFS" -f -q "${@:3}" "$1"
}

@test "populate a small tree: every state is the empty volume or the whole tree, fsck clean" {
	fresh_volume "$T/img" 64M
	mkdir -p "$T/src/d/e"
	echo small >"$T/src/small"
	seq 1 3000 >"$T/src/blocks"
	echo deep >"$T/src/d/e/deep"
	ln -s small "$T/src/link"
	ln "$T/src/blocks" "$T/src/hard"
	powercut_run "$T/img" powercut_check_start_or_final -- \
		"$POPULATE" --root "$T/src" -q -T 1700000000 @IMG >"$T/out" || { cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	# the final volume holds the tree
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/d/e/deep f '
}

@test "populate a larger tree (multi-block directory, 5 MB file) with features" {
	fresh_volume "$T/img" 128M -O extra_attr,inode_checksum,flexible_inline_xattr
	mkdir -p "$T/src/many" "$T/src/big"
	for i in $(seq 1 300); do echo "$i" >"$T/src/many/entry_with_a_long_name_$i"; done
	head -c 5000000 /dev/zero | tr '\0' 'z' >"$T/src/big/five_mb"
	seq 1 20000 >"$T/src/big/numbers"
	powercut_run "$T/img" powercut_check_start_or_final -- \
		"$POPULATE" --root "$T/src" -q -T 1700000000 @IMG >"$T/out" || { cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/big/five_mb f 0644 0 0 5000000 '
}

@test "sload.f2fs onto a quota volume: every state is the empty volume or the whole tree (quota findings allowed between its two checkpoints), the result clean" {
	require_prog "$SLOAD"
	fresh_volume "$T/img" 128M -O extra_attr,quota,project_quota
	mkdir -p "$T/src/d"
	echo small >"$T/src/small"
	seq 1 3000 >"$T/src/d/blocks"
	chown 1234:5678 "$T/src/d/blocks"
	printf 'd 42 43 0700\n' >"$T/fs.cfg"
	# between the tree's checkpoint and the quota one the usage is stale
	# and CP_QUOTA_NEED_FSCK says so (fsck and Linux recount)
	POWERCUT_FSCK_ALLOW="0x020002 0x0B0002 0x0B0003 0x0B0004" \
		powercut_run "$T/img" powercut_check_start_or_final -- \
		"$SLOAD" -q -P -C "$T/fs.cfg" -f "$T/src" -T 1700000000 @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/d/blocks f 0644 1234 5678 '
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/d d 0700 42 43 '
	# the complete result is clean, quota included
	"$FSCK" -f -n "$POWERCUT_FINAL"
}

@test "sload.f2fs onto a read-only volume (-O ro: two logs, no SSA): every state is the empty volume or the whole tree" {
	require_prog "$SLOAD"
	fresh_volume "$T/img" 64M -O ro
	mkdir -p "$T/src/d"
	echo small >"$T/src/small"
	seq 1 300000 >"$T/src/d/blocks"
	for i in $(seq 1 40); do echo "$i" >"$T/src/d/f$i"; done
	powercut_run "$T/img" powercut_check_start_or_final -- \
		"$SLOAD" -q -f "$T/src" -T 1700000000 @IMG >"$T/out" || { cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/d/f40 f '
	"$FSCK" -f -n "$POWERCUT_FINAL"
}

@test "sload.f2fs -c -a lz4 -r into a volume that holds files: every state is the old volume or old and new together" {
	require_prog "$SLOAD"
	fresh_volume "$T/img" 128M -O extra_attr,compression
	mkdir -p "$T/old/keep" "$T/src/text"
	echo kept >"$T/old/keep/f"
	seq 1 20000 >"$T/old/keep/numbers"
	"$SLOAD" -q -f "$T/old" -T 1700000000 "$T/img" >/dev/null
	seq -f 'line %g compresses' 1 60000 >"$T/src/text/big"
	head -c 70000 /dev/urandom >"$T/src/text/random"
	truncate -s 300000 "$T/src/text/sparse"
	powercut_run "$T/img" powercut_check_start_or_final -- \
		"$SLOAD" -q -c -a lz4 -r -f "$T/src" -T 1700000000 @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/keep/numbers f '
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/text/big f '
	"$FSCK" -f -n "$POWERCUT_FINAL"
}
