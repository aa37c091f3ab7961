#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tune/label.bats - f2fslabel prints and sets the volume label: both
# superblock copies, the checksum redone with sb_checksum; blkid, the
# reference f2fslabel and both fscks agree; bad labels, mounted devices
# and damaged copies are refused without a write; a power cut at any of
# its writes leaves the old or the new label, which fsck -p makes whole.

load ../lib/common
load ../lib/powercut

F2LABEL=${F2LABEL:-$F2_BUILD/tune/f2fslabel}
REF_LABEL=${REF_LABEL:-/sbin/f2fslabel}
f2_unwrap F2LABEL

setup() {
	require_prog "$F2LABEL" "$MKFS" "$FSCK"
	T=$BATS_TEST_TMPDIR
}

# vol IMG [MKFS OPTIONS...]: a fresh 64 MiB volume
vol() {
	make_image "$1" 64M
	run_mkfs "$MKFS" -f -q "${@:2}" "$1"
}

# copies_equal IMG: the two superblock copies hold the same bytes
copies_equal() {
	cmp <(dd if="$1" bs=1024 skip=1 count=3 status=none) \
		<(dd if="$1" bs=1024 skip=5 count=3 status=none)
}

@test "f2fslabel prints the label mkfs wrote (ours and the reference's), an empty line for none" {
	vol "$T/a.img" -l "my volume"
	run "$F2LABEL" "$T/a.img"
	[ "$status" -eq 0 ] && [ "$output" = "my volume" ]
	vol "$T/b.img"
	run "$F2LABEL" "$T/b.img"
	[ "$status" -eq 0 ] && [ -z "$output" ]
	require_prog "$REF_MKFS"
	make_image "$T/c.img" 64M
	"$REF_MKFS" -q -f -l "theirs" "$T/c.img" >/dev/null
	run "$F2LABEL" "$T/c.img"
	[ "$status" -eq 0 ] && [ "$output" = theirs ]
}

@test "f2fslabel sets the label in both copies: blkid, the reference f2fslabel and both fscks agree" {
	local label
	label=$(printf 'Données \346\227\245\346\234\254 \360\237\230\200')
	vol "$T/img" -l old -O extra_attr,inode_checksum,sb_checksum
	run "$F2LABEL" "$T/img" "$label"
	[ "$status" -eq 0 ] && [ -z "$output" ]
	run "$F2LABEL" "$T/img"
	[ "$output" = "$label" ]
	copies_equal "$T/img"
	[ "$(blkid -p -s LABEL -o value "$T/img")" = "$label" ]
	if [ -x "$REF_LABEL" ]; then
		"$REF_LABEL" "$T/img" 2>&1 | grep -qF "volume label = $label"
	fi
	"$FSCK" -f -n "$T/img"
	ref_fsck_clean "$T/img"
	# cleared
	"$F2LABEL" "$T/img" ""
	run "$F2LABEL" "$T/img"
	[ -z "$output" ]
	[ -z "$(blkid -p -s LABEL -o value "$T/img")" ]
	"$FSCK" -f -n "$T/img"
}

@test "f2fslabel takes 512 UTF-16 units, refuses 513 and bad UTF-8 without writing" {
	local before long
	vol "$T/img" -l keep
	before=$(img_sum "$T/img")
	long=$(printf 'x%.0s' $(seq 512))
	"$F2LABEL" "$T/img" "$long"
	[ "$("$F2LABEL" "$T/img")" = "$long" ]
	"$FSCK" -f -n "$T/img"
	"$F2LABEL" "$T/img" keep
	[ "$(img_sum "$T/img")" = "$before" ]
	run "$F2LABEL" "$T/img" "${long}y"
	[ "$status" -eq 1 ] && [[ $output == *"512 UTF-16"* ]]
	# 4-byte UTF-8 takes two units: 511 + a surrogate pair is one too many
	run "$F2LABEL" "$T/img" "${long:1}$(printf '\360\237\230\200')"
	[ "$status" -eq 1 ]
	run "$F2LABEL" "$T/img" "$(printf 'bad\377')"
	[ "$status" -eq 1 ] && [[ $output == *"not UTF-8"* ]]
	[ "$(img_sum "$T/img")" = "$before" ]
}

