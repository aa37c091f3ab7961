#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# layout.bats - our mkfs lays out the same geometry as f2fs-tools 1.15.
#
# Each row formats two sparse images of the same size with the same options,
# one with the mkfs under test ($MKFS) and one with the reference
# ($REF_MKFS), then checks, reporting every problem of the row at once:
#   - every superblock geometry field is equal (compare_geometry);
#   - the checkpoint's user_block_count, rsvd_segment_count and
#     overprov_segment_count are equal (compare_cp);
#   - the reference fsck.f2fs --dry-run finds our image clean.
# When the reference refuses a row (too small for the options), ours must
# refuse it too, with an ordinary error exit rather than a crash.
#
# Rows: sizes 64M 1G 64G 1T x option sets; some extra rows at the end.

load ../lib/common

# check_layout SIZE [MKFS-OPTION...]
#   EXTRA_DEVS="SIZE..."  also make one more device per SIZE, passed with -c
#   SECTORS=N             pass N as the trailing sector-count argument
check_layout() {
	local size=$1 side dir prog devlist i bad=0
	shift
	require_prog "$MKFS" "$REF_MKFS" "$REF_FSCK" "$F2SB"
	local -A status
	for side in ours ref; do
		dir=$BATS_TEST_TMPDIR/$side
		mkdir -p "$dir"
		make_image "$dir/main.img" "$size"
		devlist=
		i=1
		for s in ${EXTRA_DEVS:-}; do
			make_image "$dir/dev$i.img" "$s"
			devlist="${devlist:+$devlist,}$dir/dev$i.img"
			i=$((i + 1))
		done
		local -a args=(-f "$@")
		[ -z "$devlist" ] || args+=(-c "$devlist")
		args+=("$dir/main.img")
		[ -z "${SECTORS:-}" ] || args+=("$SECTORS")
		prog=$MKFS
		[ "$side" = ours ] || prog=$REF_MKFS
		status[$side]=0
		"$prog" "${args[@]}" </dev/null >"$dir/mkfs.out" 2>&1 || status[$side]=$?
	done

	if [ "${status[ref]}" -ne 0 ]; then
		echo "reference refuses: $REF_MKFS $* (exit ${status[ref]})"
		if [ "${status[ours]}" -eq 0 ]; then
			echo "but ours accepted it:"; cat "$BATS_TEST_TMPDIR/ours/mkfs.out"
			return 1
		fi
		if is_crash "${status[ours]}"; then
			echo "ours refused it by crashing (exit ${status[ours]}):"
			cat "$BATS_TEST_TMPDIR/ours/mkfs.out"
			return 1
		fi
		return 0
	fi
	if [ "${status[ours]}" -ne 0 ]; then
		echo "ours failed (exit ${status[ours]}) where the reference succeeded:"
		cat "$BATS_TEST_TMPDIR/ours/mkfs.out"
		return 1
	fi

	local o=$BATS_TEST_TMPDIR/ours/main.img r=$BATS_TEST_TMPDIR/ref/main.img
	compare_geometry "$o" "$r" || bad=1
	compare_cp "$o" "$r" || bad=1
	ref_fsck_clean "$o" || bad=1
	return $bad
}

# ---- default -------------------------------------------------------------
@test "layout 64M: default" { check_layout 64M; }
@test "layout 1G: default" { check_layout 1G; }
@test "layout 64G: default" { check_layout 64G; }
@test "layout 1T: default" { check_layout 1T; }

# ---- checksums -----------------------------------------------------------
@test "layout 64M: -O extra_attr,inode_checksum,sb_checksum" { check_layout 64M -O extra_attr,inode_checksum,sb_checksum; }
@test "layout 1G: -O extra_attr,inode_checksum,sb_checksum" { check_layout 1G -O extra_attr,inode_checksum,sb_checksum; }
@test "layout 64G: -O extra_attr,inode_checksum,sb_checksum" { check_layout 64G -O extra_attr,inode_checksum,sb_checksum; }
@test "layout 1T: -O extra_attr,inode_checksum,sb_checksum" { check_layout 1T -O extra_attr,inode_checksum,sb_checksum; }

# ---- quota, lost+found and the other inode features ---------------------
F2_MANY=extra_attr,project_quota,inode_crtime,flexible_inline_xattr,quota,lost_found,verity,compression
@test "layout 64M: -O extra_attr,project_quota,inode_crtime,flexible_inline_xattr,quota,lost_found,verity,compression" { check_layout 64M -O "$F2_MANY"; }
@test "layout 1G: -O extra_attr,project_quota,inode_crtime,flexible_inline_xattr,quota,lost_found,verity,compression" { check_layout 1G -O "$F2_MANY"; }
@test "layout 64G: -O extra_attr,project_quota,inode_crtime,flexible_inline_xattr,quota,lost_found,verity,compression" { check_layout 64G -O "$F2_MANY"; }
@test "layout 1T: -O extra_attr,project_quota,inode_crtime,flexible_inline_xattr,quota,lost_found,verity,compression" { check_layout 1T -O "$F2_MANY"; }

