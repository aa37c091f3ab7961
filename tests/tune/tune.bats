#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tune/tune.bats - tune.f2fs: a new UUID on a volume with
# inode_checksum and sb_checksum (every inode's checksum redone: both fscks
# clean, blkid sees it), a power cut at every write of it (fsck -p leaves
# the old or the new UUID and every inode), features turned on (lost+found
# made) or refused by name without a write, -l, -n and --json.

load ../lib/common
load ../lib/powercut

TUNE=${TUNE:-$F2_BUILD/tune/tune.f2fs}
f2_unwrap TUNE

setup() {
	require_prog "$TUNE" "$MKFS" "$FSCK" "$DUMP"
	T=$BATS_TEST_TMPDIR
}

# tree DIR N: N small files in DIR (and a subdirectory)
tree() {
	mkdir -p "$1/sub"
	(cd "$1" && seq 1 "$2" | xargs -n 500 touch && echo data >sub/file)
}

# vol IMG SIZE TREE [MKFS OPTIONS...]
vol() {
	make_image "$1" "$2"
	run_mkfs "$MKFS" -f -q "${@:4}" --root "$3" "$1"
}

# uuid_of IMG: the primary superblock's uuid (blkid reads it)
uuid_of() { blkid -p -s UUID -o value "$1"; }

# inodes_of IMG: the inode count fsck -f -n reports (exit 0 required)
inodes_of() {
	local l
	l=$("$FSCK" -f -n "$1" 2>&1 | tail -n 1) || { echo "$l"; return 1; }
	[[ $l =~ :\ ([0-9]+)\ inodes, ]] || { echo "$l"; return 1; }
	echo "${BASH_REMATCH[1]}"
}

@test "tune.f2fs -U on 10k inodes with inode_checksum and sb_checksum: both fscks clean, blkid sees it" {
	local n0 new=5f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0
	tree "$T/t" 10000
	vol "$T/img" 256M "$T/t" -O extra_attr,inode_checksum,sb_checksum
	n0=$(inodes_of "$T/img")
	run "$TUNE" -U "$new" "$T/img"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ $output == *"inode checksums: $n0 of $n0 inodes rewritten"* ]] || { echo "$output"; return 1; }
	[ "$(uuid_of "$T/img")" = "$new" ]
	[ "$(inodes_of "$T/img")" -eq "$n0" ]
	ref_fsck_clean "$T/img"
	# again: nothing to do
	run "$TUNE" -U "$new" "$T/img"
	[ "$status" -eq 0 ] && [[ $output == *"nothing to change"* ]]
	# random and time
	"$TUNE" -U random "$T/img" >/dev/null
	[ "$(uuid_of "$T/img")" != "$new" ]
	"$TUNE" -U time "$T/img" >/dev/null
	"$FSCK" -f -n "$T/img" >/dev/null
}

# check_uuid IMG K T: the primary holds the old uuid or the new; fsck -p
# then leaves a clean volume with every inode, on that uuid, copies equal
check_uuid() {
	local img=$1 got rc=0
	got=$(uuid_of "$img")
	[ "$got" = "$OLD_UUID" ] || [ "$got" = "$NEW_UUID" ] || { echo "state $2/$3: uuid '$got'"; return 1; }
	powercut_private "$img" || return 1
	img=$POWERCUT_IMG
	"$FSCK" -p "$img" >"$img.p" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || { cat "$img.p"; echo "state $2/$3: fsck -p exit $rc"; return 1; }
	[ "$(inodes_of "$img")" = "$INODES" ] || { echo "state $2/$3: inodes lost"; return 1; }
	[ "$(uuid_of "$img")" = "$got" ] || { echo "state $2/$3: fsck changed the uuid"; return 1; }
	cmp <(dd if="$img" bs=1024 skip=1 count=3 status=none) \
		<(dd if="$img" bs=1024 skip=5 count=3 status=none) ||
		{ echo "state $2/$3: the copies differ after fsck -p"; return 1; }
}

@test "tune.f2fs -U: a power cut at every write leaves the old or the new UUID; fsck -p keeps every inode" {
	tree "$T/t" 40
	vol "$T/img" 64M "$T/t" -O extra_attr,inode_checksum,sb_checksum
	OLD_UUID=$(uuid_of "$T/img")
	NEW_UUID=0a0b0c0d-1111-2222-3333-444455556666
	INODES=$(inodes_of "$T/img")
	powercut_run "$T/img" check_uuid -- "$TUNE" -U "$NEW_UUID" @IMG >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_RECORDS" -gt "$INODES" ] && [ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	[ "$(uuid_of "$POWERCUT_FINAL")" = "$NEW_UUID" ]
}

@test "tune.f2fs -O lost_found,encrypt,verity,sb_checksum and -C utf8 on a populated volume: both fscks clean" {
	tree "$T/t" 100
	vol "$T/img" 128M "$T/t" -O extra_attr,inode_checksum
	run "$TUNE" -O lost_found,encrypt,verity,sb_checksum -C utf8 "$T/img"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ $output == *"lost+found: made"* ]]
	"$DUMP" "$T/img" 2>/dev/null | grep -q "features.*lost_found" ||
		"$DUMP" --json "$T/img" | grep -q lost_found
	"$DUMP" --ls / "$T/img" | grep -q ' lost+found$'
	[ "$("$DUMP" --stat /lost+found "$T/img" | grep -c '^i_mode.*0x *41c0')" -eq 1 ]
	"$FSCK" -f -n "$T/img" >/dev/null
	ref_fsck_clean "$T/img"
	# already on: nothing to do, nothing written
	local before
	before=$(img_sum "$T/img")
	run "$TUNE" -O lost_found,encrypt "$T/img"
	[ "$status" -eq 0 ] && [[ $output == *"nothing to change"* ]]
	[ "$(img_sum "$T/img")" = "$before" ]
}

