#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/recovery/recovery.bats - offline roll-forward (lib/recovery/replay.c,
# fsck.f2fs): Linux 6.1 writes and fsyncs files in QEMU, then the power
# is cut with no checkpoint (images.bash, guest/make.sh, one boot, cached).
# For each scenario one copy is mounted normally in a second boot (the
# driver rolls forward: tag A) and the other is recovered by our
# fsck.f2fs -y on the host and mounted -o ro,norecovery (tag B), then
# normally (tag N): every file's md5, inode number, size, link count,
# flags (lsattr) and user xattrs, and every directory's inode number and link count, must be
# the same in A, B and N.
# Both fscks must find the recovered copy clean, and a crash at any write
# of the recovery must leave a volume that fsck -y recovers the same way.

load ../lib/common
load ../lib/kernel
load ../lib/powercut
load images

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	local d=$BATS_FILE_TMPDIR s st
	rf_images_build || { echo "$RF_ERROR" >"$d/error"; return 0; }
	[ ! -f "$RF_IMAGES/retried" ] ||
		echo "# the recovery images were built twice: the first log is $(cat "$RF_IMAGES/retried")" >&3
	require_prog "$FSCK" || return 1
	for s in $RF_SCENARIOS; do
		cp --sparse=always "$RF_IMAGES/$s.img" "$d/$s.a.img"
		cp --sparse=always "$RF_IMAGES/$s.img" "$d/$s.b.img"
		st=0; "$FSCK" -n "$d/$s.b.img" >"$d/$s.n.out" 2>&1 || st=$?
		echo $st >"$d/$s.n.rc"
		cmp "$RF_IMAGES/$s.img" "$d/$s.b.img" >"$d/$s.n.cmp" 2>&1
		st=0; "$FSCK" -y "$d/$s.b.img" >"$d/$s.y.out" 2>&1 || st=$?
		echo $st >"$d/$s.y.rc"
		cp --sparse=always "$d/$s.b.img" "$d/$s.rec.img"
	done
	# two verify boots of half the scenarios each (one boot of all 26
	# disks once ran past its timeout on a loaded machine)
	local -a all=($RF_SCENARIOS)
	local half=$(((${#all[@]} + 1) / 2)) rc=0
	: >"$d/verify.out"; : >"$d/verify.err"
	rf_verify "${all[@]:0:$half}" || rc=$?
	[ "$rc" != 0 ] || rf_verify "${all[@]:$half}" || rc=$?
	echo $rc >"$d/verify.rc"
}

# rf_verify SCENARIO...: one verify boot of those scenarios (their A
# disks, then their B disks); appends to verify.out and verify.err
rf_verify() {
	local d=$BATS_FILE_TMPDIR s st try
	local -a disks=()
	for s in "$@"; do disks+=("$d/$s.a.img"); done
	for s in "$@"; do disks+=("$d/$s.b.img"); done
	echo "$*" >"$d/scenarios"
	for try in 1 2; do
		st=0
		rm -rf "$d/verify"
		kernel_add_binary /usr/bin/getfattr || return 1
		kernel_add_binary /usr/bin/lsattr || return 1
		KERNEL_FILES="$d/scenarios:/guest/scenarios" KERNEL_RUN_DIR=$d/verify KERNEL_TIMEOUT=600 \
			kernel_run "$F2_TOP/tests/recovery/guest/verify.sh" "${disks[@]}" \
			>>"$d/verify.err" 2>&1 || st=$?
		# a guest that died before the script (early boot panic under
		# host load) read nothing: boot once more
		[ "$st" = 125 ] && ! grep -q F2GUEST-BEGIN "$KERNEL_LOG" || break
	done
	cat "$KERNEL_OUT" >>"$d/verify.out"
	[ "$st" = 0 ] || tail -n 40 "$KERNEL_LOG" >>"$d/verify.err"
	return "$st"
}

rf_require() {
	if [ -f "$BATS_FILE_TMPDIR/error" ]; then
		if [ -n "${KERNEL_UNAVAILABLE:-}" ]; then
			skip "$(cat "$BATS_FILE_TMPDIR/error")"
		fi
		cat "$BATS_FILE_TMPDIR/error" >&2
		return 1
	fi
}

# rf_check S: A == B == N for scenario S, fsck -y succeeded, both fscks
# find the recovered copy clean.
rf_check() {
	local s=$1 d=$BATS_FILE_TMPDIR t
	rf_require
	[ "$(cat "$d/verify.rc")" = 0 ] || {
		echo "verify boot failed ($(cat "$d/verify.rc"))"; cat "$d/verify.err" "$d/verify.out"; return 1; }
	echo "--- fsck -y:"; cat "$d/$s.y.out"
	case $(cat "$d/$s.y.rc") in 0|1) ;; *) echo "fsck -y exit $(cat "$d/$s.y.rc")"; return 1 ;; esac
	for t in A B N; do
		grep "^$t $s " "$d/verify.out" | sed "s/^$t //" >"$d/$s.$t.list"
		grep -q " end$" "$d/$s.$t.list" || { echo "no listing $t for $s"; grep "^$t $s" "$d/verify.out"; return 1; }
	done
	diff "$d/$s.A.list" "$d/$s.B.list" || { echo "norecovery mount of our recovery differs from the driver's roll-forward"; return 1; }
	diff "$d/$s.A.list" "$d/$s.N.list" || { echo "normal mount of our recovery differs"; return 1; }
	"$FSCK" -f -n "$d/$s.rec.img" || { echo "our fsck does not find the recovered image clean"; return 1; }
	ref_fsck_clean "$d/$s.rec.img"
}

@test "the driver left roll-forward chains that fsck -n lists without writing" {
	rf_require
	local d=$BATS_FILE_TMPDIR s n=0
	for s in $RF_SCENARIOS; do
		echo "--- $s:"; cat "$d/$s.n.out"
		[ ! -s "$d/$s.n.cmp" ] || { echo "fsck -n wrote:"; cat "$d/$s.n.cmp"; return 1; }
		[ "$s" = newdir ] && continue	# the driver checkpoints on a directory fsync
		grep -q "would recover" "$d/$s.n.out" || { echo "nothing to recover in $s"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 11 ]
}

@test "fsck --no-roll-forward leaves the chain, -p rolls forward" {
	rf_require
	local d=$BATS_FILE_TMPDIR
	cp --sparse=always "$RF_IMAGES/append.img" "$d/nrf.img"
	run "$FSCK" -y --no-roll-forward "$d/nrf.img"
	echo "$output"
	[[ "$output" != *"roll-forward: recovered"* ]]
	run "$FSCK" -n "$d/nrf.img"
	echo "$output"
	[[ "$output" == *"would recover"* ]]
	# with the chain left, a repair's checkpoint would orphan it: refused,
	# nothing written (a wrong link count of the root, which -y repairs
	# otherwise; the checkpoint is not touched: its crc seals the chain)
	local F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field} v before
	v=$("$F2FIELD" "$d/nrf.img" get inode.3.links | cut -d" " -f3)
	"$F2FIELD" "$d/nrf.img" set inode.3.links $((v + 1))
	before=$(img_sum "$d/nrf.img")
	run "$FSCK" -f -y --no-roll-forward "$d/nrf.img"
	echo "$output"
	[ "$status" -eq 4 ]
	[[ "$output" == *"not repaired (fsync-ed files wait for roll-forward"* ]]
	[ "$(img_sum "$d/nrf.img")" = "$before" ]
	# preen rolls forward first, then runs the full check (the new
	# checkpoint says unmounted cleanly, but nothing checked it): the link
	# count is found, and not preened: exit 1 | 4
	run "$FSCK" -p "$d/nrf.img"
	echo "$output"
	[ "$status" -eq 5 ]
	[[ "$output" == *"roll-forward: recovered"* ]]
	[[ "$output" == *"0x050002 INODE_LINKS"* ]]
	# the chain is gone: now the link count is repaired
	run "$FSCK" -y -f "$d/nrf.img"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"0x050002 INODE_LINKS"* ]]
	run "$FSCK" -f -n "$d/nrf.img"
	echo "$output"
	[ "$status" -eq 0 ]
}

