#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The quota phase of fsck.f2fs (fsck/pass_quota.c, codes 0x0B0001-3):
# quota volumes from the reference mkfs (with and without project quota,
# empty and loaded by sload with owners kept) and from our mkfs check
# clean, as the reference fsck also finds them; -p repairs wrong usage
# (safe to preen); with other errors left the quota files are not
# rewritten; and volumes written by the Linux 6.1 driver in QEMU (chown,
# chgrp, hard links, truncation, deletion), including ones whose quota
# files our -y rewrote, check clean afterwards with both fscks; a power
# cut at any write of the quota rewrite leaves the old state or the new.
load ../lib/common
load ../lib/kernel
load ../lib/powercut

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}
export F2FIELD REF_SLOAD

# A tree with several owners: quota ids other than 0.
owned_tree() {
	local d=$1 i
	rm -rf "$d" && mkdir -p "$d/u1/sub" "$d/u2" "$d/shared"
	seq 1 300000 >"$d/u1/big"
	echo one >"$d/u1/sub/small"
	for i in $(seq 1 40); do seq 1 $((i * 50)) >"$d/u2/f$i"; done
	ln "$d/u1/sub/small" "$d/shared/hard"
	chown -R 1000:2000 "$d/u1" && chown -R 1001:2001 "$d/u2" && chown 1002:2000 "$d/shared"
}

# fsck -f -n IMG: exit 0 and no finding at all.
our_clean() {
	local rc=0
	"$FSCK" -f -n "$1" </dev/null >"$BATS_TEST_TMPDIR/c.out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] || grep -q '^0x' "$BATS_TEST_TMPDIR/c.out"; then
		cat "$BATS_TEST_TMPDIR/c.out"
		echo "$1: exit $rc"
		return 1
	fi
}

@test "fsck quota: reference and our quota volumes, empty and loaded with owners, check clean" {
	require_prog "$FSCK" "$REF_MKFS" "$REF_SLOAD" "$MKFS"
	local d=$BATS_TEST_TMPDIR img=$BATS_TEST_TMPDIR/q.img o
	[ "$(id -u)" -eq 0 ] || skip "chown needs root"
	owned_tree "$d/tree"
	for o in extra_attr,quota extra_attr,quota,project_quota \
		 extra_attr,quota,project_quota,inode_checksum,flexible_inline_xattr; do
		rm -f "$img" && truncate -s 256M "$img"
		"$REF_MKFS" -q -f -O "$o" "$img" >/dev/null
		our_clean "$img"
		ref_fsck_clean "$img"
		"$REF_SLOAD" -P -f "$d/tree" "$img" >/dev/null 2>&1 || true
		our_clean "$img"
		ref_fsck_clean "$img"
		# the owners made it in: uid 1000 has a record with its bytes
		[ "$("$F2FIELD" "$img" get quota.0.1000.space | cut -d' ' -f3)" -gt 1000000 ]
	done
	rm -f "$img" && truncate -s 256M "$img"
	"$MKFS" -q -f -O extra_attr,quota,project_quota "$img" >/dev/null
	our_clean "$img"
	ref_fsck_clean "$img"
}

@test "fsck quota: -p rewrites wrong usage without asking (exit 1), then both fscks find it clean" {
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	local img=$BATS_TEST_TMPDIR/q.img rc=0
	bash "$F2_TOP/tests/fsck/051-quota-group/make.sh" "$img"
	"$FSCK" -p "$img" </dev/null >"$BATS_TEST_TMPDIR/p.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/p.out"
	# the checkpoint says clean: -p only looks when forced
	[ "$rc" -eq 0 ]
	rc=0; "$FSCK" -f -p "$img" </dev/null >"$BATS_TEST_TMPDIR/p.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/p.out"
	[ "$rc" -eq 1 ]
	grep -q '^0x0B0003 QUOTA_USAGE: group quota' "$BATS_TEST_TMPDIR/p.out"
	our_clean "$img"
	ref_fsck_clean "$img"
}