@test "tune.f2fs -O quota,project_quota builds the quota files from the usage: both fscks clean" {
	local i
	mkdir -p "$T/t/d"
	for i in 1 2 3 4 5 6; do
		head -c $((i * 10000)) /dev/urandom >"$T/t/f$i"
		chown $((1000 + i % 2)):$((2000 + i % 3)) "$T/t/f$i"
	done
	echo x >"$T/t/d/s"
	chown 1005:1005 "$T/t/d"
	vol "$T/img" 128M "$T/t" -O extra_attr,inode_checksum
	run "$TUNE" -O quota,project_quota,lost_found,encrypt "$T/img"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ $output == *"the user quota file built from the usage of 10 inodes"* ]] || { echo "$output"; return 1; }
	[[ $output == *"the project quota file built"* ]]
	# our fsck compares every id's usage with the files
	"$FSCK" -f -n "$T/img" >"$T/n" 2>&1 || { cat "$T/n"; return 1; }
	ref_fsck_clean "$T/img"
	# a wrong count is found: the check can fail
	"$INJECT" --node --nid "$(inode_field_ino "$T/img" /f1)" --mb i_uid --val 4242 "$T/img" >/dev/null
	run "$FSCK" -f -n "$T/img"
	[ "$status" -eq 4 ] && [[ $output == *QUOTA_* ]]
}

# inode_field_ino IMG PATH: its inode number
inode_field_ino() { "$DUMP" --stat "$2" "$1" | sed -n 's/^ino .*: \([0-9]*\)\]$/\1/p'; }

@test "tune.f2fs refuses what would need every inode rewritten, or turning off, by name, and writes nothing" {
	local before f
	tree "$T/t" 10
	vol "$T/img" 64M "$T/t"
	before=$(img_sum "$T/img")
	for f in extra_attr inode_checksum flexible_inline_xattr inode_crtime; do
		run "$TUNE" -O "$f" "$T/img"
		[ "$status" -eq 1 ] && [[ $output == *"cannot turn on $f: every inode"* ]] ||
			{ echo "$f: $output"; return 1; }
	done
	run "$TUNE" -O compression "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"compression: it needs extra_attr"* ]]
	run "$TUNE" -O project_quota "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"project_quota needs a feature"* ]]
	run "$TUNE" -O blkzoned "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"cannot turn on blkzoned: it is chosen at mkfs"* ]]
	run "$TUNE" -O ^verity "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"not turned off"* ]]
	run "$TUNE" -O no_such "$T/img"
	[ "$status" -eq 16 ]
	run "$TUNE" -C latin1 "$T/img"
	[ "$status" -eq 16 ]
	[ "$(img_sum "$T/img")" = "$before" ]
}

@test "tune.f2fs -n and --json report without writing; -l sets the label; refusals" {
	local before ino
	tree "$T/t" 10
	vol "$T/img" 64M "$T/t" -O extra_attr,inode_checksum,sb_checksum
	before=$(img_sum "$T/img")
	run "$TUNE" -n -U 01234567-89ab-cdef-0123-456789abcdef -l lbl -O lost_found "$T/img"
	[ "$status" -eq 0 ] && [[ $output == *"to rewrite"* ]] && [[ $output == *"lost+found: to be made"* ]]
	run "$TUNE" -n --json -U 01234567-89ab-cdef-0123-456789abcdef "$T/img"
	[ "$status" -eq 0 ]
	jq -e '.dry_run == true and .changes == 1 and .inodes_rewritten > 10 and
		.uuid == "01234567-89ab-cdef-0123-456789abcdef"' <<<"$output"
	[ "$(img_sum "$T/img")" = "$before" ]
	run "$TUNE" -l "my label" "$T/img"
	[ "$status" -eq 0 ]
	[ "$(blkid -p -s LABEL -o value "$T/img")" = "my label" ]
	"$FSCK" -f -n "$T/img" >/dev/null
	# mounted, differing copies, an inode with a bad checksum: refused, no write
	before=$(img_sum "$T/img")
	echo "$T/img /mnt f2fs rw 0 0" >"$T/mounts"
	F2_PROC_MOUNTS=$T/mounts run "$TUNE" -U random "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"is mounted on /mnt"* ]]
	cp "$T/img" "$T/bad.img"
	ino=$(inode_field_ino "$T/bad.img" /1)
	"$INJECT" --keep-crc --node --nid "$ino" --mb i_links --val 7 "$T/bad.img" >/dev/null
	before=$(img_sum "$T/bad.img")
	run "$TUNE" -U random "$T/bad.img"
	[ "$status" -eq 1 ] && [[ $output == *"inode $ino"*"bad checksum"* ]] || { echo "$output"; return 1; }
	"$INJECT" --sb 2 --mb volume_name --str other "$T/bad.img" >/dev/null
	run "$TUNE" -l x "$T/bad.img"
	[ "$status" -eq 1 ] && [[ $output == *"copies differ"* ]]
}
