#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# sparse.bats - Android sparse images (lib/io/sparse.c) against Debian's
# libsparse tools (android-sdk-libsparse-utils): mkfs.f2fs -S expands with
# simg2img to exactly what mkfs writes on a raw file, byte-reproducibly;
# img2simg's images are read, repaired and changed by our tools (sload.f2fs
# too) exactly as the raw ones are; both fscks find mkfs -S output clean; damaged sparse
# headers are refused by every tool with one message and no crash;
# mount.f2fs refuses sparse images (the kernel cannot read them).

load ../lib/common

SIZE=104857600		# 100 MiB, mkfs -S's example size
UUID=6e1f0e53-9c1a-4c43-8a44-2f1d2b0c7a11
OPTS=(-q -U "$UUID" -T 1700000000)
F2LABEL=${F2LABEL:-$F2_BUILD/tune/f2fslabel}
MOUNT_F2FS=${MOUNT_F2FS:-$F2_BUILD/mount-helper/mount.f2fs}
f2_unwrap F2LABEL MOUNT_F2FS

setup() {
	require_prog "$MKFS" "$FSCK" "$DUMP" "$TUNE" "$INJECT" "$GC" "$DEFRAG" "$F2LABEL"
	local p
	for p in simg2img img2simg; do
		command -v $p >/dev/null || { echo "$p missing: apt-get install android-sdk-libsparse-utils" >&2; return 1; }
	done
	T=$(f2_tmp)
	mkdir -p "$T/tree/d"
	echo hello >"$T/tree/d/f"
	head -c 300000 /dev/urandom >"$T/tree/big"
	# a block of one repeated word and one of zeroes: FILL and DONT_CARE
	# chunks inside file data
	printf 'abcd%.0s' $(seq 1024) >"$T/tree/fill"
	head -c 8192 /dev/zero >"$T/tree/zeroes"
}

# raw_mkfs OUT ARGS...: our mkfs on a raw file of SIZE bytes
raw_mkfs() {
	local out=$1; shift
	make_image "$out" "$SIZE"
	run_mkfs "$MKFS" -f "$@" "$out"
}

# expand SIMG RAW: simg2img, which must accept SIMG
expand() {
	rm -f "$2"
	simg2img "$1" "$2"
}

# unchanged A B: fail with the differing bytes shown
unchanged() {
	cmp "$1" "$2" || { echo "$1 differs from $2" >&2; return 1; }
}

@test "sparse: mkfs -S expands (simg2img) to the raw mkfs, byte for byte" {
	local set
	for set in "" "-g android" "-O extra_attr,inode_checksum,sb_checksum -l data" \
		   "--root $T/tree"; do
		echo "options: $set"
		rm -f "$T/a.simg"
		# shellcheck disable=SC2086
		run_mkfs "$MKFS" "${OPTS[@]}" $set -S "$SIZE" "$T/a.simg"
		[ "$(head -c 4 "$T/a.simg" | od -An -tx4 | tr -d ' ')" = ed26ff3a ]
		expand "$T/a.simg" "$T/a.raw"
		[ "$(stat -c %s "$T/a.raw")" -eq "$SIZE" ]
		# shellcheck disable=SC2086
		raw_mkfs "$T/b.raw" "${OPTS[@]}" $set
		unchanged "$T/a.raw" "$T/b.raw"
	done
	# the comparison sees a difference when there is one
	raw_mkfs "$T/c.raw" -q -U 6e1f0e53-9c1a-4c43-8a44-2f1d2b0c7a12 -T 1700000000 --root "$T/tree"
	! cmp -s "$T/a.raw" "$T/c.raw" || false
}

@test "sparse: mkfs -S output is byte-reproducible and stays small" {
	run_mkfs "$MKFS" "${OPTS[@]}" --root "$T/tree" -S "$SIZE" "$T/1.simg"
	run_mkfs "$MKFS" "${OPTS[@]}" --root "$T/tree" -S "$SIZE" "$T/2.simg"
	cmp "$T/1.simg" "$T/2.simg"
	# metadata and 300 KB of file data, not 100 MiB
	[ "$(stat -c %s "$T/1.simg")" -lt 2000000 ]
	# another UUID gives other bytes
	run_mkfs "$MKFS" -q -U 6e1f0e53-9c1a-4c43-8a44-2f1d2b0c7a12 -T 1700000000 \
		--root "$T/tree" -S "$SIZE" "$T/3.simg"
	! cmp -s "$T/1.simg" "$T/3.simg" || false
	# img2simg's encoding of the same image is read as the same image
	expand "$T/1.simg" "$T/1.raw"
	img2simg "$T/1.raw" "$T/4.simg"
	run_mkfs "$MKFS" -f "${OPTS[@]}" --root "$T/tree" "$T/4.simg"
	cmp "$T/1.simg" "$T/4.simg"
}

