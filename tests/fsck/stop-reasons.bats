#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's records in the superblock (Linux 6.1+): s_stop_reason[]
# (a count per reason the driver stopped checkpoints) and s_errors[] (a
# bitmap of the corruption it met), planted with f2field in both copies of
# an image made by our mkfs.  dump.f2fs names them (text and --json);
# fsck.f2fs -n reports them (0x010007, exit 4) without writing; -y clears
# them in both copies (and CP_ERROR in the checkpoint), exit 1; then a
# second run is clean, dump shows none, and the reference fsck agrees.
load ../lib/common

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}

setup() {
	require_prog "$MKFS" "$FSCK" "$DUMP" "$F2FIELD" "$REF_FSCK"
	command -v jq >/dev/null || { echo "jq is needed"; return 1; }
	IMG=$BATS_TEST_TMPDIR/img
	make_image "$IMG" 256M
	run_mkfs "$MKFS" -f -O extra_attr,inode_checksum,sb_checksum "$IMG"
}

# plant IMG FIELD=VALUE...: set superblock fields in both copies, fix the crcs
plant() {
	local img=$1 s kv
	shift
	for s in sb sb1; do
		for kv in "$@"; do
			"$F2FIELD" "$img" set "$s.${kv%%=*}" "${kv#*=}" || return 1
		done
		"$F2FIELD" "$img" fixcrc "$s" || return 1
	done
}

# shutdown x1, write_fail x3, index 7 x2 (no_segment; corrupted_nid on
# 6.1), an unnamed index 20; errors corrupted_inode (bit 4),
# corrupted_xattr (bit 14), inconsistent_orphan (bit 17), unnamed bit 100
plant_records() {
	plant "$1" "s_stop_reason[0]=1" "s_stop_reason[3]=3" "s_stop_reason[7]=2" \
		"s_stop_reason[20]=5" "s_errors[0]=0x10" "s_errors[1]=0x40" "s_errors[2]=0x02" \
		"s_errors[12]=0x10"
}

@test "stop reasons: f2field plants both arrays through the field table" {
	plant_records "$IMG"
	[ "$("$F2FIELD" "$IMG" get 'sb.s_stop_reason[3]' | cut -d' ' -f3)" = 3 ]
	[ "$("$F2FIELD" "$IMG" get 'sb1.s_errors[1]' | cut -d' ' -f3)" = 64 ]
	[ "$("$F2FIELD" "$IMG" get 'sb.s_stop_reason[3]' | cut -d' ' -f1)" = $((1024 + 0xaca + 3)) ]
}

@test "stop reasons: dump names them, text and --json" {
	plant_records "$IMG"
	run "$DUMP" -d 1 "$IMG"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"Info: checkpoint stop reasons recorded by the kernel: shutdown(1) write_fail(3) no_segment(2, or corrupted_nid on Linux 6.1) reason_20(5)"* ]]
	[[ $output == *"Info: errors recorded by the kernel: corrupted_inode corrupted_xattr inconsistent_orphan error_100"* ]]
	grep -q '^stop_reasons .*\[shutdown(1) write_fail(3)' <<<"$output"
	grep -q '^errors .*\[corrupted_inode corrupted_xattr inconsistent_orphan error_100\]' <<<"$output"
	"$DUMP" --json "$IMG" >"$BATS_TEST_TMPDIR/j"
	jq -e '.superblock.stop_reasons == {"shutdown": 1, "write_fail": 3, "no_segment": 2, "reason_20": 5}' "$BATS_TEST_TMPDIR/j"
	jq -e '.superblock.errors == ["corrupted_inode", "corrupted_xattr", "inconsistent_orphan", "error_100"]' "$BATS_TEST_TMPDIR/j"
	jq -e '.superblock.s_stop_reason | length == 32 and .[3] == 3 and .[20] == 5' "$BATS_TEST_TMPDIR/j"
	jq -e '.superblock.s_errors | length == 16 and .[1] == 64 and .[12] == 16' "$BATS_TEST_TMPDIR/j"
}

@test "stop reasons: a clean image shows none" {
	run "$DUMP" -d 1 "$IMG"
	[ "$status" -eq 0 ]
	! grep -q 'recorded by the kernel' <<<"$output" || false
	"$DUMP" --json "$IMG" | jq -e '.superblock.stop_reasons == {} and .superblock.errors == [] and (.superblock.s_errors | add) == 0'
}