@test "fsck quota: with another repair in the same run, -y checks the repaired volume again and rewrites the quota files then" {
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	local img=$BATS_TEST_TMPDIR/q.img rc=0 before
	bash "$F2_TOP/tests/fsck/050-quota-user/make.sh" "$img"
	. "$F2_TOP/tests/fsck/lib.sh"
	addto "$img" inode.$(ino_of "$img" /d1/d2/mid).links 1
	before=$("$F2FIELD" "$img" get quota.0.0.space)
	"$FSCK" -f -y "$img" </dev/null >"$BATS_TEST_TMPDIR/y.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/y.out"
	# the first check repairs the link count and defers the quota (its
	# usage was counted before the repair); the second rewrites it
	[ "$rc" -eq 1 ]
	grep -q '^0x050002 INODE_LINKS' "$BATS_TEST_TMPDIR/y.out"
	grep -q 'not repaired (other repairs may change what the inodes own' "$BATS_TEST_TMPDIR/y.out"
	grep -q ': checking the repaired volume again$' "$BATS_TEST_TMPDIR/y.out"
	sed -n '/checking the repaired volume again/,$p' "$BATS_TEST_TMPDIR/y.out" >"$BATS_TEST_TMPDIR/second"
	! grep -q '^0x050002' "$BATS_TEST_TMPDIR/second" || false
	grep -q '^0x0B0003 QUOTA_USAGE' "$BATS_TEST_TMPDIR/second"
	grep -q 'rewrite the quota file from the usage found: yes' "$BATS_TEST_TMPDIR/second"
	[ "$("$F2FIELD" "$img" get quota.0.0.space)" != "$before" ]
	our_clean "$img"
	ref_fsck_clean "$img"
}

@test "fsck quota: volumes the 6.1 driver wrote (chown, links, truncation, deletion) check clean, also after our quota rewrite" {
	kernel_require
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	local d=$BATS_TEST_TMPDIR imgs=() i rc letter
	[ "$(id -u)" -eq 0 ] || skip "chown needs root"
	owned_tree "$d/tree"
	truncate -s 256M "$d/ref.img"
	"$REF_MKFS" -q -f -O extra_attr,quota,project_quota,inode_checksum "$d/ref.img" >/dev/null
	"$REF_SLOAD" -P -f "$d/tree" "$d/ref.img" >/dev/null 2>&1 || true
	imgs+=("$d/ref.img")
	# quota files rewritten by our -y (usage wrong, a uid without record)
	for c in 050-quota-user 053-quota-uid; do
		bash "$F2_TOP/tests/fsck/$c/make.sh" "$d/$c.img"
		rc=0; "$FSCK" -f -y "$d/$c.img" </dev/null >"$d/$c.y" 2>&1 || rc=$?
		[ "$rc" -eq 1 ] || { cat "$d/$c.y"; echo "$c: -y exit $rc"; return 1; }
		imgs+=("$d/$c.img")
	done
	rc=0; kernel_run "$BATS_TEST_DIRNAME/guest/quota-write.sh" "${imgs[@]}" || rc=$?
	kernel_output >"$d/out"
	cat "$d/out"
	[ "$rc" -eq 0 ]
	grep -q '^DONE' "$d/out"
	for i in "${!imgs[@]}"; do
		letter=$(printf "\\x$(printf %x $((97 + i)))")
		grep -q "^vd$letter mount rc=0" "$d/out" || { echo "${imgs[$i]}: no mount"; return 1; }
		grep -q "^vd$letter write rc=0" "$d/out" || { echo "${imgs[$i]}: write failed"; return 1; }
		grep -q "^vd$letter umount rc=0" "$d/out" || { echo "${imgs[$i]}: umount failed"; return 1; }
		our_clean "${imgs[$i]}"
		ref_fsck_clean "${imgs[$i]}"
		# the kernel charged the chown-ed files: ids 1000, 1001 and 2002 have records
		"$F2FIELD" "${imgs[$i]}" get quota.0.1001.space >/dev/null
		"$F2FIELD" "${imgs[$i]}" get quota.1.2002.inodes >/dev/null
	done
}

