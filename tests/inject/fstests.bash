# SPDX-License-Identifier: GPL-2.0-or-later
# tests/inject/fstests.bash - the volumes of fstests' f2fs cases that use
# inject.f2fs (009, 012, 019, 020, 022, 023), made from host trees by our
# mkfs, with the case's fault planted by our inject.f2fs; and the fsck
# checks the cases make.  Loaded by inject.bats and kernel.bats (after
# ../lib/common).

# the file types of f2fs/009, each also with a second hard link (NAME2)
FST_009_NAMES="reg chr blk fifo sock sym reg2 chr2 blk2 fifo2 sock2 sym2 dir"
FST_CASES="$(for n in $FST_009_NAMES; do printf '009-%s ' "$n"; done)012 019 020 022 023"
FST_HEART=$(printf '\xe2\x9d\xa4\xef\xb8\x8f')

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

# fst_009_tree DIR: the files of f2fs/009
fst_009_tree() {
	local t=$1 name suffix
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
			sym) ln -s /mnt/empty "$t/$name$suffix" ;;
			esac
		done
		ln "$t/${name}2" "$t/${name}2.link"
	done
	mkdir "$t/dir"
}

# fst_make CASE DIR: DIR/CASE.img (and its tree DIR/CASE.tree) with the
# case's fault planted; FST_CODE the problem code fsck -n must report
fst_make() {
	local c=$1 d=$2 img=$2/$1.img t=$2/$1.tree ino ind other
	case $c in
	009-*)
		# one tree and volume for every file type, copied per case
		[ -f "$d/009.img" ] || { fst_009_tree "$d/009.tree" && vol "$d/009.img" 64M "$d/009.tree"; } ||
			return 1
		cp --sparse=always "$d/009.img" "$img"
		ln -sfn 009.tree "$t"
		ino=$(inode_field "$img" "/${c#009-}" ino) || return 1
		# fstests: 0 links for a file, 1 for a directory
		inject "$img" --node --mb i_links --nid "$ino" --val "$([ "$c" = 009-dir ] && echo 1 || echo 0)"
		FST_CODE=0x050002 ;;
	012)
		mkdir -p "$t/dir"
		printf x >"$t/dir/$FST_HEART"
		vol "$img" 64M "$t" -O casefold -C utf8 --casefold /dir || return 1
		ino=$(inode_field "$img" "/dir/$FST_HEART" ino) || return 1
		inject "$img" --dent --mb d_hash --nid "$ino" --val 0x9a2ea068
		FST_CODE=0x060004 ;;
	019)
		# 1 MiB written at 3738 MiB: file block 956928, entry 937 of the
		# first indirect node (i_nid[2]); fstests writes 4, the file's
		# own inode, there.  fsck finds the inode reached twice
		# (NODE_DUP_NID) and sets the entry back to the direct node it
		# displaced (its footer places it there): nothing is lost.
		mkdir -p "$t"
		truncate -s 3739M "$t/testfile"
		head -c 1M /dev/urandom | dd of="$t/testfile" bs=1M seek=3738 conv=notrunc status=none
		vol "$img" 4G "$t" || return 1
		ino=$(inode_field "$img" /testfile ino) || return 1
		ind=$(inode_field "$img" /testfile 'i_nid\[2\]') || return 1
		[ "$ind" -gt 0 ] || return 1
		inject "$img" --node --mb addr --nid "$ind" --idx 937 --val "$ino"
		FST_CODE=0x040005 ;;
	020)
		mkdir -p "$t/testdir"
		setfattr -n user.abc -v 123 "$t/testdir"
		vol "$img" 64M "$t" || return 1
		ino=$(inode_field "$img" /testdir ino) || return 1
		inject "$img" --node --mb i_xattr_nid --nid "$ino" --val "$ino"
		FST_CODE=0x040005 ;;
	022)
		mkdir -p "$t"
		touch "$t/bar"
		head -c 8M /dev/urandom >"$t/foo"
		vol "$img" 64M "$t" || return 1
		ino=$(inode_field "$img" /foo ino) || return 1
		other=$(inode_field "$img" /bar ino) || return 1
		# NODE_OWNER; the direct node displaced is put back
		inject "$img" --node --mb i_nid --nid "$ino" --idx 0 --val "$other"
		FST_CODE=0x040003 ;;
	023)
		# an inode without F2_EXTRA_ATTR, which the kernel refuses on a
		# flexible_inline_xattr volume, and an inline xattr size it
		# cannot hold: the flag goes back, the size to the default
		mkdir -p "$t"
		touch "$t/testfile"
		vol "$img" 64M "$t" -O extra_attr,flexible_inline_xattr || return 1
		ino=$(inode_field "$img" /testfile ino) || return 1
		inject "$img" --node --mb i_inline --nid "$ino" --val 0x1 &&
			! grep -q "unknown or unsupported member" "$T/inject.out" &&
			inject "$img" --node --mb i_inline_xattr_size --nid "$ino" --val 2048 &&
			! grep -q "unknown or unsupported member" "$T/inject.out"
		FST_CODE=0x05000B ;;
	*)
		echo "fst_make: no case $c" >&2
		return 1 ;;
	esac
}