# Mounted read-only (a fake mount table naming the image, as the root is
# at boot), fsck never rolls forward: the kernel does when it mounts, so
# a chain still there was left on purpose (-o norecovery).  -p and -y
# list it and write nothing, even for a link count -y repairs otherwise.
@test "under a read-only mount -p and -y leave the chain to the kernel and write nothing" {
	rf_require
	local d=$BATS_FILE_TMPDIR mode before
	local F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field} v
	cp --sparse=always "$RF_IMAGES/append.img" "$d/ro.img"
	v=$("$F2FIELD" "$d/ro.img" get inode.3.links | cut -d" " -f3)
	"$F2FIELD" "$d/ro.img" set inode.3.links $((v + 1))
	echo "$d/ro.img / f2fs ro,norecovery 0 0" >"$d/ro.mounts"
	before=$(img_sum "$d/ro.img")
	for mode in -p -y; do
		F2_PROC_MOUNTS=$d/ro.mounts run "$FSCK" -f $mode "$d/ro.img" </dev/null
		echo "$output"
		[ "$status" -eq 4 ]
		[[ "$output" == *"roll-forward: not done on a mounted device"* ]]
		[[ "$output" == *"would recover"* ]]
		[[ "$output" != *"roll-forward: recovered"* ]]
		[ "$(img_sum "$d/ro.img")" = "$before" ]
	done
	[[ "$output" == *"not repaired (fsync-ed files wait for roll-forward"* ]]
}

