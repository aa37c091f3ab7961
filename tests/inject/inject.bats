#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/inject/inject.bats - inject.f2fs with fstests' command line: the
# member lists fstests probes (-h), the inject/fsck steps of fstests'
# f2fs/009, 012, 019, 020, 022 and 023 (each fault reported by fsck -n
# with exit 4, repaired by -y with exit 1, then clean), a fault in every
# area found by our fsck and, where it checks the same thing, by the
# reference fsck; checksums redone unless --keep-crc; --dry-run, unknown
# members and mounted devices write nothing.

load ../lib/common

load fstests

setup() {
	require_prog "$INJECT" "$MKFS" "$FSCK" "$DUMP" "$REF_FSCK"
	T=$BATS_TEST_TMPDIR
}

# fst_check CASE...: each case's fault reported by fsck -n (exit 4),
# repaired by -y (exit 1), then clean for both fscks
fst_check() {
	local c
	for c in "$@"; do
		fst_make "$c" "$T" || { echo "$c: not made"; return 1; }
		found "$T/$c.img" "$FST_CODE" || { echo "in $c"; return 1; }
		repaired "$T/$c.img" || { echo "in $c"; return 1; }
		ref_fsck_clean "$T/$c.img" || { echo "in $c"; return 1; }
	done
}

@test "inject -h lists the members fstests probes, one 'member:' line each" {
	local pair area mb
	# _require_inject_f2fs_command passes 0 to sb/cp/nat/sit, nothing to the rest
	for pair in node:i_links node:addr node:i_xattr_nid node:i_nid node:i_inline \
		node:i_inline_xattr_size dent:d_hash sb:magic sb:s_stop_reason sb:s_errors \
		sb:feature sb:devs.path cp:checkpoint_ver cp:ckpt_flags cp:cur_node_segno \
		cp:alloc_type cp:crc cp:elapsed_time nat:version nat:ino nat:block_addr \
		sit:vblocks sit:valid_map sit:mtime ssa:entry_type ssa:check_sum ssa:nid \
		ssa:version ssa:ofs_in_node node:nid node:ino node:flag node:cp_ver \
		node:next_blkaddr node:i_ext.blk_addr node:i_addr dent:d_bitmap dent:d_ino \
		dent:d_ftype dent:filename; do
		area=${pair%%:*} mb=${pair#*:}
		case $area in
		sb|cp|nat|sit) run "$INJECT" "--$area" 0 -h ;;
		*) run "$INJECT" "--$area" "" -h ;;
		esac
		[ "$status" -eq 0 ] || { echo "$output"; return 1; }
		grep -q "^  $mb: " <<<"$output" || { echo "$output"; echo "--$area lacks $mb"; return 1; }
	done
	run "$INJECT" -h
	[ "$status" -eq 0 ] && [[ $output == *"--dent"* ]]
	run "$INJECT" -V
	[ "$status" -eq 0 ] && [[ $output == "inject.f2fs "* ]]
}

@test "fstests f2fs/009: i_links of each file type, with and without a hard link, found and repaired" {
	local name
	for name in $FST_009_NAMES; do
		fst_check "009-$name"
		[ "$(inode_field "$T/009-$name.img" "/$name" i_links)" -eq \
			"$(inode_field "$T/009.img" "/$name" i_links)" ]
	done
}

@test "fstests f2fs/012: d_hash of an entry in a casefolded directory, found and repaired" { fst_check 012; }
@test "fstests f2fs/019: an indirect node's entry pointed at the inode, found and repaired" { fst_check 019; }

@test "fstests f2fs/020: a directory's i_xattr_nid pointed at itself, found and repaired" {
	fst_check 020
	[ "$(inode_field "$T/020.img" /testdir i_xattr_nid)" -ne "$(inode_field "$T/020.img" /testdir ino)" ]
}

