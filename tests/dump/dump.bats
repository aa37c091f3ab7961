#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/dump/dump.bats - dump.f2fs against the reference dump.f2fs (same
# numbers for superblock, checkpoint, NAT, SIT, SSA, inode; layout may
# differ), --json against our text output, --ls, --stat, --extract of a
# tree loaded by the reference sload.f2fs, and the command line.
load ../lib/common
load helpers

setup_file() {
	export SRC=$BATS_FILE_TMPDIR/src IMG=$BATS_FILE_TMPDIR/s.img
	make_src_tree "$SRC"
	sload_image "$IMG" "$SRC"
}

setup() {
	require_prog "$DUMP" "$REF_DUMP" "$REF_SLOAD" "$REF_MKFS"
	command -v jq >/dev/null || { echo "jq is needed"; return 1; }
}

@test "dump: superblock and checkpoint numbers equal the reference's (3 mkfs option sets)" {
	local t=$BATS_TEST_TMPDIR opts i=0
	for opts in "" "-O extra_attr,inode_checksum,flexible_inline_xattr,sb_checksum,compression,quota,lost_found" "-i"; do
		truncate -s 2G "$t/r$i.img"
		# shellcheck disable=SC2086
		"$REF_MKFS" -q -f $opts "$t/r$i.img" >/dev/null
		"$DUMP" -d 1 "$t/r$i.img" | text_numbers >"$t/ours$i"
		"$REF_DUMP" -d 1 "$t/r$i.img" 2>&1 | text_numbers >"$t/ref$i"
		echo "mkfs $opts:"
		compare_numbers "$t/ours$i" "$t/ref$i" 45
		i=$((i + 1))
	done
}

@test "dump: our mkfs image: superblock and checkpoint equal the reference dump's" {
	local t=$BATS_TEST_TMPDIR
	truncate -s 1G "$t/o.img"
	run_mkfs "$MKFS" -f -O extra_attr,inode_checksum "$t/o.img"
	"$DUMP" -d 1 "$t/o.img" | text_numbers >"$t/ours"
	"$REF_DUMP" -d 1 "$t/o.img" 2>&1 | text_numbers >"$t/ref"
	compare_numbers "$t/ours" "$t/ref" 45
}

@test "dump: -n 0~-1 NAT entries equal the reference's dump_nat" {
	compare_nat "$IMG" 3000
}

@test "dump: -s 0~-1 SIT entries (counts, types, valid maps) equal the reference's" {
	compare_sit "$IMG"
}

@test "dump: -a 0~-1 SSA entries equal the reference's dump_ssa" {
	compare_ssa "$IMG" 100
}

@test "dump: -i inode fields equal the reference's (root, a file with nodes, a symlink)" {
	local t=$BATS_TEST_TMPDIR ino
	for ino in 3 $(json "$IMG" '.dentries[] | select(.name=="f929" or .name=="sl") | .ino' --ls /); do
		"$DUMP" -i "$ino" "$IMG" | text_numbers | grep -v '^footer\|^blkaddr=\|^ino=' >"$t/ours$ino"
		"$REF_DUMP" -i "$ino" "$IMG" 2>&1 | text_numbers >"$t/ref$ino"
		echo "ino $ino:"
		compare_numbers "$t/ours$ino" "$t/ref$ino" 25
	done
}

@test "dump: --json parses with jq and carries the numbers of the text output" {
	local t=$BATS_TEST_TMPDIR sec
	"$DUMP" --json -d 1 -n 0~-1 -s 0~-1 -a 0~3 -i 3 -M "$IMG" >"$t/out.json"
	jq -e . "$t/out.json" >/dev/null
	"$DUMP" -d 1 "$IMG" | text_numbers >"$t/text"
	for sec in superblock checkpoint; do
		jq -r ".$sec | to_entries[] | select(.value|type==\"number\") | \"\(.key)=\(.value)\"" \
			"$t/out.json" >>"$t/json"
	done
	sort -u "$t/text" >"$t/a"
	sort -u "$t/json" | grep -v '^pack' >"$t/b"
	comm -3 "$t/a" <(sort -u "$t/json") | grep -v -e '^	pack' -e 'journal_entries' -e 'pack[12]_' -e '_journal\[' -e '^orphan_ino=' && false
	[ "$(wc -l <"$t/a")" -gt 60 ]
	# NAT and SIT: the same entries as text
	[ "$(jq '.nat | length' "$t/out.json")" -eq "$("$DUMP" -n 0~-1 "$IMG" | grep -c '^nid:')" ]
	[ "$(jq '[.sit[] | .vblocks] | add' "$t/out.json")" -eq \
	  "$(jq '.checkpoint.valid_block_count' "$t/out.json")" ]
	[ "$(jq '.ssa | length' "$t/out.json")" -eq 3 ]
	[ "$(jq '.inode.dentries | length' "$t/out.json")" -ge 15 ]
	[ "$(jq '.map.valid_blocks' "$t/out.json")" -eq "$(jq '.checkpoint.valid_block_count' "$t/out.json")" ]
}

@test "dump: --ls lists like ls -l, -h gives human sizes, --stat one inode" {
	run "$DUMP" --ls / "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '^-rw------- +3 .* 4096 .* f4k$'
	echo "$output" | grep -qE '^lrwxrwxrwx .* sl -> inline.txt$'
	echo "$output" | grep -qE '^drwxr-x--x .* d1$'
	run "$DUMP" -h --ls /big "$IMG"
	echo "$output" | grep -qE ' 12M .* f3000$'
	run "$DUMP" --stat /d1/d2/deep "$IMG"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qE '^i_size[[:space:]]+\[0x +5 : 5\]'
	run "$DUMP" --json --stat /sl "$IMG"
	[ "$(echo "$output" | jq -r .inode.target)" = inline.txt ]
	run "$DUMP" --ls /nonexistent "$IMG"
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "no entry 'nonexistent'"
}

