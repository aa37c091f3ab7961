# SPDX-License-Identifier: GPL-2.0-or-later
# tests/dump/helpers.bash - images for the dump.f2fs suites, made from
# scratch: a source tree with every size class, loaded into a reference
# mkfs image by the reference sload.f2fs, plus byte patches at offsets
# computed from our own --json output (the generators are the tests; no
# image blobs).
#
#   make_src_tree DIR         files of 0 B, inline, 4 KiB, past 923 and 929
#                             addresses, indirect, sparse, 3000-entry and
#                             empty dirs, 255-byte name, symlinks (short,
#                             long, escaping), hard links
#   sload_image IMG SRC [MKFS OPTS...]   1 GiB reference mkfs + sload
#   patch_bytes IMG OFFSET HEX           write bytes (hex string) at OFFSET
#   le32 N / le16 N                      N as little-endian hex
#   json IMG JQ-FILTER DUMP-ARGS...      run our dump --json, apply jq

REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}
REF_DUMP=${REF_DUMP:-/sbin/dump.f2fs}

make_src_tree() {
	local d=$1 i
	mkdir -p "$d/d1/d2" "$d/empty" "$d/big" "$d/many"
	: >"$d/zero"
	echo hello >"$d/inline.txt"
	head -c 4096 /dev/urandom >"$d/f4k"
	head -c $((923 * 4096 + 5)) /dev/urandom >"$d/f923"
	head -c $((929 * 4096)) /dev/urandom >"$d/f929"
	head -c $((3000 * 4096 + 17)) /dev/urandom >"$d/big/f3000"
	truncate -s 20M "$d/sparse"
	echo middle | dd of="$d/sparse" bs=1 seek=10000000 conv=notrunc 2>/dev/null
	for i in $(seq 1 3000); do : >"$d/many/entry_with_a_longer_name_$i"; done
	echo deep >"$d/d1/d2/deep"
	ln -s inline.txt "$d/sl"
	ln -s "$(printf 'x%.0s' $(seq 1 300))" "$d/longsl"
	ln -s ../../../../../../etc/passwd "$d/escape"
	ln -s /etc/passwd "$d/absolute"
	ln "$d/f4k" "$d/hard"
	ln "$d/f4k" "$d/d1/hard2"
	: >"$d/$(printf 'n%.0s' $(seq 1 255))"
	chmod 0600 "$d/f4k"
	chmod 0751 "$d/d1"
}

sload_image() {
	local img=$1 src=$2; shift 2
	rm -f "$img"
	truncate -s 1G "$img"
	"$REF_MKFS" -q -f "$@" "$img" >/dev/null || return 1
	# sload 1.15 cannot load fifos; it exits 1 for those but loads the rest
	"$REF_SLOAD" -f "$src" "$img" >/dev/null 2>&1 || true
}

patch_bytes() {
	local img=$1 off=$2 hex=$3
	# shellcheck disable=SC2059
	printf "$(printf '%s' "$hex" | sed 's/../\\x&/g')" |
		dd of="$img" bs=1 seek="$off" conv=notrunc status=none
}

