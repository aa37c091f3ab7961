#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# fsck.f2fs on clean images (0 findings, exit 0) from the reference mkfs
# under many option sets, from our mkfs, and after the reference sload
# populated one; then the command line: modes, exit codes, --json, the
# problem table's unit test, no writes without a fix mode, no blocking
# without a terminal, crash safety of the superblock repair.
load ../lib/common
bats_require_minimum_version 1.5.0

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
F2REPLAY=${F2REPLAY:-$F2_BUILD/tests/tools/f2replay}
REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}
export F2FIELD REF_SLOAD

# check_clean IMG: full check finds nothing and exits 0
check_clean() {
	local rc=0
	"$FSCK" -f -n "$1" </dev/null >"$BATS_TEST_TMPDIR/out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] || grep -q '^0x' "$BATS_TEST_TMPDIR/out"; then
		echo "fsck -f -n $1 (exit $rc):"
		cat "$BATS_TEST_TMPDIR/out"
		return 1
	fi
}

OPTSETS=(
	""
	"-O extra_attr"
	"-O extra_attr,inode_checksum,flexible_inline_xattr,sb_checksum"
	"-O extra_attr,quota,lost_found"
	"-O extra_attr,project_quota,inode_crtime,compression"
	"-O extra_attr,inode_checksum,flexible_inline_xattr,quota,lost_found,compression,sb_checksum,verity,encrypt,inode_crtime,project_quota"
	"-O casefold -C utf8"
	"-s 4 -z 2"
	"-i"
	"-a 1 -o 20"
	"-O lost_found -l label -e txt,log"
)

@test "fsck clean: reference mkfs images under every option set" {
	require_prog "$FSCK" "$REF_MKFS"
	local img=$BATS_TEST_TMPDIR/img o
	for o in "${OPTSETS[@]}"; do
		rm -f "$img" && truncate -s 2G "$img"
		# shellcheck disable=SC2086
		"$REF_MKFS" -q -f $o "$img" >/dev/null
		echo "options: $o"
		check_clean "$img"
	done
}

@test "fsck clean: the reference's read-only images (-O ro: no SSA, two logs), empty, loaded by its sload and by ours" {
	require_prog "$FSCK" "$REF_MKFS" "$REF_SLOAD" "$DUMP"
	local img=$BATS_TEST_TMPDIR/img d=$BATS_TEST_TMPDIR/src
	mkdir -p "$d/dir/sub"
	seq 1 100000 >"$d/dir/numbers"
	echo small >"$d/dir/sub/small"
	truncate -s 1G "$img"
	"$REF_MKFS" -q -f -O ro "$img" >/dev/null
	check_clean "$img"
	"$REF_SLOAD" -f "$d" "$img" >/dev/null 2>&1
	check_clean "$img"
	"$DUMP" --ls /dir/sub "$img" | grep -q ' small$'
	# and our sload into a fresh one: both fscks find it clean
	"$REF_MKFS" -q -f -O ro "$img" >/dev/null
	"$F2_BUILD/mkfs/sload.f2fs" -q -f "$d" "$img" >/dev/null
	check_clean "$img"
	ref_fsck_clean "$img"
	"$DUMP" --ls /dir/sub "$img" | grep -q ' small$'
}

@test "fsck clean: the kernel's need-fsck flag (CP_FSCK) on a clean volume: -n leaves it, -p clears it once (exit 1), the next boot's -p is quick" {
	require_prog "$FSCK" "$MKFS" "$INJECT"
	local img=$BATS_TEST_TMPDIR/img flags
	truncate -s 1G "$img"
	"$MKFS" -q -f "$img" >/dev/null
	flags=$("$INJECT" --cp 0 --mb ckpt_flags --val 0 --dry-run "$img" 2>/dev/null |
		sed -n 's/.*ckpt_flags of .*: \([0-9]*\) (.*/\1/p')
	[ -n "$flags" ]
	"$INJECT" --cp 0 --mb ckpt_flags --val $((flags | 0x10)) "$img" >/dev/null
	cp "$img" "$img.before"
	run "$FSCK" -n "$img"
	[ "$status" -eq 0 ] && [[ $output != *"clean (checkpoint says"* ]]
	cmp "$img" "$img.before"
	run "$FSCK" -p "$img"
	echo "$output"
	[ "$status" -eq 1 ] && [[ $output == *"CP_FSCK) cleared"* ]]
	run "$FSCK" -p "$img"
	[ "$status" -eq 0 ] && [[ $output == *"clean (checkpoint says unmounted cleanly"* ]]
	check_clean "$img"
	ref_fsck_clean "$img"
}

