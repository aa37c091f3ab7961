#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# cli.bats - mkfs.f2fs command line: help, version, refusing to overwrite an
# existing file system without -f, and clear errors for bad devices and
# bad option values.  Messages are matched loosely (the file-system type
# name, a keyword), never as golden text.  Every refusal must be an ordinary
# error exit, never a crash, and must leave the device untouched.

bats_require_minimum_version 1.5.0
load ../lib/common

setup() {
	require_prog "$MKFS"
	D=$BATS_TEST_TMPDIR
}

teardown() {
	# an immutable file would make the temporary directory undeletable
	[ -z "${IMMUTABLE:-}" ] || chattr -i "$IMMUTABLE" 2>/dev/null || true
	[ -z "${LOOPDEV:-}" ] || losetup -d "$LOOPDEV" 2>/dev/null || true
}

# refused: the last `run` failed with an error exit, not a crash or success
refused() {
	if [ "$status" -eq 0 ]; then
		echo "expected failure, got exit 0; output:"; echo "$output"
		return 1
	fi
	if is_crash "$status"; then
		echo "crashed (exit $status); output:"; echo "$output"
		return 1
	fi
}

# says ERE: the last `run` output matches ERE, case-insensitively
says() {
	if ! grep -Eiq -- "$1" <<<"$output"; then
		echo "output does not match /$1/i; output:"; echo "$output"
		return 1
	fi
}

@test "--help prints usage on stdout and exits 0" {
	run --separate-stderr "$MKFS" --help
	[ "$status" -eq 0 ] || { echo "exit $status"; echo "$output$stderr"; false; }
	says 'usage'
	says '-O'
	says 'device'
}

@test "-V prints the version and exits 0" {
	run "$MKFS" -V
	[ "$status" -eq 0 ] || { echo "exit $status: $output"; false; }
	says 'mkfs\.f2fs'
	says '[0-9]+\.[0-9]+'
}

@test "no device: usage error" {
	run "$MKFS"
	refused
	says 'usage|device'
}

@test "unknown option is refused" {
	make_image "$D/img" 256M
	run "$MKFS" -f -X "$D/img"
	refused
	says 'usage|option'
}

@test "unknown feature is refused, naming it" {
	make_image "$D/img" 256M
	run "$MKFS" -f -O bogusfeature "$D/img"
	refused
	says 'bogusfeature'
}

@test "unknown casefold encoding is refused, naming it" {
	make_image "$D/img" 256M
	run "$MKFS" -f -O extra_attr,casefold -C bogusenc "$D/img"
	refused
	says 'bogusenc'
}

@test "label of 512 characters or more is refused" {
	make_image "$D/img" 256M
	run "$MKFS" -f -l "$(printf 'x%.0s' {1..600})" "$D/img"
	refused
	says 'label'
}

@test "-s 0 is refused without crashing" {
	make_image "$D/img" 1G
	run "$MKFS" -f -s 0 "$D/img"
	refused
}

@test "-z 0 is refused without crashing" {
	make_image "$D/img" 1G
	run "$MKFS" -f -z 0 "$D/img"
	refused
}

@test "existing ext4 without -f: refused, names ext4, image untouched" {
	make_image "$D/img" 256M
	mkfs.ext4 -qF "$D/img"
	local before
	before=$(img_sum "$D/img")
	run "$MKFS" "$D/img"
	refused
	says 'ext4'
	[ "$(img_sum "$D/img")" = "$before" ] || { echo "image was modified"; false; }
}

@test "existing ext4 with -f: formatted, reference fsck finds it clean" {
	make_image "$D/img" 256M
	mkfs.ext4 -qF "$D/img"
	run_mkfs "$MKFS" -f "$D/img"
	sb_fields "$D/img" | grep -qx 'magic=0xf2f52010'
	ref_fsck_clean "$D/img"
}

@test "existing f2fs without -f: refused, names f2fs, image untouched" {
	make_image "$D/img" 256M
	run_mkfs "$REF_MKFS" -f "$D/img"
	local before
	before=$(img_sum "$D/img")
	run "$MKFS" "$D/img"
	refused
	says 'f2fs'
	[ "$(img_sum "$D/img")" = "$before" ] || { echo "image was modified"; false; }
}

@test "existing f2fs with -f: reformatted with a new uuid" {
	make_image "$D/img" 256M
	run_mkfs "$REF_MKFS" -f "$D/img"
	local old
	old=$(sb_fields "$D/img" | grep '^uuid=')
	run_mkfs "$MKFS" -f "$D/img"
	[ "$(sb_fields "$D/img" | grep '^uuid=')" != "$old" ]
	ref_fsck_clean "$D/img"
}

@test "-q prints nothing on success" {
	make_image "$D/img" 256M
	run "$MKFS" -q -f "$D/img"
	[ "$status" -eq 0 ] || { echo "exit $status: $output"; false; }
	[ -z "$output" ] || { echo "unexpected output: $output"; false; }
}

@test "nonexistent device: clear error, nothing created" {
	run "$MKFS" -f "$D/no/such/dir/img"
	refused
	says 'no such|not exist|not found|cannot|can.t|fail|error'
	[ ! -e "$D/no" ]
	run "$MKFS" -f "$D/missing.img"
	refused
	says 'no such|not exist|not found|cannot|can.t|fail|error'
	[ ! -e "$D/missing.img" ]
}

@test "device too small (1 MiB): clear error" {
	make_image "$D/img" 1M
	run "$MKFS" -f "$D/img"
	refused
	says 'small|not sufficient|insufficient|too few|size'
}

@test "empty (0-byte) device: clear error" {
	: >"$D/img"
	run "$MKFS" -f "$D/img"
	refused
	says 'small|not sufficient|insufficient|too few|size|empty'
}

@test "a directory as device: clear error" {
	mkdir "$D/dir"
	run "$MKFS" -f "$D/dir"
	refused
	says 'director|not a|not supported|cannot|can.t|fail|error'
}

@test "immutable (unwritable even for root) image: clear error" {
	make_image "$D/img" 256M
	chattr +i "$D/img" 2>/dev/null || skip "chattr +i not supported here"
	IMMUTABLE=$D/img
	run "$MKFS" -f "$D/img"
	refused
	says 'permi|not permitted|read-only|read only|cannot|can.t|fail|error'
}

@test "read-only block device: clear error, device untouched" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for losetup"
	make_image "$D/img" 256M
	LOOPDEV=$(losetup -r -f --show "$D/img" 2>/dev/null) || skip "no loop devices"
	local before
	before=$(img_sum "$D/img")
	run "$MKFS" -f "$LOOPDEV"
	refused
	says 'read-only|read only|permi|cannot|can.t|fail|error'
	[ "$(img_sum "$D/img")" = "$before" ]
}
