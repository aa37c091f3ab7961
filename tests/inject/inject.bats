#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/inject/inject.bats - inject.f2fs with fstests' command line: the
# member lists fstests probes (-h), the inject/fsck steps of fstests'
# f2fs/009, 012, 019, 020, 022 and 023 (each fault reported by fsck -n
# with exit 4, repaired by -y with exit 1, then clean), a fault in every
# area found by our fsck and, where it checks the same thing, by the
# reference fsck; checksums redone unless --keep-crc; --dry-run, unknown
# members and mounted devices write nothing.

load ../lib/common

INJECT=${INJECT:-$F2_BUILD/inject/inject.f2fs}
f2_unwrap INJECT

setup() {
	require_prog "$INJECT" "$MKFS" "$FSCK" "$DUMP"
	T=$BATS_TEST_TMPDIR
}

# vol IMG SIZE TREE [MKFS OPTIONS...]: a fresh volume loaded from TREE
vol() {
	make_image "$1" "$2"
	run_mkfs "$MKFS" -f -q "${@:4}" --root "$3" "$1"
}

# inode_field IMG PATH FIELD: the field's decimal value in dump.f2fs --stat
inode_field() {
	local l re="^$3[[:space:]]+\\[0x *[0-9a-f]+ : ([0-9]+)\\]"
	while IFS= read -r l; do
		[[ $l =~ $re ]] && { echo "${BASH_REMATCH[1]}"; return 0; }
	done < <("$DUMP" --stat "$2" "$1" 2>/dev/null)
	echo "no $3 for $2" >&2
	return 1
}

# inject IMG ARGS...: inject.f2fs ARGS IMG, which must succeed
inject() {
	local img=$1
	shift
	"$INJECT" "$@" "$img" >"$T/inject.out" 2>&1 || { cat "$T/inject.out"; return 1; }
}

# found IMG CODE: fsck -f -n exits 4 and reports CODE
found() {
	local rc=0
	"$FSCK" -f -n "$1" </dev/null >"$T/n.out" 2>&1 || rc=$?
	f2_codes "$T/n.out"
	if [ "$rc" -ne 4 ] || [[ " $REPLY " != *" $2 "* ]]; then
		cat "$T/n.out"
		echo "fsck -n: exit $rc, codes '$REPLY'; want 4 and $2"
		return 1
	fi
}

# repaired IMG: fsck -f -y exits 1, and then -f -n finds nothing
repaired() {
	local rc=0
	"$FSCK" -f -y "$1" </dev/null >"$T/y.out" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || { cat "$T/y.out"; echo "fsck -y: exit $rc"; return 1; }
	rc=0; "$FSCK" -f -n "$1" </dev/null >"$T/a.out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$T/a.out"; echo "after -y: exit $rc"; return 1; }
}

@test "inject -h lists the members fstests probes, one 'member:' line each" {
	local pair area mb
	# _require_inject_f2fs_command passes 0 to sb/cp/nat/sit, nothing to the rest
	for pair in node:i_links node:addr node:i_xattr_nid node:i_nid node:i_inline \
		node:i_inline_xattr_size dent:d_hash sb:magic sb:s_stop_reason sb:s_errors \
		sb:feature sb:devs.path cp:checkpoint_ver cp:ckpt_flags cp:cur_node_segno \
		cp:alloc_type cp:crc cp:elapsed_time nat:version nat:ino nat:block_addr \
		sit:vblocks sit:valid_map sit:mtime ssa:entry_type ssa:check_sum ssa:nid \
		ssa:version ssa:ofs_in_node node:nid node:ino node:flag node:cp_ver \
		node:next_blkaddr node:i_ext.blk_addr node:i_addr dent:d_bitmap dent:d_ino \
		dent:d_ftype dent:filename; do
		area=${pair%%:*} mb=${pair#*:}
		case $area in
		sb|cp|nat|sit) run "$INJECT" "--$area" 0 -h ;;
		*) run "$INJECT" "--$area" "" -h ;;
		esac
		[ "$status" -eq 0 ] || { echo "$output"; return 1; }
		grep -q "^  $mb: " <<<"$output" || { echo "$output"; echo "--$area lacks $mb"; return 1; }
	done
	run "$INJECT" -h
	[ "$status" -eq 0 ] && [[ $output == *"--dent"* ]]
	run "$INJECT" -V
	[ "$status" -eq 0 ] && [[ $output == "inject.f2fs "* ]]
}