@test "fsck clean: our mkfs images under every option set, and a 3-device volume" {
	require_prog "$FSCK" "$MKFS"
	local img=$BATS_TEST_TMPDIR/img o d=$BATS_TEST_TMPDIR
	for o in "${OPTSETS[@]}"; do
		rm -f "$img" && truncate -s 2G "$img"
		# shellcheck disable=SC2086
		"$MKFS" -q -f $o "$img" >/dev/null
		echo "options: $o"
		check_clean "$img"
	done
	truncate -s 1G "$d/m0" "$d/m1" "$d/m2"
	"$MKFS" -q -f -c "$d/m1" -c "$d/m2" "$d/m0" >/dev/null
	check_clean "$d/m0"
}

@test "fsck clean: a populated image (reference sload: files, links, indirect nodes, 300-entry dir)" {
	require_prog "$FSCK" "$REF_MKFS" "$REF_SLOAD" "$F2FIELD"
	local img=$BATS_TEST_TMPDIR/img o
	for o in "" "-O extra_attr,inode_checksum,flexible_inline_xattr,lost_found,quota,sb_checksum"; do
		# shellcheck disable=SC2086
		(. "$F2_TOP/tests/fsck/lib.sh"; base "$img" $o)
		check_clean "$img"
		grep -q ' 0 left' "$BATS_TEST_TMPDIR/out"
		ref_fsck_clean "$img"
	done
}

@test "fsck clean: 20,000 files in 200 directories (the inode map grows during the walk)" {
	require_prog "$FSCK" "$REF_MKFS" "$REF_SLOAD"
	local img=$BATS_TEST_TMPDIR/img t=$BATS_TEST_TMPDIR/tree d f
	for ((d = 1; d <= 200; d++)); do
		mkdir -p "$t/d$d"
		for ((f = 1; f <= 100; f++)); do echo "$d.$f" >"$t/d$d/f$f"; done
	done
	truncate -s 1G "$img"
	"$REF_MKFS" -q -f "$img" >/dev/null
	"$REF_SLOAD" -f "$t" "$img" >/dev/null 2>&1 || true
	check_clean "$img"
	grep -q ': 20201 inodes, 20201 nodes' "$BATS_TEST_TMPDIR/out"
}

@test "fsck clean: without -f a cleanly unmounted image returns 0 at once" {
	local img=$BATS_TEST_TMPDIR/img
	truncate -s 1G "$img"
	"$MKFS" -q -f "$img" >/dev/null
	run "$FSCK" "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"clean"* ]]
}

# read_bytes ARGS...: bytes "$FSCK" ARGS read (rchar of the shell that
# reaped it: a reaped child's I/O counts in its parent's /proc/PID/io)
read_bytes() {
	sh -c '"$@" >/dev/null 2>&1; sed -n "s/^rchar: //p" /proc/$$/io' sh "$FSCK" "$@"
}

@test "fsck clean: -p on a clean 1 TiB volume reads no more than on a 1 GiB one" {
	# what systemd runs at every boot: the quick check reads the
	# superblocks and checkpoint packs only, whatever the size
	[ -r /proc/self/io ] || skip "no /proc/self/io (task I/O accounting)"
	local d=$BATS_TEST_TMPDIR small big t0 t1
	truncate -s 1G "$d/small.img"
	truncate -s 1T "$d/big.img" || skip "no 1 TiB sparse file here"
	"$MKFS" -q -f "$d/small.img" >/dev/null
	"$MKFS" -q -f "$d/big.img" >/dev/null
	small=$(read_bytes -p "$d/small.img")
	t0=$(date +%s%N)
	big=$(read_bytes -p "$d/big.img")
	t1=$(date +%s%N)
	echo "read: $small bytes (1 GiB), $big bytes (1 TiB) in $(((t1 - t0) / 1000000)) ms"
	[ "$big" -le $((small + 65536)) ]
	run "$FSCK" -p "$d/big.img"
	[ "$status" -eq 0 ]
	[[ $output == *"clean (checkpoint says unmounted cleanly"* ]]
}