@test "fstests f2fs/022: a file's first direct node pointed at another inode, found and repaired" { fst_check 022; }
@test "fstests f2fs/023: i_inline and i_inline_xattr_size of a file, found and repaired" { fst_check 023; }

# The standard volume of the area cases: /small inline, /d/big in blocks
# (no extra attributes: i_addr[0] is its first block), /d/f1..f3 in d.
area_vol() {
	mkdir -p "$T/t/d"
	echo hello >"$T/t/small"
	seq 1 300000 >"$T/t/d/big"
	for i in 1 2 3; do echo "$i" >"$T/t/d/f$i"; done
	vol "$T/base.img" 128M "$T/t"
}

@test "inject: a fault in every area is found by our fsck and, where it checks the same, by the reference" {
	require_prog "$REF_FSCK"
	local big f1 small blk name code ref args rc
	area_vol
	big=$(inode_field "$T/base.img" /d/big ino)
	f1=$(inode_field "$T/base.img" /d/f1 ino)
	small=$(inode_field "$T/base.img" /small ino)
	blk=$(inode_field "$T/base.img" /d/big 'i_addr\[0x0\]')
	# name|our code|reference finds it (1) or does not check it (0)|arguments
	while IFS='|' read -r name code ref args; do
		[ -n "$name" ] || continue
		cp --sparse=always "$T/base.img" "$T/img"
		# shellcheck disable=SC2086
		inject "$T/img" $args || { echo "$name"; return 1; }
		# mkfs leaves the SIT entries of the current segments in the
		# journal and their summaries compacted in the checkpoint: the
		# copies the readers use are the ones changed
		case $name in
		sit-vblocks) grep -q "segment .* in the journal" "$T/inject.out" ;;
		ssa-nid) grep -q "(checkpoint copy)" "$T/inject.out" ;;
		esac || { cat "$T/inject.out"; echo "$name: not where the readers look"; return 1; }
		rc=0; "$FSCK" -f -n "$T/img" </dev/null >"$T/n.out" 2>&1 || rc=$?
		f2_codes "$T/n.out"
		if [[ " $REPLY " != *" $code "* ]] || [ "$rc" -ne 4 -a "$name" != cp-crc ]; then
			cat "$T/n.out"; echo "$name: exit $rc, codes '$REPLY', want $code"; return 1
		fi
		if [ "$ref" = 1 ] && ref_fsck_clean "$T/img" 2>/dev/null; then
			echo "$name: the reference fsck finds it clean"; return 1
		fi
	done <<-CASES
	sb-magic|0x010001|1|--sb 1 --mb magic --val 0x12345678
	sb-geometry|0x010001|1|--sb 0 --mb segment_count_main --val 7
	sb-backup-geometry|0x010002|0|--sb 2 --mb log_blocks_per_seg --val 8
	cp-crc|0x020002|1|--cp 0 --mb crc --val 0x12345
	nat-block_addr|0x030001|1|--nat 0 --mb block_addr --nid $f1 --val 4
	sit-vblocks|0x080001|1|--sit 0 --mb vblocks --blk $blk --val 7
	ssa-nid|0x090002|1|--ssa --mb nid --blk $blk --val $small
	i_links|0x050002|1|--node --mb i_links --nid $f1 --val 5
	i_size|0x05000C|1|--node --mb i_size --nid $small --val 99999
	i_blocks|0x050003|1|--node --mb i_blocks --nid $big --val 77
	i_addr|0x04000A|1|--node --mb i_addr --nid $big --idx 3 --val 30000
	d_hash|0x060004|1|--dent --mb d_hash --nid $f1 --val 0x1234
	d_ino|0x030006|1|--dent --mb d_ino --nid $f1 --val $small
	CASES
}

