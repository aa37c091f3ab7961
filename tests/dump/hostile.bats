#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/dump/hostile.bats - dump.f2fs on damaged and malicious images.
# Each image is made here: a small tree loaded by the reference sload.f2fs,
# then bytes patched at offsets computed from our own --json output.  The
# extraction runs inside a box directory holding a victim directory that
# a symlink in the image points to; nothing may appear outside the output
# directory, nothing may crash or hang, and the message names the damage.
load ../lib/common
load helpers

setup_file() {
	local src=$BATS_FILE_TMPDIR/src
	mkdir -p "$src/d1/d2" "$src/zy" "$src/big"
	echo hello >"$src/inline.txt"
	head -c 4096 /dev/urandom >"$src/f4k"
	head -c $((929 * 4096)) /dev/urandom >"$src/f929"
	head -c $((3000 * 4096)) /dev/urandom >"$src/big/f3000"
	echo deep >"$src/d1/d2/deep"
	: >"$src/zero"
	echo pwned >"$src/zy/pwned"
	mkdir "$src/many"
	for i in $(seq 1 300); do : >"$src/many/f$i"; done
	ln -s inline.txt "$src/sl"
	# a symlink to the victim directory outside the output (see box())
	ln -s "$BATS_FILE_TMPDIR/victim" "$src/zz"
	export BASE=$BATS_FILE_TMPDIR/base.img
	sload_image "$BASE" "$src"
}

setup() {
	require_prog "$DUMP" "$REF_SLOAD" "$REF_MKFS"
	command -v jq >/dev/null || { echo "jq is needed"; return 1; }
	IMG=$BATS_TEST_TMPDIR/h.img
	cp --sparse=always "$BASE" "$IMG"
	mkdir -p "$BATS_FILE_TMPDIR/victim"
	BOX=$BATS_TEST_TMPDIR/box
	mkdir -p "$BOX"
	echo keep >"$BOX/sentinel"
}

# ino_of PATH: inode number of PATH in $IMG
ino_of() { json "$IMG" '.inode.ino' --stat "$1"; }
# nat_addr NID: block address of NID
nat_addr() { json "$IMG" ".nat[] | select(.nid == $1) | .blkaddr" -n "$1~$(($1 + 1))"; }
# dent_off DIR NAME: byte offset of NAME's f2_dir_entry in DIR's block
dent_off() {
	local d blk slot addr
	d=$("$DUMP" --json --stat "$1" "$IMG")
	blk=$(echo "$d" | jq ".inode.dentries[] | select(.name == \"$2\") | .block")
	slot=$(echo "$d" | jq ".inode.dentries[] | select(.name == \"$2\") | .slot")
	[ "$blk" = 0 ] || { echo "dent_off: $2 not in block 0" >&2; return 1; }
	addr=$(echo "$d" | jq '.inode.i_addr[0].addr')
	echo $((addr * 4096 + 30 + 11 * slot))
}
# name_off DIR NAME: byte offset of NAME's first name slot
name_off() {
	local off d slot
	d=$("$DUMP" --json --stat "$1" "$IMG")
	slot=$(echo "$d" | jq ".inode.dentries[] | select(.name == \"$2\") | .slot")
	echo $(( $(echo "$d" | jq '.inode.i_addr[0].addr') * 4096 + 2384 + 8 * slot ))
}

# quiet_t OUT ARGS: ARGS with a timeout, the output in file OUT, the exit
# status in $status; in the shared build tree another make may be
# relinking the tool at this moment (status 127): wait and retry
quiet_t() {
	local out=$1 try
	shift
	for try in 1 2 3 4 5 6 7 8 9 10; do
		status=0
		timeout 60 "$@" >"$out" 2>&1 || status=$?
		[ "$status" -eq 127 ] || return 0
		sleep 3
	done
}

# run_t ARGS: quiet_t with the output in $output, as bats' run gives it
run_t() {
	quiet_t "$BATS_TEST_TMPDIR/run_t.out" "$@"
	output=$(<"$BATS_TEST_TMPDIR/run_t.out")
}

# extract: run --extract / into $BOX/out; never a crash, and the box and
# the victim hold nothing new
extract() {
	run_t "$DUMP" "$@" --extract / --output "$BOX/out" "$IMG"
	echo "status $status"
	echo "$output"
	[ "$status" -ne 124 ]
	! is_crash "$status" || false
	[ -z "$(ls -A "$BOX" | grep -v -x -e out -e sentinel)" ]
	[ "$(cat "$BOX/sentinel")" = keep ]
	[ -z "$(ls -A "$BATS_FILE_TMPDIR/victim")" ]
}