@test "fsck cli: usage errors exit 16; --help and -V exit 0" {
	run "$FSCK"
	[ "$status" -eq 16 ]
	run "$FSCK" -n -y x.img
	[ "$status" -eq 16 ]
	[[ "$output" == *"-n cannot be combined"* ]]
	run "$FSCK" -n -p x.img
	[ "$status" -eq 16 ]
	run "$FSCK" -Z x.img
	[ "$status" -eq 16 ]
	run "$FSCK" a.img b.img
	[ "$status" -eq 16 ]
	run "$FSCK" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--dry-run"* ]]
	run "$FSCK" -V
	[ "$status" -eq 0 ]
}

@test "fsck cli: not an f2fs image or missing file exits 8" {
	local img=$BATS_TEST_TMPDIR/zero
	truncate -s 64M "$img"
	run "$FSCK" -n "$img"
	echo "$output"
	[ "$status" -eq 8 ]
	[[ "$output" == *"0x010004"* ]]
	run "$FSCK" -n "$BATS_TEST_TMPDIR/nonexistent"
	[ "$status" -eq 8 ]
}

# A damaged image with one repairable problem (primary superblock).
bad_sb_image() {
	truncate -s 1G "$1"
	"$MKFS" -q -f "$1" >/dev/null
	"$F2FIELD" "$1" set sb.magic 0
}

@test "fsck modes: no terminal and no fix option answers no, exits 4, writes nothing" {
	local img=$BATS_TEST_TMPDIR/img sum
	bad_sb_image "$img"
	sum=$(img_sum "$img")
	run timeout 20 "$FSCK" "$img" </dev/null
	echo "$output"
	[ "$status" -eq 4 ]
	[[ "$output" == *"no (no terminal)"* ]]
	[ "$(img_sum "$img")" = "$sum" ]
}

@test "fsck modes: on a terminal it asks: q cancels (exit 36 = 32|4, nothing written), y fixes (exit 1)" {
	command -v script >/dev/null || { echo "script(1) from util-linux is needed"; return 1; }
	local img=$BATS_TEST_TMPDIR/img sum
	bad_sb_image "$img"
	sum=$(img_sum "$img")
	run bash -c "printf 'q\n' | timeout 20 script -qec '$FSCK $img' /dev/null"
	echo "$output"
	[ "$status" -eq 36 ]
	[[ "$output" == *"[y]es [n]o [a]ll [q]uit"* ]]
	[ "$(img_sum "$img")" = "$sum" ]
	run bash -c "printf 'y\n' | timeout 20 script -qec '$FSCK $img' /dev/null"
	echo "$output"
	[ "$status" -eq 1 ]
	run "$FSCK" -f -n "$img"
	[ "$status" -eq 0 ]
}

@test "fsck modes: -p fixes the safe problem (exit 1); -p -y terminates as -y" {
	local img=$BATS_TEST_TMPDIR/img
	bad_sb_image "$img"
	run timeout 20 "$FSCK" -p "$img" </dev/null
	echo "$output"
	[ "$status" -eq 1 ]
	run "$FSCK" -f -n "$img"
	[ "$status" -eq 0 ]
	bad_sb_image "$img"
	run timeout 20 "$FSCK" -p -y "$img" </dev/null
	[ "$status" -eq 1 ]
	run timeout 20 "$FSCK" -p -y -f "$img" </dev/null
	[ "$status" -eq 0 ]
}

@test "fsck modes: -p leaves what it cannot fix and exits 4" {
	local img=$BATS_TEST_TMPDIR/img
	truncate -s 1G "$img"
	"$MKFS" -q -f "$img" >/dev/null
	# casefolding with an encoding this version does not know (no
	# repair), in both superblock copies
	"$F2FIELD" "$img" set sb.feature $(( $("$F2FIELD" "$img" get sb.feature | cut -d' ' -f3) | 0x1000 ))
	"$F2FIELD" "$img" set sb.s_encoding 99
	dd if="$img" of="$img" bs=4096 count=1 seek=1 conv=notrunc status=none
	run timeout 20 "$FSCK" -p -f "$img" </dev/null
	echo "$output"
	[ "$status" -eq 4 ]
	[[ "$output" == *"0x010009 SB_ENCODING"* ]]
	[[ "$output" == *"run fsck.f2fs manually"* ]]
}