@test "stop reasons: fsck -n reports them, exit 4, writes nothing; -y clears them and CP_ERROR, exit 1; then clean" {
	local rc before
	plant_records "$IMG"
	"$F2FIELD" "$IMG" set cp.ckpt_flags $(( $("$F2FIELD" "$IMG" get cp.ckpt_flags | cut -d' ' -f3) | 0x8 ))
	"$F2FIELD" "$IMG" fixcrc cp
	before=$(img_sum "$IMG")
	# no -f: the records alone force the full check
	rc=0; "$FSCK" -n "$IMG" </dev/null >"$BATS_TEST_TMPDIR/n" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/n"
	[ "$rc" -eq 4 ]
	[ "$(img_sum "$IMG")" = "$before" ]
	grep -q '^0x010007 SB_KERNEL_RECORDS: superblock 0: checkpoint stop reasons: shutdown(1) write_fail(3) no_segment(2, or corrupted_nid on Linux 6.1) reason_20(5); errors: corrupted_inode corrupted_xattr inconsistent_orphan error_100' "$BATS_TEST_TMPDIR/n"
	grep -q '^0x020003 CP_ERROR_FLAG' "$BATS_TEST_TMPDIR/n"
	! grep -q 'clean (checkpoint says unmounted cleanly' "$BATS_TEST_TMPDIR/n" || false
	# --json names the finding too
	rc=0; "$FSCK" -n --json "$IMG" </dev/null >"$BATS_TEST_TMPDIR/nj" 2>/dev/null || rc=$?
	[ "$rc" -eq 4 ]
	jq -e '[.findings[].name] | index("SB_KERNEL_RECORDS") != null' "$BATS_TEST_TMPDIR/nj"

	rc=0; "$FSCK" -y "$IMG" </dev/null >"$BATS_TEST_TMPDIR/y" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/y"
	[ "$rc" -eq 1 ]
	# both copies cleared, the crc still good (the verifier accepts both)
	for s in sb sb1; do
		for i in 0 3 7 20; do
			[ "$("$F2FIELD" "$IMG" get "$s.s_stop_reason[$i]" | cut -d' ' -f3)" = 0 ]
		done
		for i in 0 1 2 12; do
			[ "$("$F2FIELD" "$IMG" get "$s.s_errors[$i]" | cut -d' ' -f3)" = 0 ]
		done
	done
	[ $(( $("$F2FIELD" "$IMG" get cp.ckpt_flags | cut -d' ' -f3) & 0x8 )) -eq 0 ]

	rc=0; "$FSCK" -f -n "$IMG" </dev/null >"$BATS_TEST_TMPDIR/2" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/2"
	[ "$rc" -eq 0 ]
	! grep -q '^0x' "$BATS_TEST_TMPDIR/2" || false
	rc=0; "$FSCK" -n "$IMG" </dev/null >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 0 ]
	run "$DUMP" -d 1 "$IMG"
	! grep -q 'recorded by the kernel' <<<"$output" || false
	"$DUMP" --json "$IMG" | jq -e '.superblock.stop_reasons == {} and .superblock.errors == [] and (.superblock.s_stop_reason | add) == 0'
	ref_fsck_clean "$IMG"
}

@test "stop reasons: -p clears them too (safe to preen), exit 1" {
	local rc
	plant "$IMG" "s_stop_reason[4]=1"
	rc=0; "$FSCK" -p "$IMG" </dev/null >"$BATS_TEST_TMPDIR/p" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/p"
	[ "$rc" -eq 1 ]
	grep -q 'corrupted_summary(1)' "$BATS_TEST_TMPDIR/p"
	rc=0; "$FSCK" -f -n "$IMG" </dev/null >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 0 ]
}

@test "stop reasons: kept when the check leaves an error it cannot repair" {
	local rc before
	# an error this version reports but cannot repair: casefolding with
	# an encoding it does not know (0x010009 has no repair)
	plant "$IMG" "s_errors[0]=0x01" \
		"feature=$(( $("$F2FIELD" "$IMG" get sb.feature | cut -d' ' -f3) | 0x1000 ))" \
		"s_encoding=99"
	rc=0; "$FSCK" -f -y "$IMG" </dev/null >"$BATS_TEST_TMPDIR/y" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/y"
	[ $((rc & 4)) -eq 4 ]
	grep -q "the kernel's records kept: errors are left" "$BATS_TEST_TMPDIR/y"
	[ "$("$F2FIELD" "$IMG" get 'sb.s_errors[0]' | cut -d' ' -f3)" = 1 ]
	[ "$("$F2FIELD" "$IMG" get 'sb1.s_errors[0]' | cut -d' ' -f3)" = 1 ]
}
