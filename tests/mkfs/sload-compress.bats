#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sload-compress.bats - sload.f2fs -c on the host: for lz4, lzo and zstd,
# with and without -r (and lzo-rle), a tree of compressible text, random bytes, sparse
# files, files of 1, 3, 4, 5 and 1000 blocks and a partial last cluster;
# both fscks find the image clean, the read path extracts every file
# byte for byte, the files really are stored compressed (inode fields,
# a smaller image; -r: fewer valid blocks, the released flag), -i/-x pick
# the files, and bad combinations are refused with the image untouched.
# Linux's view is checked in tests/kernel/populate.bats.

bats_require_minimum_version 1.5.0
load ../lib/common

setup() {
	require_prog "$MKFS" "$SLOAD" "$FSCK" "$DUMP" "$F2EXTRACT"
	D=$BATS_TEST_TMPDIR
	mkdir -p "$D/src/sub"
	seq -f 'line %g of some compressible text' 1 120000 >"$D/src/text.txt"
	head -c 300000 /dev/urandom >"$D/src/random.bin"
	for n in 1 3 4 5 1000; do
		seq -f 'block text %g' 1 $((n * 400)) | head -c $((n * 4096)) >"$D/src/b$n.txt"
	done
	head -c $((9 * 4096 + 100)) "$D/src/text.txt" >"$D/src/partial.txt"
	# sparse: data, a hole, data not on a cluster boundary, a hole at the end
	head -c 20000 "$D/src/text.txt" | dd of="$D/src/sparse.txt" bs=1 seek=41060 \
		conv=notrunc status=none
	head -c 5000 "$D/src/text.txt" | dd of="$D/src/sparse.txt" bs=4096 seek=2000 \
		conv=notrunc status=none
	truncate -s 10M "$D/src/sparse.txt"
	echo tiny >"$D/src/tiny.txt"
	: >"$D/src/empty.txt"
	head -c 50000 "$D/src/text.txt" >"$D/src/sub/keep.log"
	truncate -s 256M "$D/a.img" "$D/p.img"
}

mkfs_compress() {
	"$MKFS" -q -f -O extra_attr,compression "$1"
}

# extracted IMG: the read path's copy of IMG equals the source
extracted() {
	rm -rf "$D/x" && mkdir "$D/x" && "$F2EXTRACT" "$1" "$D/x" >/dev/null
	diff -r "$D/src" "$D/x"
}

# field IMG PATH NAME: a field of PATH's inode (decimal)
field() {
	"$DUMP" --stat "$2" "$1" | sed -n "s/^$3 .*: \([0-9]*\)\]\$/\1/p"
}

# sit_blocks IMG: blocks the SIT holds valid (reservations are not there)
sit_blocks() {
	"$DUMP" -s 0~-1 "$1" | sed -n 's/.*vblocks: *\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s }'
}

valid_blocks() {
	"$F2SB" "$1" --cp | sed -n 's/^cp.valid_block_count=//p'
}

check_load() {
	local algo=$1 num=$2 rel=$3
	mkfs_compress "$D/p.img"
	"$SLOAD" -q -f "$D/src" "$D/p.img" >/dev/null
	mkfs_compress "$D/a.img"
	"$SLOAD" -q -c -a "$algo" $rel -f "$D/src" "$D/a.img" >/dev/null
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
	extracted "$D/a.img"
	# the compressible files are compressed, as the inode says
	for f in /text.txt /b1000.txt /b5.txt /sub/keep.log /random.bin /tiny.txt; do
		[ "$(field "$D/a.img" "$f" i_flags)" -eq 4 ]
		[ "$(field "$D/a.img" "$f" i_compress_algorithm)" -eq "$num" ]
		[ "$(field "$D/a.img" "$f" i_log_cluster_size)" -eq 2 ]
	done
	# text compresses well: far fewer blocks written than a plain load
	[ "$(sit_blocks "$D/a.img")" -lt $(($(sit_blocks "$D/p.img") * 2 / 3)) ]
	if [ -z "$rel" ]; then
		# a cluster of text saves two or three of its four blocks
		[ "$(field "$D/a.img" /text.txt i_compr_blocks)" -gt 600 ]
		[ "$(field "$D/a.img" /b4.txt i_compr_blocks)" -ge 2 ]
		# random bytes do not compress; 1 and 3 blocks are no full cluster
		[ "$(field "$D/a.img" /random.bin i_compr_blocks)" -eq 0 ]
		[ "$(field "$D/a.img" /b3.txt i_compr_blocks)" -eq 0 ]
		# reservations keep every cluster charged: i_blocks as plain
		[ "$(field "$D/a.img" /text.txt i_blocks)" -eq "$(field "$D/p.img" /text.txt i_blocks)" ]
	else
		[ $(($(field "$D/a.img" /text.txt i_inline) & 0x80)) -ne 0 ]
		[ "$(field "$D/a.img" /text.txt i_compr_blocks)" -eq 0 ]
		[ "$(field "$D/a.img" /text.txt i_blocks)" -lt \
			$(($(field "$D/p.img" /text.txt i_blocks) / 2)) ]
		[ "$(valid_blocks "$D/a.img")" -lt "$(valid_blocks "$D/p.img")" ]
	fi
}

@test "sload -c: lz4, both fscks clean, files extract identically and are compressed" {
	check_load lz4 1 ""
}