@test "fsck --json: one document with the findings and the exit code" {
	local img=$BATS_TEST_TMPDIR/img
	bad_sb_image "$img"
	run --separate-stderr "$FSCK" -f -n --json "$img"
	[ "$status" -eq 4 ]
	echo "$output"
	[[ "$output" == "{"* ]]
	[[ "$output" == *'"code": "0x010001"'* ]]
	[[ "$output" == *'"exit_code": 4'* ]]
	[[ "$output" == *'"fixed": false'* ]]
	if command -v python3 >/dev/null; then
		python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["findings"][0]["name"]=="SB_PRIMARY_BAD"' <<<"$output"
		# every phase of the full check, timed
		python3 -c 'import json,sys; p=json.load(sys.stdin)["phases"]; assert [x["name"] for x in p][:7]==["superblock","checkpoint","SIT","NAT","lost NAT","node tree","stale checkpoint"] and len(p)==13 and all(x["seconds"]>=0 for x in p), p' <<<"$output"
	fi
}

@test "fsck problem table: codes unique and sorted (unit test)" {
	run "$F2_BUILD/tests/unit/test_problems"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "fsck maps: sparse bitmap and inode hash (unit test)" {
	run "$F2_BUILD/tests/unit/test_fsckmaps"
	echo "$output"
	[ "$status" -eq 0 ]
}

# crash_check IMG CODE: IMG has exactly one finding, CODE, that -y
# repairs.  Record the repair's writes; every prefix of the log applied to
# the damaged image must check as the damaged image (exit 4, that one
# finding) or as the repaired one (exit 0); the whole log gives the image
# -y produced.
crash_check() {
	local img=$1 code=$2 orig=$BATS_TEST_TMPDIR/orig log=$BATS_TEST_TMPDIR/log n i rc
	local p=$BATS_TEST_TMPDIR/p
	require_prog "$F2REPLAY"
	cp --sparse=always "$img" "$orig"
	rc=0; F2_IO_RECORD=$log "$FSCK" -f -y "$img" </dev/null >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || { echo "-y exit $rc"; return 1; }
	n=$("$F2REPLAY" count "$log")
	echo "$code: $n records"
	[ "$n" -ge 1 ]
	for ((i = 0; i <= n; i++)); do
		cp --sparse=always "$orig" "$p"
		"$F2REPLAY" apply "$log" "$p" "$i"
		rc=0; "$FSCK" -f -n "$p" >"$p.out" 2>&1 || rc=$?
		if [ "$rc" -eq 4 ]; then
			[ "$(grep -c '^0x' "$p.out")" -eq 1 ] && grep -q "^$code" "$p.out" ||
				{ echo "prefix $i:"; cat "$p.out"; return 1; }
		else
			[ "$rc" -eq 0 ] || { echo "prefix $i: exit $rc"; cat "$p.out"; return 1; }
		fi
	done
	cmp "$p" "$img"
}

@test "fsck crash safety: every prefix of the superblock repair's write log" {
	local img=$BATS_TEST_TMPDIR/img
	bad_sb_image "$img"
	crash_check "$img" 0x010001
}

@test "fsck crash safety: every prefix of the checkpoint counter repair's write log" {
	local img=$BATS_TEST_TMPDIR/img
	truncate -s 1G "$img"
	"$MKFS" -q -f -O extra_attr,lost_found "$img" >/dev/null
	"$F2FIELD" "$img" set cp.valid_node_count 9
	"$F2FIELD" "$img" fixcrc cp
	crash_check "$img" 0x0A0002
	ref_fsck_clean "$img"
	# and the reference's checkpoint pack choice agrees: a second repair is a no-op
	run "$FSCK" -f -y "$img"
	[ "$status" -eq 0 ]
}