@test "dump: --extract / reproduces the sloaded tree (content, size, mode, type, targets, links)" {
	local t=$BATS_TEST_TMPDIR
	run "$DUMP" --extract / --output "$t/out" "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	(cd "$SRC" && find . -mindepth 1 ! -type d -printf '%y %m %n %s %l %p\n' | sort -k6) >"$t/a"
	(cd "$t/out" && find . -mindepth 1 ! -type d -printf '%y %m %n %s %l %p\n' | sort -k6) >"$t/b"
	diff "$t/a" "$t/b"
	(cd "$SRC" && find . -type d -printf '%m %p\n' | sort -k2) >"$t/a"
	(cd "$t/out" && find . -type d -printf '%m %p\n' | sort -k2) >"$t/b"
	diff "$t/a" "$t/b"
	(cd "$SRC" && find . -type f -exec md5sum {} + | sort -k2) >"$t/a"
	(cd "$t/out" && find . -type f -exec md5sum {} + | sort -k2) >"$t/b"
	diff "$t/a" "$t/b"
	# the hard links are one inode, the sparse file stays sparse
	[ "$(stat -c %i "$t/out/f4k")" = "$(stat -c %i "$t/out/d1/hard2")" ]
	[ "$(stat -c %Y "$t/out/f4k")" = "$(stat -c %Y "$SRC/f4k")" ]
}

@test "dump: --extract of one file and of a subtree" {
	local t=$BATS_TEST_TMPDIR
	"$DUMP" --extract /d1/d2/deep --output "$t/one" "$IMG"
	[ "$(cat "$t/one/deep")" = deep ]
	"$DUMP" --extract /d1 --output "$t/sub" "$IMG"
	[ "$(cat "$t/sub/d1/d2/deep")" = deep ]
	cmp "$t/sub/d1/hard2" "$SRC/f4k"
}

@test "dump: command line: --help, -V, bad ranges and numbers, missing device" {
	run "$DUMP" --help
	[ "$status" -eq 0 ]
	echo "$output" | grep -q -- '--extract'
	run "$DUMP" -V
	[ "$status" -eq 0 ]
	run "$DUMP" -n 5 "$IMG"
	[ "$status" -eq 2 ]
	run "$DUMP" -i zz "$IMG"
	[ "$status" -eq 2 ]
	run "$DUMP"
	[ "$status" -eq 2 ]
	run "$DUMP" --extract / "$IMG"
	[ "$status" -eq 2 ]
	run "$DUMP" "$BATS_TEST_TMPDIR/missing.img"
	[ "$status" -eq 2 ]
	run "$DUMP" -i 99999999 "$IMG"
	[ "$status" -eq 1 ]
	echo "$output" | grep -q 'beyond the NAT'
}

@test "dump: never writes: any write would fail (F2_IO_FAULT=write:1), the image is unchanged" {
	local t=$BATS_TEST_TMPDIR before
	before=$(md5sum <"$IMG")
	F2_IO_FAULT=write:1 run "$DUMP" --json -d 1 -n 0~-1 -s 0~-1 -a 0~-1 -M -i 3 "$IMG"
	[ "$status" -eq 0 ]
	F2_IO_FAULT=write:1 run "$DUMP" --extract / --output "$t/out" "$IMG"
	[ "$status" -eq 0 ]
	[ "$(md5sum <"$IMG")" = "$before" ]
	# and it works on an image it cannot open for writing
	chmod 0444 "$IMG"
	run "$DUMP" --ls / "$IMG"
	chmod 0644 "$IMG"
	[ "$status" -eq 0 ]
}

@test "dump: inline xattrs: a POSIX ACL (f2fs layout, empty name) is restored as system.posix_acl_access, user. as is" {
	local t=$BATS_TEST_TMPDIR img=$BATS_TEST_TMPDIR/acl.img a
	cp --sparse=always "$IMG" "$img"
	a=$(json "$img" '.inode.blkaddr' --stat /f4k)
	[ "$(json "$img" '.inode.i_inline' --stat /f4k)" = 1 ]	# inline xattr area, 50 words
	# header (magic, refcount 1, reserved), an ACL entry (index 2, no name,
	# 28 bytes: owner rw, user 1000 r, group -, mask -, other -), a user.
	# entry "abc" = "hello", and the end mark
	patch_bytes "$img" $((a * 4096 + 360 + 873 * 4)) \
"1120f5f201000000$(printf '0%.0s' $(seq 1 32))\
02001c00""01000000""01000600""02000400e8030000""04000000""10000000""20000000\
010305006162636865""6c6c6f""00000000"
	run "$DUMP" --json --stat /f4k "$img"
	echo "$output" | jq -e '.inode.xattrs | length == 2'
	"$DUMP" --extract /f4k --output "$t/out" "$img"
	[ "$(getfattr -h --only-values -n user.abc "$t/out/f4k")" = hello ]
	[ "$(getfattr -h -e hex -n system.posix_acl_access "$t/out/f4k" | sed -n 's/^system.posix_acl_access=0x//p')" = \
	  "0200000001000600ffffffff02000400e803000004000000ffffffff10000000ffffffff20000000ffffffff" ]
	[ "$(stat -c %a "$t/out/f4k")" = 600 ]
}