@test "hostile: the untouched image extracts cleanly (the symlink outside is created, never followed)" {
	extract
	[ "$status" -eq 0 ]
	[ "$(readlink "$BOX/out/zz")" = "$BATS_FILE_TMPDIR/victim" ]
	echo "$output" | grep -q 'zz: symlink points outside'
	cmp "$BOX/out/big/f3000" <("$DUMP" --extract /big/f3000 --output "$BATS_TEST_TMPDIR/one" "$IMG" >/dev/null; cat "$BATS_TEST_TMPDIR/one/f3000")
}

@test "hostile: a directory renamed onto the escaping symlink's name goes to name.dup1, not through the link" {
	patch_bytes "$IMG" "$(name_off / zy)" "$(printf zz | od -An -tx1 | tr -d ' \n')"
	[ "$("$DUMP" --ls / "$IMG" | grep -c ' zz')" -eq 2 ]
	extract
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "zz: name already present, extracted as 'zz.dup1'"
	# whichever came first keeps the name; the directory's file is inside
	# the output, never in the victim the symlink points to
	if [ -L "$BOX/out/zz" ]; then d=zz.dup1; else d=zz; [ -L "$BOX/out/zz.dup1" ]; fi
	[ -f "$BOX/out/$d/pwned" ]
}

@test "hostile: names with '/', '..' and a newline: refused, skipped, escaped in messages" {
	patch_bytes "$IMG" "$(name_off / f4k)" "$(printf 'f/k' | od -An -tx1 | tr -d ' \n')"
	patch_bytes "$IMG" "$(name_off / sl)" "$(printf '..' | od -An -tx1 | tr -d ' \n')"
	patch_bytes "$IMG" "$(name_off / inline.txt)" "$(printf 'in\nine.txt' | od -An -tx1 | tr -d ' \n')"
	extract
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "f/k: name contains '/'"
	[ ! -e "$BOX/out/f" ]
	[ -f "$BOX/out/in"$'\n'"ine.txt" ]
	"$DUMP" --ls / "$IMG" | grep -qF 'in\x0aine.txt'
}

@test "hostile: a directory entry pointing to an ancestor (a loop) is refused" {
	local d1 off
	d1=$(ino_of /d1)
	off=$(dent_off /d1/d2 deep)
	# ino at +4, file type at +10
	patch_bytes "$IMG" $((off + 4)) "$(le32 "$d1")"
	patch_bytes "$IMG" $((off + 10)) 02
	extract
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "d1/d2/deep: directory ino $d1 met again"
	[ -d "$BOX/out/d1/d2" ]
}

@test "hostile: an indirect node pointing to itself, an inode pointing to itself, a nid beyond the NAT" {
	local ino ind addr f929 f929addr
	ino=$(ino_of /big/f3000)
	ind=$(json "$IMG" '.inode["i_nid[2]"]' --stat /big/f3000)
	[ "$ind" -gt 0 ]
	addr=$(nat_addr "$ind")
	patch_bytes "$IMG" $((addr * 4096)) "$(le32 "$ind")"
	f929=$(ino_of /f929)
	f929addr=$(json "$IMG" '.inode.blkaddr' --stat /f929)
	patch_bytes "$IMG" $((f929addr * 4096 + 4052)) "$(le32 "$f929")"
	f4kaddr=$(json "$IMG" '.inode.blkaddr' --stat /f4k)
	patch_bytes "$IMG" $((f4kaddr * 4096 + 4052)) "$(le32 4294967280)"
	run "$DUMP" --json --stat /f4k "$IMG"
	extract
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "big/f3000: .*node offset"
	echo "$output" | grep -q "f929: .*ino $f929"
	[ -f "$BOX/out/inline.txt" ]
	[ "$(stat -c %s "$BOX/out/big/f3000")" -eq $((3000 * 4096)) ]
}

@test "hostile: absurd sizes: beyond the largest file or the inline area refused, 2 TiB of holes extracts sparse" {
	local a
	a=$(json "$IMG" '.inode.blkaddr' --stat /f4k)
	patch_bytes "$IMG" $((a * 4096 + 16)) "0000000000000040"
	a=$(json "$IMG" '.inode.blkaddr' --stat /zero)
	patch_bytes "$IMG" $((a * 4096 + 16)) "0000000000020000"
	a=$(json "$IMG" '.inode.blkaddr' --stat /f929)
	patch_bytes "$IMG" $((a * 4096 + 16)) "0000000000020000"
	extract
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "f4k: ino .*beyond the largest file"
	echo "$output" | grep -q "zero: ino .*inline file of size 2199023255552"
	[ "$(stat -c %s "$BOX/out/f929")" -eq $((1 << 41)) ]
	[ "$(allocated_bytes "$BOX/out/f929")" -lt $((8 << 20)) ]
}

@test "hostile: bad dentry name lengths are reported, the other entries extracted" {
	local off
	off=$(dent_off / sl)
	patch_bytes "$IMG" $((off + 8)) "$(le16 300)"
	off=$(dent_off /d1 d2)
	patch_bytes "$IMG" $((off + 8)) "$(le16 0)"
	extract
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "name length 300"
	echo "$output" | grep -q "name length 0"
	[ -f "$BOX/out/f4k" ]
}