@test "sparse: both fscks find mkfs -S output clean" {
	local set
	for set in "" "-g android" "--root $T/tree"; do
		rm -f "$T/a.simg"
		# shellcheck disable=SC2086
		run_mkfs "$MKFS" "${OPTS[@]}" $set -S "$SIZE" "$T/a.simg"
		cp "$T/a.simg" "$T/before.simg"
		run "$FSCK" -f -n "$T/a.simg"
		echo "$output"
		[ "$status" -eq 0 ]
		[[ $output == *"0 error(s) fixed, 0 left"* ]]
		unchanged "$T/a.simg" "$T/before.simg"
		expand "$T/a.simg" "$T/a.raw"
		ref_fsck_clean "$T/a.raw"
	done
	# both see damage when there is some
	"$INJECT" --node --nid 3 --mb i_links --val 7 "$T/a.simg" >/dev/null
	run "$FSCK" -f -n "$T/a.simg"
	[ "$status" -eq 4 ]
	expand "$T/a.simg" "$T/a.raw"
	! ref_fsck_clean "$T/a.raw" 2>/dev/null || false
}

@test "sparse: img2simg images are read, repaired and changed as the raw ones" {
	raw_mkfs "$T/r.raw" "${OPTS[@]}" --root "$T/tree"
	img2simg "$T/r.raw" "$T/r.simg"
	run "$FSCK" -f -n "$T/r.simg"
	echo "$output"
	[ "$status" -eq 0 ]
	"$DUMP" "$T/r.raw" >"$T/dump.raw"
	"$DUMP" "$T/r.simg" >"$T/dump.simg"
	diff "$T/dump.raw" "$T/dump.simg"
	"$DUMP" --extract / --output "$T/out" "$T/r.simg"
	diff -r "$T/tree" "$T/out"

	# the same fault in both, the same repair of both
	"$INJECT" --node --nid 3 --mb i_links --val 7 "$T/r.simg" >/dev/null
	"$INJECT" --node --nid 3 --mb i_links --val 7 "$T/r.raw" >/dev/null
	expand "$T/r.simg" "$T/x.raw"
	unchanged "$T/x.raw" "$T/r.raw"
	cp "$T/r.simg" "$T/damaged.simg"
	run "$FSCK" -f -y "$T/r.simg"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *0x050002* ]]
	run "$FSCK" -f -y "$T/r.raw"
	[ "$status" -eq 1 ]
	! cmp -s "$T/r.simg" "$T/damaged.simg" || false
	expand "$T/r.simg" "$T/x.raw"
	unchanged "$T/x.raw" "$T/r.raw"
	run "$FSCK" -f -n "$T/r.simg"
	[ "$status" -eq 0 ]

	# tune.f2fs and f2fslabel change it as they change the raw image
	"$TUNE" -l sparse -O encrypt "$T/r.simg" >/dev/null
	"$TUNE" -l sparse -O encrypt "$T/r.raw" >/dev/null
	"$F2LABEL" "$T/r.simg" relabelled
	"$F2LABEL" "$T/r.raw" relabelled
	[ "$("$F2LABEL" "$T/r.simg")" = relabelled ]
	expand "$T/r.simg" "$T/x.raw"
	unchanged "$T/x.raw" "$T/r.raw"
	ref_fsck_clean "$T/x.raw"
}

@test "sparse: sload.f2fs -S loads a tree into a sparse image as into the raw one" {
	require_prog "$SLOAD"
	run_mkfs "$MKFS" "${OPTS[@]}" -g android -S "$SIZE" "$T/a.simg"
	expand "$T/a.simg" "$T/a.raw"
	"$SLOAD" -S -f "$T/tree" -T 1700000000 "$T/a.simg"
	"$SLOAD" -f "$T/tree" -T 1700000000 "$T/a.raw"
	[ "$(head -c 4 "$T/a.simg" | od -An -tx4 | tr -d ' ')" = ed26ff3a ]
	expand "$T/a.simg" "$T/x.raw"
	unchanged "$T/x.raw" "$T/a.raw"
	"$DUMP" --extract / --output "$T/out" "$T/a.simg"
	diff -r "$T/tree" "$T/out"
	ref_fsck_clean "$T/x.raw"
}