# A checkpoint without the umount flag (here the driver's, on a directory
# fsync) stores no summary of the current node segments: the driver
# rebuilds them from the node footers at mount, and so must any writer
# of ours before its own checkpoint stores them (found by the campaign,
# 6.1 seed 149: fsck -y repaired an i_ext after a power cut and its
# checkpoint named nid 0 for every node block of those segments).
@test "a repair after a power cut keeps the SSA of the current node segments" {
	rf_require
	local d=$BATS_FILE_TMPDIR v
	cp --sparse=always "$RF_IMAGES/newdir.img" "$d/ssa.img"
	v=$("$F2FIELD" "$d/ssa.img" get inode.3.links | cut -d" " -f3)
	"$F2FIELD" "$d/ssa.img" set inode.3.links $((v + 1))
	run "$FSCK" -y "$d/ssa.img"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"0x050002 INODE_LINKS"* ]]
	run "$FSCK" -f -n "$d/ssa.img"
	echo "$output"
	[ "$status" -eq 0 ]
	ref_fsck_clean "$d/ssa.img"
}

@test "recovery: one new file" { rf_check newfile; }
@test "recovery: append to an existing file" { rf_check append; }
@test "recovery: overwrite in the middle of a large file" { rf_check midwrite; }
@test "recovery: new file in a new directory, directory fsync-ed" { rf_check newdir; }
@test "recovery: 500 small files each fsync-ed" { rf_check many; }
@test "recovery: fsync, truncate, fsync" { rf_check truncate; }
@test "recovery: fsync-ed file unlinked without a checkpoint" { rf_check unlinked; }
@test "recovery: inline data" { rf_check inline; }
@test "recovery: data past the indirect-node boundary" { rf_check indirect; }
@test "recovery: xattrs set then fsync-ed (new and existing file)" {
	rf_check xattr
	grep -q 'user.color="blue"' "$BATS_FILE_TMPDIR/xattr.A.list"
	grep -q 'user.note="later"' "$BATS_FILE_TMPDIR/xattr.A.list"
}

@test "recovery: directories (the driver checkpoints on new parents), inode numbers kept" {
	local d=$BATS_FILE_TMPDIR
	rf_check dirs
	# the driver rolled these forward (not checkpointed): the test means something
	grep -q "recovered ino .* \"e2\"" "$d/dirs.y.out"
	grep -q "recovered ino .* \"h\"" "$d/dirs.y.out"
	grep -q " ./d2/h ino=" "$d/dirs.A.list"
	grep -q " ./d1/e1 ino=" "$d/dirs.A.list"
	! grep -q " ./d1/a2 \| ./d3/sub" "$d/dirs.A.list" || false
}
@test "recovery: xattr node replay, xattrs removed after the checkpoint, inode flags" {
	local d=$BATS_FILE_TMPDIR
	rf_check xnode
	grep -q ' ./p .*user.big3="ccc' "$d/xnode.A.list"
	! grep -q 'user.big1' "$d/xnode.A.list" || false
	! grep -q 'user.a=' "$d/xnode.A.list" || false
	grep -q ' ./r .*user.r1="ddd.*user.r2="tiny"' "$d/xnode.A.list"
	grep -q ' ./q .*flags=[^ ]*A' "$d/xnode.A.list"
	grep -q ' ./r .*flags=[^ ]*d' "$d/xnode.A.list"
}
@test "recovery: punched hole, truncated and overwritten committed files, inline grown, compressed file, inode numbers" {
	local d=$BATS_FILE_TMPDIR
	rf_check changes
	grep -q ' ./t2 ino=.* size=10000 ' "$d/changes.A.list"
	grep -q ' ./s ino=.* size=8018 ' "$d/changes.A.list"
	grep -q ' ./c.cz ino=.* size=200000 ' "$d/changes.A.list"
	grep -q 'recovered ino .* "h"' "$d/changes.y.out"
	grep -q 'recovered ino .* "small"' "$d/changes.y.out"
	grep -q ' ./small ino=' "$d/changes.A.list"
	# in-place updates off: the overwrites of m were copied from the chain
	grep -q 'recovered ino .* "m" .* [1-9][0-9]* blocks copied' "$d/changes.y.out"
}

