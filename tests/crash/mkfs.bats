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

# The reference fsck finds IMG clean, or clean but for populate's newer
# checkpoint pack, whose torn head it reports as "Invalid CP CRC" before
# using mkfs's (as the kernel does)
ref_fsck_older_pack() {
	local status=0
	"$REF_FSCK" --dry-run "$1" </dev/null >"$1.ref" 2>&1 || status=$?
	grep -v '^[[:space:]]*Invalid CP CRC: ' "$1.ref" >"$1.ref.rest"
	f2_ref_fsck_verdict "$1.ref.rest" $status && return 0
	echo "reference fsck does not find $1 clean (exit $status):"
	cat "$1.ref"
	return 1
}

# check_mkfs IMG K T: old intact, refused, or new and clean; with
# MKFS_MID set (a summary file), that tree too, clean: mkfs --root's empty
# new volume, committed before populate fills it
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
		if [ -n "${MKFS_MID:-}" ] && [ "$got" = "$(cat "$MKFS_MID")" ]; then
			ref_fsck_older_pack "$img"
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

@test "mkfs --root (mkfs, then populate, one process) over an old volume: old, refused, empty new or whole tree" {
	local u=3c1b2a4e-5f60-4718-9a2b-3c4d5e6f7081
	old_volume "$T/old" 64M
	mkdir -p "$T/tree/d/e"
	echo small >"$T/tree/small"
	seq 1 3000 >"$T/tree/blocks"
	echo deep >"$T/tree/d/e/deep"
	ln -s small "$T/tree/link"
	# the empty volume mkfs commits before populate: the same mkfs alone
	cp --sparse=always "$T/old" "$T/mid"
	run_mkfs "$MKFS" -f -q -U "$u" -T 1700000000 "$T/mid"
	powercut_summary "$T/mid" >"$T/mid.sum"
	MKFS_MID=$T/mid.sum powercut_run "$T/old" check_mkfs -- \
		"$MKFS" -f -q -U "$u" -T 1700000000 --root "$T/tree" @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	# one log holds both: mkfs's checkpoint and populate's after it
	[ "$(grep -c ' flush ' "$POWERCUT_LIST")" -ge 4 ]
	[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	powercut_summary "$POWERCUT_FINAL" | grep -q '^/d/e/deep f '
	# the cut between the two halves (the flush after mkfs's last
	# superblock write, at byte 1024 or 5120) shows the empty new volume
	local k
	k=$(awk '$2 == "write" && $3 < 8192 { sb = $1 } END { print sb }' "$POWERCUT_LIST")
	k=$(awk -v sb="$k" '$2 == "flush" && $1 > sb { print $1; exit }' "$POWERCUT_LIST")
	[ "$k" -lt "$POWERCUT_RECORDS" ]
	powercut_state "$k" 0 "$T/k.img"
	diff "$T/mid.sum" <(powercut_summary "$T/k.img")
}

@test "every prefix of a short log is checked, with torn writes" {
	old_volume "$T/old" 64M
	powercut_run "$T/old" check_mkfs -- "$MKFS" -f -q @IMG >"$T/out"
	cat "$T/out"
	n=$POWERCUT_RECORDS
	# record I (prefix I-1 before it) is torn at 512 bytes when I-1 is
	# even, at 2048 when odd, if it is a longer write
	writes=$(awk '$2 == "write" && $4 > (($1 - 1) % 2 ? 2048 : 512)' "$POWERCUT_LIST" | wc -l)
	echo "records $n, torn writes $writes, checked $POWERCUT_CHECKED"
	[ "$n" -gt 5 ]
	[ "$writes" -gt 2 ]
	[ "$POWERCUT_CHECKED" -eq $((n + 1 + writes)) ]
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
	plain=$(powercut_plan 400 | wc -l)
	[ "$plain" -ge "$POWERCUT_SAMPLE" ]
	[ "$plain" -lt 400 ]
	powercut_plan 400 | grep -q '^0 1$'
	powercut_plan 400 | grep -q '^400 1$'
	[ "$POWERCUT_CHECKED" -eq "$plain" ]
}