# ---- encryption ----------------------------------------------------------
# read-only volumes: no SSA, no reserve, two logs, areas from block 2
@test "layout 64M: -O ro" { check_layout 64M -O ro; }
@test "layout 1G: -O ro" { check_layout 1G -O ro; }
@test "layout 64G: -O ro" { check_layout 64G -O ro; }
# (not with -s 4 -z 2: the reference's user_block_count then counts the
# segments the zone alignment leaves out, and its own fsck refuses it)

@test "layout 64M: -O encrypt" { check_layout 64M -O encrypt; }
@test "layout 1G: -O encrypt" { check_layout 1G -O encrypt; }
@test "layout 64G: -O encrypt" { check_layout 64G -O encrypt; }
@test "layout 1T: -O encrypt" { check_layout 1T -O encrypt; }

# ---- casefolding ---------------------------------------------------------
@test "layout 64M: -O extra_attr,casefold -C utf8" { check_layout 64M -O extra_attr,casefold -C utf8; }
@test "layout 1G: -O extra_attr,casefold -C utf8" { check_layout 1G -O extra_attr,casefold -C utf8; }
@test "layout 64G: -O extra_attr,casefold -C utf8" { check_layout 64G -O extra_attr,casefold -C utf8; }
@test "layout 1T: -O extra_attr,casefold -C utf8" { check_layout 1T -O extra_attr,casefold -C utf8; }

# ---- sections and zones (64M is too small for the reference) ------------
@test "layout 64M: -s 2 -z 2" { check_layout 64M -s 2 -z 2; }
@test "layout 1G: -s 2 -z 2" { check_layout 1G -s 2 -z 2; }
@test "layout 64G: -s 2 -z 2" { check_layout 64G -s 2 -z 2; }
@test "layout 1T: -s 2 -z 2" { check_layout 1T -s 2 -z 2; }

# ---- overprovision ratio (64M is too small for 5%) -----------------------
@test "layout 64M: -o 5" { check_layout 64M -o 5; }
@test "layout 1G: -o 5" { check_layout 1G -o 5; }
@test "layout 64G: -o 5" { check_layout 64G -o 5; }
@test "layout 1T: -o 5" { check_layout 1T -o 5; }

# ---- allocation policy ---------------------------------------------------
@test "layout 64M: -a 0" { check_layout 64M -a 0; }
@test "layout 1G: -a 0" { check_layout 1G -a 0; }
@test "layout 64G: -a 0" { check_layout 64G -a 0; }
@test "layout 1T: -a 0" { check_layout 1T -a 0; }

# ---- extension lists (cold -e, hot -E) -----------------------------------
@test "layout 64M: -e mp3,gif,mov -E db,sqlite" { check_layout 64M -e mp3,gif,mov -E db,sqlite; }
@test "layout 1G: -e mp3,gif,mov -E db,sqlite" { check_layout 1G -e mp3,gif,mov -E db,sqlite; }
@test "layout 64G: -e mp3,gif,mov -E db,sqlite" { check_layout 64G -e mp3,gif,mov -E db,sqlite; }
@test "layout 1T: -e mp3,gif,mov -E db,sqlite" { check_layout 1T -e mp3,gif,mov -E db,sqlite; }

# ---- label (UTF-8 on the command line, UTF-16LE on disk) ----------------
@test "layout 64M: -l f2fs-Tëst" { check_layout 64M -l f2fs-Tëst; }
@test "layout 1G: -l f2fs-Tëst" { check_layout 1G -l f2fs-Tëst; }
@test "layout 64G: -l f2fs-Tëst" { check_layout 64G -l f2fs-Tëst; }
@test "layout 1T: -l f2fs-Tëst" { check_layout 1T -l f2fs-Tëst; }

# ---- a second device with -c ---------------------------------------------
@test "layout 64M+64M: -c dev1" { EXTRA_DEVS=64M check_layout 64M; }
@test "layout 1G+1G: -c dev1" { EXTRA_DEVS=1G check_layout 1G; }
@test "layout 64G+64G: -c dev1" { EXTRA_DEVS=64G check_layout 64G; }
@test "layout 1T+1T: -c dev1" { EXTRA_DEVS=1T check_layout 1T; }

# ---- further rows --------------------------------------------------------
@test "layout 1G+512M+256M: -c dev1,dev2" { EXTRA_DEVS="512M 256M" check_layout 1G; }
@test "layout 1G: -e with an over-long extension" { check_layout 1G -e verylongextension,mp3; }
@test "layout 1G: -i (extended node bitmap)" { check_layout 1G -i; }
@test "layout 64G: -i (extended node bitmap)" { check_layout 64G -i; }
@test "layout 1G: -g android" { check_layout 1G -g android; }
@test "layout 1G: -w 4096" { check_layout 1G -w 4096; }
@test "layout 1G: sector count 1000000" { SECTORS=1000000 check_layout 1G; }
@test "layout 1G: -s 4 -z 4 -o 10" { check_layout 1G -s 4 -z 4 -o 10; }
@test "layout 64M: -s 4 -z 4 (too small: refuse, don't crash)" { check_layout 64M -s 4 -z 4; }
@test "layout 1G: all the features at once" { check_layout 1G -O "$F2_MANY,encrypt,inode_checksum,sb_checksum"; }
