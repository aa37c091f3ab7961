#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/crash/mkfs.bats - power cuts during mkfs.f2fs over an old, populated
# f2fs volume (tests/lib/powercut.bash): after every prefix of mkfs's write
# log, and after torn writes of 512 and 2048 bytes, the device must hold
#   - the old volume, intact (every file with its content), or
#   - nothing the read path takes for f2fs (refused at open), or
#   - the complete new volume, which the reference fsck finds clean;
# never a half-made volume a tool would open.  Also checks that the helper
# itself catches a destructive writer and samples long logs.

load ../lib/common
load ../lib/powercut

setup() {
	require_prog "$MKFS" "$F2REPLAY" "$F2WALK"
	T=$(f2_tmp)
}

# old_volume IMG SIZE [REF_MKFS_OPTS...]: a volume made by the reference
# mkfs and populated by the reference sload: files inline and in blocks,
# nested directories, a symlink, a hard link
old_volume() {
	local img=$1 size=$2 src=$T/src
	shift 2
	make_image "$img" "$size"
	run_mkfs "$REF_MKFS" -f -q "$@" "$img"
	rm -rf "$src" && mkdir -p "$src/d/e"
	echo small >"$src/small"
	seq 1 3000 >"$src/blocks"
	echo deep >"$src/d/e/deep"
	ln -s small "$src/link"
	ln "$src/blocks" "$src/hard"
	/sbin/sload.f2fs -f "$src" "$img" >/dev/null 2>&1 || {
		echo "reference sload failed on $img"
		return 1
	}
	ref_fsck_clean "$img"
}

# check_mkfs IMG K T: old intact, refused, or new and clean
check_mkfs() {
	local img=$1 got status=0
	[ -f "$POWERCUT_DIR/old.sum" ] || powercut_summary "$POWERCUT_START" >"$POWERCUT_DIR/old.sum"
	[ -f "$POWERCUT_DIR/new.sum" ] || powercut_summary "$POWERCUT_FINAL" >"$POWERCUT_DIR/new.sum"
	got=$(powercut_summary "$img" 2>&1) || status=$?
	case $status in
	3)	return 0 ;;
	0)	[ "$got" = "$(cat "$POWERCUT_DIR/old.sum")" ] && return 0
		if [ "$got" = "$(cat "$POWERCUT_DIR/new.sum")" ]; then
			ref_fsck_clean "$img"
			return
		fi
		echo "the read path opens a volume that is neither the old nor the new one:"
		echo "$got" | head -n 20
		return 1 ;;
	*)	echo "f2walk exit $status (damaged or crashed):"
		echo "$got" | head -n 20
		return 1 ;;
	esac
}

@test "mkfs (defaults) over an old volume: every prefix and torn write is old, refused or new" {
	old_volume "$T/old" 64M
	run powercut_run "$T/old" check_mkfs -- "$MKFS" -f -q @IMG
	echo "$output"
	[ "$status" -eq 0 ]
	# every prefix of a short log, plus torn writes
	[ "$POWERCUT_RECORDS" -le "$POWERCUT_ALL" ] || true
	grep -q '^powercut: [0-9]* records, [0-9]* states checked, 0 failed$' <<<"$output"
}

@test "mkfs with checksums, quota and lost+found over an old volume with features" {
	old_volume "$T/old" 200M -O extra_attr,inode_checksum,sb_checksum
	run powercut_run "$T/old" check_mkfs -- "$MKFS" -f -q \
		-O extra_attr,inode_checksum,sb_checksum,flexible_inline_xattr,quota,lost_found @IMG
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "every prefix of a short log is checked, with torn writes" {
	old_volume "$T/old" 64M
	powercut_run "$T/old" check_mkfs -- "$MKFS" -f -q @IMG >"$T/out"
	cat "$T/out"
	n=$POWERCUT_RECORDS
	writes=$(awk '$2 == "write" && $4 > 2048' "$POWERCUT_LIST" | wc -l)
	echo "records $n, long writes $writes, checked $POWERCUT_CHECKED"
	[ "$n" -gt 5 ]
	[ "$POWERCUT_CHECKED" -eq $((n + 1 + 2 * writes)) ]
}

@test "the helper catches a writer that destroys the old volume in place" {
	old_volume "$T/old" 64M
	# zero the old main area in one write: from prefix 1 on, the old
	# superblock and checkpoint lead to a root inode that is gone
	main=$("$F2SB" "$T/old" | sed -n 's/^main_blkaddr=//p')
	blocks=$("$F2SB" "$T/old" | sed -n 's/^block_count=//p')
	[ -n "$main" ] && [ -n "$blocks" ]
	run powercut_run "$T/old" check_mkfs -- "$F2REPLAY" run @IMG \
		"zero:$((main * 4096)):$(((blocks - main) * 4096))" flush
	echo "$output"
	[ "$status" -ne 0 ]
	if grep -q '^prefix 0 torn 0: FAILED' <<<"$output"; then false; fi
	grep -q '^prefix 1 torn 0: FAILED' <<<"$output"
}

@test "a long log is sampled: at least POWERCUT_SAMPLE prefixes, first and last included" {
	# 400 writes by f2replay; the states are not judged (check: true),
	# only counted, and no torn writes, to keep this quick
	make_image "$T/dev" 4M
	ops=()
	for i in $(seq 0 399); do ops+=("write:$((i * 4096)):4096:0x5a"); done
	POWERCUT_TORN= powercut_run "$T/dev" true -- "$F2REPLAY" run @IMG "${ops[@]}" >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_RECORDS" -eq 400 ]
	plain=$(powercut_prefixes 400 | wc -l)
	[ "$plain" -ge "$POWERCUT_SAMPLE" ]
	[ "$plain" -lt 400 ]
	powercut_prefixes 400 | grep -qx 0
	powercut_prefixes 400 | grep -qx 400
	[ "$POWERCUT_CHECKED" -eq "$plain" ]
}