le32() { printf '%02x%02x%02x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }
le16() { printf '%02x%02x' $(($1 & 255)) $((($1 >> 8) & 255)); }

json() {
	local img=$1 filter=$2; shift 2
	"$DUMP" --json "$@" "$img" | jq -r "$filter"
}

# numeric "name=value" pairs from text "name   [0xhex : dec]" lines
text_numbers() {
	sed -nE 's/^([A-Za-z_][][A-Za-z0-9_.]*)[[:space:]]+\[0x[[:space:]]*[0-9a-f]+ : ([0-9]+)\]$/\1=\2/p'
}

# tree_manifest DIR: DIR in the fixtures' manifest format (see
# tests/lib/fixtures.bash): path type mode uid gid size nlink last.
# Regular files over 1 GiB get "big" instead of an md5 (check_big_sparse
# checks those without reading gigabytes of holes).
tree_manifest() {
	local dir=$1
	(cd "$dir" && find . -type f -size -1048577k -print0 | xargs -0r md5sum) |
		sed 's/^\([0-9a-f]*\)  /\1\t/' >"$dir.md5s"
	(cd "$dir" && find . -printf '%p\t%y\t%m\t%U\t%G\t%s\t%n\t%l\n') |
	awk -F'\t' -v OFS='\t' -v dir="$dir" '
		FILENAME ~ /md5s$/ { md5[$2] = $1; next }
		{
			last = "-"; size = $6
			if ($2 == "d") size = "-"
			else if ($2 == "f") last = ($1 in md5) ? md5[$1] : "big"
			else if ($2 == "l") last = $8
			else if ($2 == "c" || $2 == "b") {
				cmd = "stat -c %Hr,%Lr \"" dir "/" $1 "\""
				cmd | getline last; close(cmd)
			}
			printf "%s\t%s\t%04d\t%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, $5, size, $7, last
		}' "$dir.md5s" - | LC_ALL=C sort
	rm -f "$dir.md5s"
}

# tree_xattrs DIR: path<TAB>name<TAB>hex for every xattr under DIR
tree_xattrs() {
	local dir=$1
	(cd "$dir" && find . -print0 | LC_ALL=C sort -z |
	 xargs -0 getfattr -h -d -m - -e hex --absolute-names 2>/dev/null) |
	awk '/^# file: / { f = substr($0, 9); next }
	     /=/ { i = index($0, "="); v = substr($0, i + 1); sub(/^0x/, "", v);
		   if (v == "\"\"") v = "";
		   printf "%s\t%s\t%s\n", f, substr($0, 1, i - 1), v }' | LC_ALL=C sort
}

# compare_numbers OURS REF MIN: every name in both has the same value, and
# at least MIN names were compared
compare_numbers() {
	local ours=$1 ref=$2 min=$3 n
	LC_ALL=C join -t= <(LC_ALL=C sort -t= -k1,1 -u "$ours") <(LC_ALL=C sort -t= -k1,1 -u "$ref") -o 0,1.2,2.2 \
		>"$ours.joined"
	n=$(wc -l <"$ours.joined")
	awk -F= '$2 != $3 { print "differs: " $1 " ours " $2 " reference " $3; bad = 1 }
		 END { exit bad }' "$ours.joined" || return 1
	echo "$n fields compared"
	[ "$n" -ge "$min" ]
}

# compare_nat IMG MIN: our -n 0~-1 lines equal the reference's dump_nat
# (at least MIN entries); run in a scratch directory (the reference writes
# dump_nat, dump_sit, dump_ssa into the current directory)
compare_nat() {
	local img=$1 min=$2 t
	t=$(mktemp -d "${BATS_TEST_TMPDIR:-/tmp}/nat.XXXXXX")
	(cd "$t" && "$REF_DUMP" -n 0~-1 "$img" >/dev/null 2>&1)
	"$DUMP" -n 0~-1 "$img" | grep '^nid:' | sed 's/\tjournal$//' | tr -s ' \t' ' ' |
		sed 's/: /:/g' >"$t/ours"
	tr -s ' \t' ' ' <"$t/dump_nat" | sed 's/: /:/g' >"$t/ref"
	wc -l "$t/ref" "$t/ours"
	[ "$(wc -l <"$t/ref")" -ge "$min" ]
	diff "$t/ref" "$t/ours"
}

compare_sit() {
	local img=$1 t
	t=$(mktemp -d "${BATS_TEST_TMPDIR:-/tmp}/sit.XXXXXX")
	(cd "$t" && "$REF_DUMP" -s 0~-1 "$img" >/dev/null 2>&1)
	"$DUMP" -s 0~-1 "$img" | sed -n '/^segment_type/,$p' | sed 's/\tjournal$//' |
		tr -s ' \t\n' ' ' >"$t/ours"
	tr -s ' \t\n' ' ' <"$t/dump_sit" >"$t/ref"
	# the reference ends with a "valid_blocks:... valid_segs:..." line
	sed -i 's/ valid_blocks:.*//' "$t/ref"
	sed -i 's/ *$//' "$t/ref" "$t/ours"
	[ -s "$t/ref" ]
	cmp "$t/ref" "$t/ours" || { diff <(tr ' ' '\n' <"$t/ref") <(tr ' ' '\n' <"$t/ours") | head -20; false; }
}

compare_ssa() {
	local img=$1 min=$2 t
	t=$(mktemp -d "${BATS_TEST_TMPDIR:-/tmp}/ssa.XXXXXX")
	(cd "$t" && "$REF_DUMP" -a 0~-1 "$img" >/dev/null 2>&1)
	"$DUMP" -a 0~-1 "$img" | grep -E '^\[|^segno' | sed -E 's/,[0-9]+,[0-9]+\]/]/g' >"$t/ours"
	grep -E '^\[|^segno' "$t/dump_ssa" >"$t/ref"
	[ "$(grep -c '^segno' "$t/ref")" -ge "$min" ]
	diff "$t/ref" "$t/ours" | head -20
	cmp "$t/ref" "$t/ours"
}

# compare_sb_cp IMG: -d 1 superblock and checkpoint numbers equal the
# reference's
compare_sb_cp() {
	local img=$1 t
	t=$(mktemp -d "${BATS_TEST_TMPDIR:-/tmp}/sbcp.XXXXXX")
	"$DUMP" -d 1 "$img" | text_numbers | grep -v '^orphan_ino=' >"$t/ours"
	"$REF_DUMP" -d 1 "$img" 2>&1 | text_numbers >"$t/ref"
	compare_numbers "$t/ours" "$t/ref" 45
}