# Each power-cut state: the start's tree or the recovered one (what a
# norecovery mount shows), and fsck -y run on it gives the recovered
# image: byte for byte (the recovery is deterministic and rewrites what a
# prefix of its writes left), or else exactly the recovered tree, clean,
# with the inode numbers of the paths in RF_PC_INOS as in the recovered
# image.  The recovered image itself is checked once by the test.
rf_pc_check() {
	local img=$1 st=0 got p
	powercut_check_start_or_final "$img" || return 1
	powercut_private "$img" || return 1
	img=$POWERCUT_IMG
	"$FSCK" -y "$img" >"$img.out" 2>&1 || st=$?
	[ $st -le 1 ] || { echo "fsck -y exit $st"; cat "$img.out"; return 1; }
	"$F2REPLAY" same "$img" "$POWERCUT_FINAL" >/dev/null && return 0
	got=$(powercut_summary "$img" 2>&1)
	powercut_commit_sum "$POWERCUT_RECORDS" || return 1
	if [ "$got" != "$POWERCUT_SUM" ]; then
		echo "fsck -y after the cut does not give the recovered tree:"
		diff <(powercut_commit_summary "$POWERCUT_RECORDS") <(echo "$got") | head -n 20
		return 1
	fi
	"$FSCK" -f -n "$img" >"$img.out" 2>&1 || { echo "not clean:"; cat "$img.out"; return 1; }
	for p in ${RF_PC_INOS:-}; do
		got=$("$DUMP" --stat "$p" "$img" 2>&1 | grep '^ino ')
		[ "$got" = "$("$DUMP" --stat "$p" "$POWERCUT_FINAL" 2>&1 | grep '^ino ')" ] &&
			[ -n "$got" ] || { echo "$p: inode number differs: $got"; return 1; }
	done
}

# Every prefix of the scenarios with something to recover (the data goes
# out in runs of consecutive blocks: a few dozen records each), torn 512-
# and 2048-byte writes.  The writer is our roll-forward, so the scenarios
# are split between the kernel series: 6.1's images give the odd ones of
# RF_SCENARIOS, 6.12's the even ones (every scenario once across the two;
# F2_RF_PC_ALL=1 takes all).  newdir has nothing to recover (the driver
# checkpointed): fsck -y must write nothing there.
@test "power cut at every write of the recovery (half the scenarios on each kernel series)" {
	rf_require
	local s d=$BATS_FILE_TMPDIR i=0 half=1
	[ "${F2_KERNEL:-6.1}" = 6.1 ] || half=0
	for s in $RF_SCENARIOS; do
		i=$((i + 1))
		[ -n "${F2_RF_PC_ALL:-}" ] || [ $((i % 2)) = $half ] || continue
		if [ $s = newdir ]; then
			cp --sparse=always "$RF_IMAGES/$s.img" "$d/pc.img"
			F2_IO_RECORD=$d/pc.log "$FSCK" -y "$d/pc.img" >/dev/null 2>&1 || true
			[ "$("$F2REPLAY" count "$d/pc.log")" = 0 ]
			continue
		fi
		# dirs: the recovered files keep the driver's inode numbers
		RF_PC_INOS=
		[ $s = dirs ] && RF_PC_INOS="/d1/e1 /d1/e2 /d2/h"
		POWERCUT_WRITER_OK=1 powercut_run "$RF_IMAGES/$s.img" rf_pc_check -- "$FSCK" -y @IMG
		echo "$s: $POWERCUT_RECORDS records, $POWERCUT_CHECKED states"
		"$FSCK" -f -n "$POWERCUT_FINAL" || { echo "$s: the recovered image is not clean"; return 1; }
		[ "$POWERCUT_RECORDS" -le "$POWERCUT_ALL" ] ||
			{ echo "$s: too many records to try every prefix"; return 1; }
		[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	done
}

# fsck -p (boot-time preen) rolls forward with the same code: cut at every
# write of its run on three scenarios (new file, appended data past the
# indirect boundary, a file fsync-ed, truncated and fsync-ed again); each
# state is the start or -p's end, and fsck -y on it gives -p's end.
@test "power cut at every write of fsck -p rolling forward (newfile, indirect, truncate)" {
	rf_require
	local s
	for s in newfile indirect truncate; do
		RF_PC_INOS=
		POWERCUT_WRITER_OK=1 powercut_run "$RF_IMAGES/$s.img" rf_pc_check -- "$FSCK" -p @IMG
		echo "$s: $POWERCUT_RECORDS records, $POWERCUT_CHECKED states"
		grep -q "roll" "$POWERCUT_DIR/writer.out" || { cat "$POWERCUT_DIR/writer.out"; false; }
		"$FSCK" -f -n "$POWERCUT_FINAL" || { echo "$s: -p's image is not clean"; return 1; }
		[ "$POWERCUT_RECORDS" -le "$POWERCUT_ALL" ] && [ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	done
}