@test "hostile: damaged superblocks and checkpoints: backup used, or exit 2 with the reason" {
	patch_bytes "$IMG" 1024 00000000
	run "$DUMP" "$IMG"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q "primary superblock rejected"
	patch_bytes "$IMG" $((4096 + 1024)) 00000000
	run "$DUMP" "$IMG"
	[ "$status" -eq 2 ]
	echo "$output" | grep -q "no valid superblock"
	cp --sparse=always "$BASE" "$IMG"
	cpa=$(json "$IMG" '.superblock.cp_blkaddr' -d 1)
	patch_bytes "$IMG" $((cpa * 4096 + 8)) ffffffff
	patch_bytes "$IMG" $(((cpa + 512) * 4096 + 8)) ffffffff
	run "$DUMP" "$IMG"
	[ "$status" -eq 2 ]
	echo "$output" | grep -q "no valid checkpoint: pack 1: head block: checksum mismatch"
}

# (the metadata dump prints a megabyte of JSON: quiet_t keeps it in a file)
@test "hostile: 60 images with random bytes in cp, NAT, SIT, SSA and node blocks: no crash, no hang, no escape" {
	local i k off main segs cpa ops left
	main=$(json "$BASE" '.superblock.main_blkaddr' -d 1)
	cpa=$(json "$BASE" '.superblock.cp_blkaddr' -d 1)
	RANDOM=4242
	shopt -s dotglob nullglob
	for i in $(seq 1 60); do
		cp --sparse=always "$BASE" "$IMG"
		ops=()
		for k in 1 2 3 4 5 6 7 8; do
			# metadata areas and the first segments of main (the logs)
			if [ $((RANDOM % 2)) -eq 0 ]; then
				off=$(( (cpa + RANDOM % (main - cpa)) * 4096 + RANDOM % 4096 ))
			else
				off=$(( (main + RANDOM % 4096) * 4096 + RANDOM % 4096 ))
			fi
			ops+=("write:$off:1:$((RANDOM % 256))")
		done
		# the eight bytes in one process, in order
		"$F2REPLAY" run "$IMG" "${ops[@]}"
		rm -rf "$BOX/out"
		quiet_t "$BATS_TEST_TMPDIR/x.out" "$DUMP" --extract / --output "$BOX/out" "$IMG"
		[ "$status" -ne 127 ] || { echo "image $i: status 127: $(cat "$BATS_TEST_TMPDIR/x.out")"; false; }
		if [ "$status" -eq 124 ] || is_crash "$status"; then
			echo "image $i: status $status"; tail -n 5 "$BATS_TEST_TMPDIR/x.out"
			cp "$IMG" "$BATS_TEST_TMPDIR/failing.img"
			false
		fi
		quiet_t "$BATS_TEST_TMPDIR/m.out" "$DUMP" --json -d 1 -n 0~-1 -s 0~-1 -a 0~40 -M "$IMG"
		if [ "$status" -eq 124 ] || is_crash "$status"; then
			echo "image $i (metadata): status $status"; false
		fi
		# nothing in the box but out and sentinel, nothing in the victim
		left=()
		for k in "$BOX"/*; do
			[ "$k" = "$BOX/out" ] || [ "$k" = "$BOX/sentinel" ] || left+=("$k")
		done
		[ ${#left[@]} -eq 0 ] || { echo "image $i: the box holds ${left[*]}"; false; }
		left=("$BATS_FILE_TMPDIR/victim"/*)
		[ ${#left[@]} -eq 0 ] || { echo "image $i: the victim holds ${left[*]}"; false; }
	done
}

@test "hostile: an inode marked encrypted is reported and skipped, the rest extracted" {
	local a
	a=$(json "$IMG" '.inode.blkaddr' --stat /f4k)
	patch_bytes "$IMG" $((a * 4096 + 2)) 04
	[ "$(json "$IMG" '.inode.encrypted' --stat /f4k)" = 1 ]
	extract
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "f4k: encrypted file: skipped"
	[ ! -e "$BOX/out/f4k" ]
	[ -f "$BOX/out/inline.txt" ]
}

@test "hostile: an unreadable dentry block costs only its own entries" {
	local a n
	[ "$(json "$IMG" '[.inode.dentries[] | select(.block == 1)] | length' --stat /many)" -gt 0 ]
	a=$(json "$IMG" '.inode.blkaddr' --stat /many)
	# i_addr[0] (no extra attributes in this image) -> far outside main
	patch_bytes "$IMG" $((a * 4096 + 360)) f0ffffff
	extract
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "block 0 skipped: .*outside the main area"
	n=$(ls "$BOX/out/many" | wc -l)
	echo "$n of 300 extracted"
	[ "$n" -gt 0 ] && [ "$n" -lt 300 ]
	[ -f "$BOX/out/f4k" ]
}