@test "sparse: gc.f2fs cleans a sparse image as it cleans the raw one" {
	require_prog "$F2AGE"
	raw_mkfs "$T/g.raw" "${OPTS[@]}"
	"$F2AGE" fill "$T/g.raw" 60 3 >/dev/null
	img2simg "$T/g.raw" "$T/g.simg"
	cp "$T/g.raw" "$T/before.raw"
	run "$GC" --policy greedy --max-sections 4 "$T/g.simg"
	echo "$output"
	[ "$status" -eq 0 ]
	"$GC" --policy greedy --max-sections 4 "$T/g.raw" >/dev/null
	expand "$T/g.simg" "$T/x.raw"
	unchanged "$T/x.raw" "$T/g.raw"
	if cmp -s "$T/before.raw" "$T/g.raw"; then echo "the cleaner moved nothing"; false; fi
	"$FSCK" -f -n "$T/g.simg" >/dev/null
	"$F2AGE" check "$T/x.raw"
	ref_fsck_clean "$T/x.raw"
}

@test "sparse: images of other block sizes are read, and refused for writing" {
	raw_mkfs "$T/r.raw" "${OPTS[@]}" --root "$T/tree"
	img2simg "$T/r.raw" "$T/k.simg" 1024
	[ "$(od -An -tu4 -j12 -N4 "$T/k.simg" | tr -d ' ')" = 1024 ]
	run "$FSCK" -f -n "$T/k.simg"
	[ "$status" -eq 0 ]
	"$DUMP" --extract / --output "$T/out" "$T/k.simg"
	diff -r "$T/tree" "$T/out"
	cp "$T/k.simg" "$T/before.simg"
	run "$FSCK" -f -y "$T/k.simg"
	echo "$output"
	[ "$status" -eq 8 ]
	[[ $output == *"k.simg for writing: not supported"* ]]
	unchanged "$T/k.simg" "$T/before.simg"
}

@test "sparse: mkfs -S command line: size, existing images, what it cannot do" {
	# rounded down to 4096
	run_mkfs "$MKFS" "${OPTS[@]}" -S $((SIZE + 4095)) "$T/a.simg"
	expand "$T/a.simg" "$T/a.raw"
	[ "$(stat -c %s "$T/a.raw")" -eq "$SIZE" ]
	# an existing sparse image needs -f (or -g android)
	cp "$T/a.simg" "$T/before.simg"
	run "$MKFS" "${OPTS[@]}" -S "$SIZE" "$T/a.simg" </dev/null
	[ "$status" -eq 1 ]
	[[ $output == *"is an Android sparse image; use -f"* ]]
	unchanged "$T/a.simg" "$T/before.simg"
	run "$MKFS" "${OPTS[@]}" "$T/a.simg" </dev/null
	[ "$status" -eq 1 ]
	run_mkfs "$MKFS" -f "${OPTS[@]}" -l again -S "$SIZE" "$T/a.simg"
	run_mkfs "$MKFS" "${OPTS[@]}" -g android -S "$SIZE" "$T/a.simg"
	! cmp -s "$T/a.simg" "$T/before.simg" || false
	# mkfs without -S on an existing sparse image keeps it sparse
	run_mkfs "$MKFS" -f "${OPTS[@]}" "$T/a.simg"
	cmp "$T/a.simg" "$T/before.simg"
	# so does mkfs -S over an existing raw file (-f: it holds an f2fs)
	raw_mkfs "$T/r.raw" "${OPTS[@]}"
	run "$MKFS" "${OPTS[@]}" -S "$SIZE" "$T/r.raw" </dev/null
	[ "$status" -eq 1 ]
	run_mkfs "$MKFS" -f "${OPTS[@]}" -S "$SIZE" "$T/r.raw"
	cmp "$T/r.raw" "$T/before.simg"
	local bad
	for bad in "-S 0" "-S 4095" "-S 1x" "-S $SIZE -c $T/other" "-S $SIZE -m" "-S"; do
		# shellcheck disable=SC2086
		run "$MKFS" -q $bad "$T/new.simg" </dev/null
		echo "$bad: $status $output"
		[ "$status" -eq 1 ]
		[ ! -e "$T/new.simg" ]
	done
	mkdir "$T/dir"
	run "$MKFS" -q -S "$SIZE" "$T/dir" </dev/null
	[ "$status" -eq 1 ]
	[[ $output == *"not supported"* ]]
	run "$MKFS" -q -S "$SIZE" "$T/nodir/x.simg" </dev/null
	[ "$status" -eq 1 ]
	[[ $output == *"No such file or directory"* ]]
	# too small for f2fs: nothing is written
	run "$MKFS" -q -S 4096 "$T/small.simg" </dev/null
	[ "$status" -eq 1 ]
	[ ! -e "$T/small.simg" ]
}