@test "inject: the checksum over the block is redone unless --keep-crc or it is the member" {
	local ino
	mkdir -p "$T/t"
	echo hello >"$T/t/f"
	vol "$T/base.img" 64M "$T/t" -O extra_attr,inode_checksum,sb_checksum
	ino=$(inode_field "$T/base.img" /f ino)
	# redone: only the member is wrong
	cp "$T/base.img" "$T/img"
	inject "$T/img" --node --mb i_links --nid "$ino" --val 3
	found "$T/img" 0x050002
	f2_codes "$T/n.out"
	[ "$REPLY" = 0x050002 ]
	# kept: the inode checksum is wrong as well
	cp "$T/base.img" "$T/img"
	inject "$T/img" --keep-crc --node --mb i_links --nid "$ino" --val 3
	found "$T/img" 0x050002
	f2_codes "$T/n.out"
	[ "$REPLY" != 0x050002 ]
	# the checksum as the member: left as given
	cp "$T/base.img" "$T/img"
	inject "$T/img" --node --mb i_inode_checksum --nid "$ino" --val 7
	[ "$(inode_field "$T/img" /f i_inode_checksum)" -eq 7 ]
	# the superblock: sb_checksum redone (fsck sees only that the copies
	# differ), or kept
	cp "$T/base.img" "$T/img"
	inject "$T/img" --sb 1 --mb volume_name --str relabelled
	found "$T/img" 0x010003
	f2_codes "$T/n.out"
	[ "$REPLY" = 0x010003 ]
	[ "$(blkid -p -s LABEL -o value "$T/img")" = relabelled ]
	cp "$T/base.img" "$T/img"
	inject "$T/img" --keep-crc --sb 1 --mb volume_name --str relabelled
	found "$T/img" 0x010001
	# the checkpoint: a flag injected with its crc redone leaves the pack valid
	cp "$T/base.img" "$T/img"
	inject "$T/img" --cp 0 --mb elapsed_time --val 12345
	"$FSCK" -f -n "$T/img" >"$T/n.out" 2>&1 || { cat "$T/n.out"; return 1; }
}

@test "inject: --dry-run, unknown members, bad selectors and mounted devices write nothing" {
	local ino before
	area_vol
	ino=$(inode_field "$T/base.img" /d/f1 ino)
	cp "$T/base.img" "$T/img"
	before=$(md5sum <"$T/img")
	run "$INJECT" --dry-run --node --mb i_links --nid "$ino" --val 9 "$T/img"
	[ "$status" -eq 0 ] && [[ $output == *"i_links of inode $ino"*"-> 9"* ]]
	run "$INJECT" --node --mb no_such --nid "$ino" --val 9 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *'unknown or unsupported member "no_such"'* ]]
	run "$INJECT" --node --mb i_addr --nid "$ino" --val 9 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"give --idx"* ]]
	run "$INJECT" --node --mb i_nid --idx 5 --nid "$ino" --val 9 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"invalid index 5"* ]]
	run "$INJECT" --node --mb i_advise --nid "$ino" --val 256 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"does not fit"* ]]
	run "$INJECT" --nat 0 --mb ino --nid 99999999 --val 1 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"past the NAT"* ]]
	run "$INJECT" --sit 0 --mb vblocks --blk 5 --val 1 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"outside the main area"* ]]
	run "$INJECT" --node --mb addr --nid "$ino" --idx 0 --val 1 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"use i_addr or i_nid"* ]]
	run "$INJECT" --node --sb 1 --mb magic --val 1 "$T/img"
	[ "$status" -eq 16 ] && [[ $output == *"only one area"* ]]
	run "$INJECT" --node --mb i_links --val 1 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"needs --nid"* ]]
	# a mounted image (the mount table given to the tool)
	echo "$T/img /mnt f2fs rw 0 0" >"$T/mounts"
	F2_PROC_MOUNTS=$T/mounts run "$INJECT" --node --mb i_links --nid "$ino" --val 9 "$T/img"
	[ "$status" -eq 1 ] && [[ $output == *"is mounted on /mnt"* ]]
	[ "$(md5sum <"$T/img")" = "$before" ]
}