@test "sload -c -r: lz4 released: fewer valid blocks, the released flag, identical files" {
	check_load lz4 1 -r
}

@test "sload -c: lzo" {
	check_load lzo 0 ""
}

@test "sload -c -r: lzo released" {
	check_load lzo 0 -r
}

@test "sload -c: zstd" {
	check_load zstd 2 ""
}

@test "sload -c -r: zstd released" {
	check_load zstd 2 -r
}

@test "sload -c -a lzo-rle: stored as lzo-rle (plain LZO1X, which its decoders read)" {
	check_load lzo-rle 3 ""
}

@test "sload -c: lz4hc is stored as lz4; -L 8 and -m 3 clusters; both fscks clean" {
	mkfs_compress "$D/a.img"
	"$SLOAD" -q -c -a lz4hc -L 8 -m 3 -f "$D/src" "$D/a.img"
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
	extracted "$D/a.img"
	[ "$(field "$D/a.img" /text.txt i_compress_algorithm)" -eq 1 ]
	[ "$(field "$D/a.img" /text.txt i_log_cluster_size)" -eq 8 ]
	[ "$(field "$D/a.img" /text.txt i_compr_blocks)" -gt 500 ]
}

@test "sload -c -i/-x: only the extensions listed, or all but those" {
	mkfs_compress "$D/a.img"
	"$SLOAD" -q -c -i txt -i log -f "$D/src" "$D/a.img"
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
	extracted "$D/a.img"
	[ "$(field "$D/a.img" /text.txt i_flags)" -eq 4 ]
	[ "$(field "$D/a.img" /sub/keep.log i_flags)" -eq 4 ]
	[ "$(field "$D/a.img" /random.bin i_flags)" -eq 0 ]
	mkfs_compress "$D/a.img"
	"$SLOAD" -q -c -x txt -f "$D/src" "$D/a.img"
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
	extracted "$D/a.img"
	[ "$(field "$D/a.img" /text.txt i_flags)" -eq 0 ]
	[ "$(field "$D/a.img" /sub/keep.log i_flags)" -eq 4 ]
	[ "$(field "$D/a.img" /random.bin i_flags)" -eq 4 ]
}

@test "sload -c: refusals leave the image untouched" {
	"$MKFS" -q -f -O extra_attr "$D/a.img"
	cp "$D/a.img" "$D/a.orig"
	run "$SLOAD" -c -f "$D/src" "$D/a.img"
	[ "$status" -eq 1 ] && [[ $output == *"compression feature"* ]]
	cmp "$D/a.img" "$D/a.orig"
	mkfs_compress "$D/a.img"
	cp "$D/a.img" "$D/a.orig"
	run "$SLOAD" -c -a gzip -f "$D/src" "$D/a.img"
	[ "$status" -eq 16 ] && [[ $output == *"'gzip' unknown"* ]]
	run "$SLOAD" -c -i txt -x bin -f "$D/src" "$D/a.img"
	[ "$status" -eq 16 ] && [[ $output == *"-i and -x do not mix"* ]]
	run "$SLOAD" -c -L 9 -f "$D/src" "$D/a.img"
	[ "$status" -eq 16 ]
	run "$SLOAD" -c -L 2 -m 4 -f "$D/src" "$D/a.img"
	[ "$status" -eq 16 ] && [[ $output == *"cannot save"* ]]
	run "$SLOAD" -a lz4 -f "$D/src" "$D/a.img"
	[ "$status" -eq 16 ] && [[ $output == *"needs -c"* ]]
	cmp "$D/a.img" "$D/a.orig"
}

@test "mkfs.f2fs --root --compress: the same layout options as sload.f2fs -c" {
	"$MKFS" -q -f -O extra_attr,compression --root "$D/src" --compress zstd --compress-log 3 \
		--compress-except bin --compress-release "$D/a.img"
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
	extracted "$D/a.img"
	[ "$(field "$D/a.img" /text.txt i_compress_algorithm)" -eq 2 ]
	[ "$(field "$D/a.img" /text.txt i_log_cluster_size)" -eq 3 ]
	[ $(($(field "$D/a.img" /text.txt i_inline) & 0x80)) -ne 0 ]
	[ "$(field "$D/a.img" /random.bin i_flags)" -eq 0 ]
	run "$MKFS" -q -f --root "$D/src" --compress lz4 "$D/a.img"
	[ "$status" -ne 0 ] && [[ $output == *"extra_attr,compression"* ]]
	run "$MKFS" -q -f -O extra_attr,compression --root "$D/src" --compress-log 3 "$D/a.img"
	[ "$status" -ne 0 ] && [[ $output == *"needs --compress"* ]]
}

@test "sload -c -r on a read-only volume (mkfs -O ro,extra_attr,compression): both fscks clean, identical files" {
	"$MKFS" -q -f -O ro,extra_attr,compression "$D/a.img"
	"$SLOAD" -q -c -r -a lz4 -f "$D/src" "$D/a.img" >/dev/null
	"$FSCK" -f -n "$D/a.img"
	ref_fsck_clean "$D/a.img"
	extracted "$D/a.img"
	[ $(($(field "$D/a.img" /text.txt i_inline) & 0x80)) -ne 0 ]
	[ "$(field "$D/a.img" /text.txt i_compr_blocks)" -eq 0 ]
}