@test "f2fslabel refuses a mounted device and a damaged copy, names them, writes nothing" {
	local before
	vol "$T/img" -l keep
	before=$(img_sum "$T/img")
	echo "$T/img /mnt/x f2fs rw 0 0" >"$T/mounts"
	F2_PROC_MOUNTS=$T/mounts run "$F2LABEL" "$T/img" new
	[ "$status" -eq 1 ] && [[ $output == *"$T/img is mounted on /mnt/x"* ]]
	# printing a mounted volume's label is fine
	F2_PROC_MOUNTS=$T/mounts run "$F2LABEL" "$T/img"
	[ "$status" -eq 0 ] && [ "$output" = keep ]
	# the backup's magic broken: printing reads the primary, setting refuses
	printf '\0' | dd of="$T/img" bs=1 seek=$((4096 + 1024)) conv=notrunc status=none
	before=$(img_sum "$T/img")
	run "$F2LABEL" "$T/img"
	[ "$status" -eq 0 ] && [ "$output" = keep ]
	run "$F2LABEL" "$T/img" new
	[ "$status" -eq 1 ] && [[ $output == *"backup superblock is not valid"*"run fsck.f2fs first"* ]]
	[ "$(img_sum "$T/img")" = "$before" ]
	# not an F2FS volume at all
	make_image "$T/zero.img" 8M
	run "$F2LABEL" "$T/zero.img"
	[ "$status" -eq 1 ] && [[ $output == *"$T/zero.img: no valid F2FS superblock"* ]]
}

@test "f2fslabel: --help, -V, usage errors exit 16" {
	run "$F2LABEL" --help
	[ "$status" -eq 0 ] && [[ $output == *"Usage: f2fslabel"* ]]
	run "$F2LABEL" -V
	[ "$status" -eq 0 ] && [[ $output == "f2fslabel "* ]]
	run "$F2LABEL"
	[ "$status" -eq 16 ]
	run "$F2LABEL" a b c
	[ "$status" -eq 16 ]
	run "$F2LABEL" -x a
	[ "$status" -eq 16 ]
}

# check_label IMG K T: the primary holds the old label or the new, and
# fsck -p then leaves a clean volume whose copies agree, on that label
check_label() {
	local img=$1 got rc=0
	got=$("$F2LABEL" "$img" 2>&1) || { echo "state $2/$3: $got"; return 1; }
	[ "$got" = old ] || [ "$got" = "$NEW_LABEL" ] || { echo "state $2/$3: label '$got'"; return 1; }
	powercut_private "$img" || return 1
	img=$POWERCUT_IMG
	"$FSCK" -p "$img" >"$img.p" 2>&1 || rc=$?
	[ "$rc" -le 1 ] || { cat "$img.p"; echo "state $2/$3: fsck -p exit $rc"; return 1; }
	"$FSCK" -f -n "$img" >"$img.n" 2>&1 || { cat "$img.n"; echo "state $2/$3: not clean"; return 1; }
	[ "$("$F2LABEL" "$img")" = "$got" ] || { echo "state $2/$3: fsck changed the label"; return 1; }
	copies_equal "$img" || { echo "state $2/$3: the copies differ after fsck -p"; return 1; }
}

@test "f2fslabel: a power cut at every write leaves the old or the new label; fsck -p makes the copies agree" {
	vol "$T/img" -l old -O extra_attr,inode_checksum,sb_checksum
	NEW_LABEL="a new label"
	powercut_run "$T/img" check_label -- "$F2LABEL" @IMG "$NEW_LABEL" >"$T/out" ||
		{ cat "$T/out"; false; }
	tail -n 1 "$T/out"
	[ "$POWERCUT_RECORDS" -ge 4 ] && [ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	[ "$("$F2LABEL" "$POWERCUT_FINAL")" = "$NEW_LABEL" ]
}