@test "fsck quota: a power cut at any write of the quota rewrite leaves the volume as it was or repaired" {
	require_prog "$FSCK" "$F2FIELD" "$F2REPLAY" "$F2WALK" "$REF_MKFS" "$REF_SLOAD"
	local t codes
	t=$(f2_tmp)
	bash "$F2_TOP/tests/fsck/053-quota-uid/make.sh" "$t/img"
	codes=$(. "$F2_TOP/tests/fsck/053-quota-uid/expect" && echo "$codes")
	POWERCUT_WRITER_OK=1 POWERCUT_FSCK="$FSCK -n -f" POWERCUT_FSCK_ALLOW="0x020002 $codes" \
		powercut_run "$t/img" powercut_check_start_or_final -- "$FSCK" -y -f @IMG >"$t/out" ||
		{ cat "$t/out"; return 1; }
	tail -n 1 "$t/out"
	[ "$POWERCUT_RECORDS" -gt 0 ]
	our_clean "$POWERCUT_FINAL"
}

# set_quota_need_fsck IMG: CP_QUOTA_NEED_FSCK (0x800) set in the checkpoint
# in use, its crc redone
set_quota_need_fsck() {
	local flags
	flags=$("$F2FIELD" "$1" get cp.ckpt_flags | cut -d' ' -f3)
	"$F2FIELD" "$1" set cp.ckpt_flags $((flags | 0x800))
	"$F2FIELD" "$1" fixcrc cp
}

@test "fsck quota: CP_QUOTA_NEED_FSCK forces the check without -f; the quota rewrite clears it" {
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	local img=$BATS_TEST_TMPDIR/q.img rc=0 flags
	bash "$F2_TOP/tests/fsck/050-quota-user/make.sh" "$img"
	set_quota_need_fsck "$img"
	"$FSCK" -n "$img" </dev/null >"$BATS_TEST_TMPDIR/n.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/n.out"
	[ "$rc" -eq 4 ]
	grep -q '^0x0B0003 QUOTA_USAGE' "$BATS_TEST_TMPDIR/n.out"
	rc=0; "$FSCK" -y "$img" </dev/null >"$BATS_TEST_TMPDIR/y.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/y.out"
	[ "$rc" -eq 1 ]
	flags=$("$F2FIELD" "$img" get cp.ckpt_flags | cut -d' ' -f3)
	[ $((flags & 0x800)) -eq 0 ]
	our_clean "$img"
	ref_fsck_clean "$img"
}

# The driver (or our roll-forward, which does not charge the quota files)
# leaves the flag; when the files agree with the inodes the flag alone is
# the finding: the driver skips loading them while it is set.
@test "fsck quota: CP_QUOTA_NEED_FSCK on agreeing quota files is a finding of its own; -y clears it" {
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS"
	local img=$BATS_TEST_TMPDIR/f.img rc=0 flags
	make_image "$img" 64M
	run_mkfs "$REF_MKFS" -f -O quota "$img"
	set_quota_need_fsck "$img"
	"$FSCK" -n "$img" </dev/null >"$BATS_TEST_TMPDIR/n.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/n.out"
	[ "$rc" -eq 4 ]
	grep -q '^0x0B0004 QUOTA_NEED_FSCK' "$BATS_TEST_TMPDIR/n.out"
	! grep -q '^0x0B0003' "$BATS_TEST_TMPDIR/n.out" || false
	rc=0; "$FSCK" -y "$img" </dev/null >"$BATS_TEST_TMPDIR/y.out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/y.out"
	[ "$rc" -eq 1 ]
	flags=$("$F2FIELD" "$img" get cp.ckpt_flags | cut -d' ' -f3)
	[ $((flags & 0x800)) -eq 0 ]
	our_clean "$img"
	ref_fsck_clean "$img"
}