@test "fstests f2fs/009: i_links of each file type, with and without a hard link, found and repaired" {
	local t=$T/tree name ino links
	mkdir -p "$t"
	for name in reg chr blk fifo sock sym; do
		for suffix in "" 2; do
			case $name in
			reg) touch "$t/$name$suffix" ;;
			chr) mknod "$t/$name$suffix" c 9 0 ;;
			blk) mknod "$t/$name$suffix" b 8 0 ;;
			fifo) mkfifo "$t/$name$suffix" ;;
			sock) python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" \
				"$t/$name$suffix" ;;
			sym) ln -s "$T/empty" "$t/$name$suffix" ;;
			esac
		done
		ln "$t/${name}2" "$t/${name}2.link"
	done
	mkdir "$t/dir"
	vol "$T/base.img" 64M "$t"
	for name in reg chr blk fifo sock sym reg2 chr2 blk2 fifo2 sock2 sym2 dir; do
		cp --sparse=always "$T/base.img" "$T/img"
		ino=$(inode_field "$T/img" "/$name" ino)
		# fstests: 0 links for a file, 1 for a directory
		links=0
		[ "$name" != dir ] || links=1
		inject "$T/img" --node --mb i_links --nid "$ino" --val "$links"
		found "$T/img" 0x050002 || { echo "in /$name"; return 1; }
		repaired "$T/img" || { echo "in /$name"; return 1; }
		[ "$(inode_field "$T/img" "/$name" i_links)" -eq "$(inode_field "$T/base.img" "/$name" i_links)" ]
	done
}

@test "fstests f2fs/012: d_hash of an entry in a casefolded directory, found and repaired" {
	mkdir -p "$T/t/dir"
	printf x >"$T/t/dir/$(printf '\xe2\x9d\xa4\xef\xb8\x8f')"
	vol "$T/img" 64M "$T/t" -O casefold -C utf8 --casefold /dir
	inject "$T/img" --dent --mb d_hash --nid "$(inode_field "$T/img" "/dir/$(printf '\xe2\x9d\xa4\xef\xb8\x8f')" ino)" \
		--val 0x9a2ea068
	found "$T/img" 0x060004
	repaired "$T/img"
}

@test "fstests f2fs/019: an indirect node's entry pointed at the inode, found and repaired" {
	local ino ind
	# the file of f2fs/019: 1 MiB written at 3738 MiB (through i_nid[2])
	mkdir -p "$T/t"
	truncate -s 3739M "$T/t/testfile"
	head -c 1M /dev/urandom | dd of="$T/t/testfile" bs=1M seek=3738 conv=notrunc status=none
	vol "$T/img" 4G "$T/t"
	ino=$(inode_field "$T/img" /testfile ino)
	ind=$(inode_field "$T/img" /testfile 'i_nid\[2\]')
	[ "$ind" -gt 0 ]
	# entry 937 of the first indirect node covers file block 956928 (3738 MiB);
	# fstests writes 4, the file's own inode, there
	inject "$T/img" --node --mb addr --nid "$ind" --idx 937 --val "$ino"
	# the inode reached a second time (NODE_DUP_NID); the direct node it
	# displaced is left unreachable and freed with its data
	found "$T/img" 0x040005
	repaired "$T/img"
}

@test "fstests f2fs/020: a directory's i_xattr_nid pointed at itself, found and repaired" {
	local ino
	mkdir -p "$T/t/testdir"
	setfattr -n user.abc -v 123 "$T/t/testdir"
	vol "$T/img" 64M "$T/t"
	ino=$(inode_field "$T/img" /testdir ino)
	inject "$T/img" --node --mb i_xattr_nid --nid "$ino" --val "$ino"
	found "$T/img" 0x040005
	repaired "$T/img"
	[ "$(inode_field "$T/img" /testdir i_xattr_nid)" -ne "$ino" ]
}

@test "fstests f2fs/022: a file's first direct node pointed at another inode, found and repaired" {
	local foo bar
	mkdir -p "$T/t"
	touch "$T/t/bar"
	head -c 8M /dev/urandom >"$T/t/foo"
	vol "$T/img" 64M "$T/t"
	foo=$(inode_field "$T/img" /foo ino)
	bar=$(inode_field "$T/img" /bar ino)
	inject "$T/img" --node --mb i_nid --nid "$foo" --idx 0 --val "$bar"
	found "$T/img" 0x040003
	repaired "$T/img"
}

@test "fstests f2fs/023: i_inline and i_inline_xattr_size of a file, found and repaired" {
	local ino
	mkdir -p "$T/t"
	touch "$T/t/testfile"
	vol "$T/img" 64M "$T/t" -O extra_attr,flexible_inline_xattr
	ino=$(inode_field "$T/img" /testfile ino)
	run "$INJECT" --node --mb i_inline --nid "$ino" --val 0x1 "$T/img"
	[ "$status" -eq 0 ] && [[ $output != *"unknown or unsupported member"* ]]
	run "$INJECT" --node --mb i_inline_xattr_size --nid "$ino" --val 2048 "$T/img"
	[ "$status" -eq 0 ] && [[ $output != *"unknown or unsupported member"* ]]
	# without F2_EXTRA_ATTR the extra area reads as i_addr[0]: an address
	# outside the main area (DATA_ADDR_RANGE), cleared
	found "$T/img" 0x040009
	repaired "$T/img"
}