@test "sparse: damaged sparse headers: every tool refuses with one message, no crash" {
	run_mkfs "$MKFS" "${OPTS[@]}" --root "$T/tree" -S "$SIZE" "$T/good.simg"
	local size damage tool
	size=$(stat -c %s "$T/good.simg")
	local -a damages=(
		"major version 2:4:\\x02"
		"block size 4095:12:\\xff\\x0f\\x00\\x00"
		"total_blks one more:16:$(printf '\\x%02x' $(( (SIZE / 4096 + 1) & 255 )) $(( (SIZE / 4096 + 1) >> 8 & 255 )))"
		"total_chunks 2^32-1:20:\\xff\\xff\\xff\\xff"
		"first chunk type unknown:28:\\xc9\\xca"
		"first chunk 2^32-1 blocks:32:\\xff\\xff\\xff\\xff"
		"first chunk total_sz 2^32-1:36:\\xff\\xff\\xff\\xff"
		"truncated:cut:"
	)
	local -a tools=(
		"$FSCK -n" "$FSCK -f -y" "$DUMP" "$DUMP --extract / --output $T/out"
		"$TUNE -l x" "$INJECT --node --nid 3 --mb i_links --val 7" "$GC"
		"$DEFRAG --file /big" "$F2LABEL" "$MKFS -f -q" "$SLOAD -f $T/tree"
	)
	# every tool works on the undamaged image (so a refusal below is
	# the damage's doing)
	for tool in "${tools[@]}"; do
		cp "$T/good.simg" "$T/ok.simg"
		rm -rf "$T/out"
		# shellcheck disable=SC2086
		run $tool "$T/ok.simg" </dev/null
		echo "undamaged, $tool: $status"
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
		[[ $output != *"malformed Android sparse image"* ]]
	done
	for damage in "${damages[@]}"; do
		local what=${damage%%:*} rest=${damage#*:}
		local at=${rest%%:*} bytes=${rest#*:}
		cp "$T/good.simg" "$T/bad.simg"
		if [ "$at" = cut ]; then
			truncate -s $((size - 100)) "$T/bad.simg"
		else
			printf "$bytes" | dd of="$T/bad.simg" bs=1 seek="$at" conv=notrunc status=none
		fi
		cp "$T/bad.simg" "$T/before.simg"
		for tool in "${tools[@]}"; do
			rm -rf "$T/out"
			# shellcheck disable=SC2086
			run $tool "$T/bad.simg" </dev/null
			echo "$what, $tool: $status: $output"
			! is_crash "$status" || false
			[ "$status" -ne 0 ]
			[[ $output == *"bad.simg: malformed Android sparse image"* ]]
			unchanged "$T/bad.simg" "$T/before.simg"
		done
	done
}

@test "sparse: mount.f2fs refuses a sparse image, names simg2img" {
	require_prog "$MOUNT_F2FS"
	run_mkfs "$MKFS" "${OPTS[@]}" -S "$SIZE" "$T/a.simg"
	mkdir "$T/mnt"
	run "$MOUNT_F2FS" -f "$T/a.simg" "$T/mnt"
	echo "$output"
	[ "$status" -eq 32 ]
	[[ $output == *"a.simg is an Android sparse image"*simg2img* ]]
	# its expansion passes the same checks (fake mount: nothing mounted)
	expand "$T/a.simg" "$T/a.raw"
	run "$MOUNT_F2FS" -f "$T/a.raw" "$T/mnt"
	echo "$output"
	[ "$status" -eq 0 ]
}
