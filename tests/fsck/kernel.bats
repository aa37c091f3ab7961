#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Images repaired by fsck.f2fs -y (superblock copies, checkpoint counters
# and flags, orphan lists, reserved NAT entries, shared logs, quota files)
# mount under the Linux 6.1 driver in QEMU (one boot), every file reads
# back with the md5 of the tree that was loaded, the kernel writes,
# deletes and rewrites files on them, and afterwards our fsck -f -n and
# the reference fsck --dry-run find them clean.  On a fresh volume
# (guest/repaired-check.sh) the checkpoint that empties a file's segments
# counts them free (our fsck finds its count exact), and the one that
# disables checkpointing counts one short, which our fsck accepts.  One
# more image is left by
# the kernel with an orphan inode (open, unlinked, synced, never
# unmounted) and a file fsync-ed after the last checkpoint: our fsck, run
# in the guest while it is mounted, refuses -y and warns under -n; on the
# host it walks the orphan and finds nothing wrong (at most a warning
# that a file waits for roll-forward).
load ../lib/common
load ../lib/kernel

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}
export F2FIELD REF_SLOAD

# The cases each boot below repairs and mounts.  Every case directory is
# in one of them: the last boot takes every case the others do not name.
# The first boot (counters, orphans, logs, quota): every file reads back.
COUNTER_CASES=(001-sb-primary-magic 002-sb-backup-crc
	003-sb-copies-differ 004-sb-primary-range 005-cp-crc 006-cp-error-flag
	007-cp-valid-blocks 008-cp-valid-nodes 009-cp-valid-inodes 069-cp-free-segs-high
	011-cp-user-blocks 039-nat-nid0 042-orphan-linked 043-orphan-entry-count
	044-orphan-blk-count 045-orphan-ino-free 046-orphan-ino-node 048-curseg-shared
	049-dent-bucket 050-quota-user 051-quota-group 052-quota-missing 053-quota-uid
	054-quota-magic 055-curseg-type 057-curseg-shared-type 058-nat-meta-ino
	059-inode-ext)
# The second (structural repairs): CASE[:PATH the fault damaged[:lf when
# it is reconnected under lost+found]].
STRUCT_CASES=(012-nat-addr-range 013-nat-ino-range
	014-nat-dup-addr 015-inode-links 016-inode-links-hard
	017-inode-blocks 018-inode-csum 019-inode-csum-links 020-inode-namelen
	021-inode-inline-nid 022-inode-depth 023-inode-xattr-free
	024-dent-ino-free:./d1/d2/mid:lf 025-dent-hash 026-dent-ftype
	027-dent-namelen:./d1/d2/mid:lf 028-dent-not-inode:./d1/d2/mid:lf 029-dent-dotdot
	030-dir-multi-link:./d1/d2/mid:lf 031-dent-bit-cleared:./d1/d2/mid:lf
	032-sit-vblocks 033-sit-stray-bit 034-ssa-data 035-node-footer
	036-node-owner:./d1/big 037-nat-bits 038-node-dup-nid:./huge 040-sit-type
	041-inode-mode)
# 062 (two devices) has a boot of its own.
OWN_BOOT_CASES=(062-multidev-inode-links)

@test "fsck kernel: repaired images mount, read back intact, take writes, and check clean" {
	kernel_require
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	# every case -y repairs without losing a file (049 renames one of its
	# own tree's files: compared by content only); the last disk is the
	# orphan image
	local d=$BATS_TEST_TMPDIR cases=("${COUNTER_CASES[@]}")
	local imgs=() c i rc dev
	# expected md5s: the standard tree, as make.sh loads it
	std_tree_sums >"$d/want"
	# 049's tree: big/f1..f1000 holding their number
	mkdir -p "$d/n049"
	for i in $(seq 1 1000); do echo "$i" >"$d/n049/$i"; done
	(cd "$d/n049" && ls | xargs md5sum | cut -d' ' -f1 | sort) >"$d/want.049"
	for c in "${cases[@]}"; do
		shared_repaired "$c" 1 || return 1
		imgs+=("$d/$c.img")
	done
	truncate -s 256M "$d/orphan.img" "$d/free.img"
	"$REF_MKFS" -q -f -O extra_attr,inode_checksum "$d/orphan.img" >/dev/null
	"$REF_MKFS" -q -f "$d/free.img" >/dev/null
	echo "$(vd_name ${#cases[@]}) freecount" >"$d/roles"
	kernel_add_binary "$FSCK"
	rc=0; KERNEL_FILES="$d/roles:/guest/roles" kernel_run "$BATS_TEST_DIRNAME/guest/repaired-check.sh" \
		"${imgs[@]}" "$d/free.img" "$d/orphan.img" || rc=$?
	kernel_output >"$d/out"
	cat "$d/out"
	[ "$rc" -eq 0 ]
	grep -q '^DONE' "$d/out"
	for i in "${!cases[@]}"; do
		c=${cases[$i]} dev=$(vd_name "$i")
		grep -q "^$dev mount rc=0" "$d/out" || { echo "$c: no mount"; return 1; }
		grep -q "^$dev write rc=0" "$d/out" || { echo "$c: write failed"; return 1; }
		grep -q "^$dev umount rc=0" "$d/out" || { echo "$c: umount failed"; return 1; }
		sed -n "s/^$dev md5 //p" "$d/out" | LC_ALL=C sort -k2 >"$d/got.$i"
		if [ "$c" = 049-dent-bucket ]; then
			cut -d' ' -f1 "$d/got.$i" | sort | diff "$d/want.049" - ||
				{ echo "$c: contents differ"; return 1; }
		else
			diff "$d/want" "$d/got.$i" || { echo "$c: contents differ"; return 1; }
		fi
		rc=0; "$FSCK" -f -n "${imgs[$i]}" >"$d/after" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] || { cat "$d/after"; echo "$c: after the kernel wrote: exit $rc"; return 1; }
		ref_fsck_clean "${imgs[$i]}"
	done
	kernel_free_counts "$(vd_name ${#cases[@]})"
	dev=$(vd_name $((${#cases[@]} + 1)))
	grep -q "^$dev orphan rc=0" "$d/out" || { echo "orphan: setup failed"; return 1; }
	# on the mounted device: -y refused (exit 8), -n runs with a warning
	grep -q "^$dev fsck-y rc=8 1" "$d/out"
	grep -Eq "^$dev fsck-n rc=[04] 1" "$d/out"
	rc=0; "$FSCK" -n -v "$d/orphan.img" >"$d/orphan.out" 2>&1 || rc=$?
	cat "$d/orphan.out"
	[ "$rc" -eq 0 ]
	# nothing, or only the warning about a file waiting for roll-forward
	# (the driver may checkpoint on that fsync instead of logging it)
	if grep '^0x' "$d/orphan.out" | grep -vq '^0x020009 CP_ROLL_FORWARD: '; then
		return 1
	fi
	grep -q 'checkpoint: 1 orphan inode(s)' "$d/orphan.out"
}

# kernel_free_counts DEV: the free segment counts of the kernel's
# checkpoints on the free count disk (guest/repaired-check.sh).  The one
# that emptied four segments counts them free, as the SIT does (the driver
# frees its prefree segments while it writes the SIT, before it stores the
# count: f2fs_flush_sit_entries, then do_checkpoint), and fsck finds it
# exact.  The one that disabled checkpointing, left on the disk, kept the
# segment it emptied in use, so it counts fewer free segments than the
# SIT; fsck accepts that (within the segments whose SIT entries it wrote).
kernel_free_counts() {
	local img=$d/free.img ver cp sit rc a_ver a_cp flags
	grep -q "^$1 freecount rc=0" "$d/out" || { echo "freecount: setup failed"; return 1; }
	read -r a_ver a_cp sit rc < <(sed -n "s/^$1 count-a //p" "$d/out")
	[ "$rc" = 0 ] && [ "$a_cp" = "$sit" ] || { echo "after the write: fsck $rc, $a_cp/$sit"; return 1; }
	read -r ver cp sit rc < <(sed -n "s/^$1 count-b //p" "$d/out")
	echo "the checkpoint that emptied the file's segments: $cp free, the SIT $sit; before it $a_cp"
	[ "$rc" = 0 ] && [ "$ver" = $((a_ver + 1)) ] && [ "$cp" = "$sit" ] && [ "$cp" -ge $((a_cp + 3)) ] ||
		return 1
	rc=0; "$FSCK" -f -n -v "$img" >"$d/free.out" 2>&1 || rc=$?
	cat "$d/free.out"
	read -r cp sit < <(sed -n 's/^checkpoint: free_segment_count \([0-9]*\), the SIT has \([0-9]*\) .*/\1 \2/p' \
		"$d/free.out")
	flags=$("$F2FIELD" "$img" get cp.ckpt_flags | cut -d' ' -f3)
	echo "the checkpoint that disabled checkpointing: flags $flags, $cp free, the SIT $sit"
	[ "$rc" -eq 0 ] && [ $((flags & 0x1000)) -ne 0 ] && [ "$cp" -lt "$sit" ] &&
		grep -q 'written with checkpointing disabled' "$d/free.out" || return 1
}

# std_tree_sums: "md5 ./path" of every file of the standard tree of
# tests/fsck/lib.sh (what make.sh loads), sorted by path
std_tree_sums() {
	(. "$F2_TOP/tests/fsck/lib.sh"; std_tree "$d/tree")
	(cd "$d/tree" && find . -type f -print0 | xargs -0 md5sum) |
		sed 's/^\([0-9a-f]*\)  /\1 /' | LC_ALL=C sort -k2
}

# Disk name of the i-th virtio disk (vda.. vdz, vdaa..).
vd_name() {
	local i=$1 l=abcdefghijklmnopqrstuvwxyz
	if [ "$i" -lt 26 ]; then echo "vd${l:$i:1}"; else echo "vd${l:$((i / 26 - 1)):1}${l:$((i % 26)):1}"; fi
}

# shared_repaired CASE Y: $d/CASE.img made and repaired (fsck -y exiting
# Y; $d/CASE.y its output, $d/CASE.sums with RB_SUMS).  The repaired
# images do not depend on the kernel: the first lane to want one makes
# it, the other copies it (lane_shared)
shared_repaired() {
	local c=$1 y=$2 LANE_KEY
	# what the cases depend on besides the build: their scripts, this file
	# and the reference tools (make.sh's base image)
	[ -n "${FSCK_CASES_KEY:-}" ] || FSCK_CASES_KEY=$( { cat "$F2_TOP/tests/fsck/lib.sh" \
		"$BATS_TEST_FILENAME" "$F2_TOP"/tests/fsck/[0-9][0-9][0-9]-*/*
		stat -L -c '%n %s %Y' "$REF_MKFS" "$REF_SLOAD"; } | md5sum | cut -c1-16)
	LANE_KEY=$FSCK_CASES_KEY
	lane_shared fsck-repaired "$c${RB_SUMS:+.sums}" repaired_case "$c" "$y" ||
		{ echo "$c: making or repairing it failed"; return 1; }
	cp --sparse=always "$REPLY/img" "$d/$c.img" && cp "$REPLY/y" "$d/$c.y" || return 1
	[ ! -f "$REPLY/sums" ] || cp "$REPLY/sums" "$d/$c.sums"
}

# repaired_case DIR CASE Y: CASE's image made and repaired by fsck -y,
# which must exit Y, as DIR/img (DIR/y its output; with RB_SUMS and a
# repair, DIR/sums the tree_sums of the result)
repaired_case() {
	local out=$1 c=$2 y=$3 rc=0 d=$1
	bash "$F2_TOP/tests/fsck/$c/make.sh" "$out/img" >"$out.log" 2>&1 || { cat "$out.log"; return 1; }
	"$FSCK" -f -y "$out/img" </dev/null >"$out/y" 2>&1 || rc=$?
	[ "$rc" -eq "$y" ] || { cat "$out/y"; echo "$c: -y exit $rc, expected $y"; return 1; }
	if [ -n "${RB_SUMS:-}" ] && [ "$y" -ne 4 ]; then
		tree_sums "$out/img" >"$out/sums" || return 1
		rm -rf "$out/x"
	fi
	rm -f "$out.log"
}

# repaired_boot CASE...: each case's image made and repaired by fsck -y
# (the exit its expect file names; with RB_SUMS set, $d/CASE.sums gets
# tree_sums of the result), then one boot mounting, reading (md5 of every
# file), writing and unmounting each; $d/want holds the standard
# tree's md5s, $d/got.I what disk I read back, $d/imgs the images (a line
# each).  A case -y cannot repair (exit 4) must be refused by the kernel
# too; the others must mount with no f2fs complaint in dmesg.
repaired_boot() {
	local c i rc dev y imgs=() ys=()
	std_tree_sums >"$d/want"
	for c in "$@"; do
		# shellcheck disable=SC1090,SC2154
		y=$(. "$F2_TOP/tests/fsck/$c/expect" && echo "$y_exit")
		shared_repaired "$c" "$y" || return 1
		imgs+=("$d/$c.img") ys+=("$y")
	done
	printf '%s\n' "${imgs[@]}" >"$d/imgs"
	rc=0; kernel_run "$BATS_TEST_DIRNAME/guest/repaired-tree.sh" "${imgs[@]}" || rc=$?
	kernel_output >"$d/out"
	cat "$d/out"
	echo "boot: ${KERNEL_WALL:-?} s"
	[ "$rc" -eq 0 ] && grep -q '^DONE' "$d/out" || return 1
	for i in "${!imgs[@]}"; do
		dev=$(vd_name "$i")
		if [ "${ys[$i]}" -eq 4 ]; then
			! grep -q "^$dev mount rc=0" "$d/out" ||
				{ echo "disk $i: fsck could not repair it, yet the kernel mounted it"; return 1; }
			continue
		fi
		grep -q "^$dev mount rc=0" "$d/out" ||
			{ echo "disk $i: no mount"; kernel_dmesg | grep -i f2fs | tail -n 5; return 1; }
		grep -q "^$dev write rc=0" "$d/out" || { echo "disk $i: write failed"; return 1; }
		grep -q "^$dev umount rc=0" "$d/out" || { echo "disk $i: umount failed"; return 1; }
		sed -n "s/^$dev md5 //p" "$d/out" | LC_ALL=C sort -k2 >"$d/got.$i"
		# what the driver says of a mounted repair: only the usual notes
		# (and, where -y wrote nothing, that a checkpoint field the case
		# changed with its crc left the nat_bits stale)
		ok='Found nat_bits|Mounted with checkpoint|Using encoding|recover fsync data|f2fs_enable_checkpoint\(\) (starts|finishes)'
		[ "${ys[$i]}" -ne 0 ] || ok="$ok|Disable nat_bits due to incorrect cp_ver"
		if kernel_dmesg | grep "F2FS-fs ($dev)" | grep -Ev "$ok"; then
			echo "disk $i: the kernel complained"; return 1
		fi
	done
}

# after_kernel IMG: what the kernel wrote leaves it clean for both fscks
after_kernel() {
	local rc=0
	"$FSCK" -f -n "$1" >"$d/after" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$d/after"; echo "$1: after the kernel wrote: exit $rc"; return 1; }
	ref_fsck_clean "$1"
}

@test "fsck kernel: structural repairs mount, intact files read back, lost+found holds the reconnected, the kernel writes, both fscks clean" {
	kernel_require
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	# CASE[:PATH the fault damaged[:lf when it is reconnected under lost+found]]
	local d=$BATS_TEST_TMPDIR cases=("${STRUCT_CASES[@]}")
	local c i spec path lf sum
	repaired_boot "${cases[@]%%:*}"
	for i in "${!cases[@]}"; do
		spec=${cases[$i]} c=${spec%%:*} path= lf=
		case $spec in *:*) path=${spec#*:} ;; esac
		case $path in *:lf) lf=1 path=${path%:lf} ;; esac
		# every file the fault did not touch reads back at its path
		awk -v skip="$path" -v c="$c" 'NR == FNR { got[$0] = 1; next }
			$2 != skip && !($0 in got) { print c ": " $2 " differs or is missing"; bad = 1 }
			END { exit bad }' "$d/got.$i" "$d/want" || return 1
		if [ -n "$lf" ]; then	# the damaged name's file is intact in lost+found
			sum=$(grep " $path\$" "$d/want" | cut -d' ' -f1)
			grep -q "^$sum ./lost+found/#" "$d/got.$i" ||
				{ echo "$c: $path not in lost+found"; return 1; }
		fi
		after_kernel "$d/$c.img"
	done
}

# rest_cases: every case directory no list above names (the last boot)
rest_cases() {
	local c named=" ${COUNTER_CASES[*]} ${STRUCT_CASES[*]%%:*} ${OWN_BOOT_CASES[*]} "
	for c in "$F2_TOP"/tests/fsck/[0-9][0-9][0-9]-*/; do
		c=$(basename "$c")
		case $named in *" $c "*) ;; *) echo "$c" ;; esac
	done
}

# tree_sums IMG: "md5 ./path" of every file of IMG as dump.f2fs extracts
# it, sorted by path (lost+found included)
tree_sums() {
	rm -rf "$d/x" && mkdir -p "$d/x"
	"$DUMP" --extract / --output "$d/x" --no-owners --xattrs=none "$1" >/dev/null 2>&1 ||
		{ echo "dump --extract failed on $1" >&2; return 1; }
	(cd "$d/x" && find . -type f -print0 | xargs -0 -r md5sum) |
		sed 's/^\([0-9a-f]*\)  /\1 /' | LC_ALL=C sort -k2
}

# Every other case (the list grows with tests/fsck/ by itself): the
# repaired root (060: mode wrong, repaired in place; 061: zeroed, the old
# tree found again under lost+found), illegal names (072: a '/'; 073: a
# second ".."), the SIT entries Linux checks at mount (074, 075), a NAT
# entry naming a data block (076), a committed checkpoint with a damaged
# head (077: the newer pack, with lost+found, is kept), and the cases -y
# leaves as they are (notices, or what it cannot repair: the kernel must
# refuse those too).  Each mounts with no complaint, reads back every
# file dump.f2fs extracts from it on the host (and every file of the
# standard tree the fault did not touch), takes writes, and both fscks
# find it clean afterwards.
@test "fsck kernel: every other case mounts after -y; every file reads back; the kernel writes; both fscks clean" {
	kernel_require
	require_prog "$FSCK" "$DUMP" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	local d=$BATS_TEST_TMPDIR cases=() boots per k
	mapfile -t cases < <(rest_cases)
	echo "cases: ${cases[*]}"
	[ "${#cases[@]}" -ge 10 ] || { echo "${#cases[@]} cases: the lists are wrong"; return 1; }
	# as few boots as the guest's disks allow (28), evenly filled
	boots=$(( (${#cases[@]} + 27) / 28 )) per=$(( (${#cases[@]} + boots - 1) / boots ))
	for ((k = 0; k < ${#cases[@]}; k += per)); do
		RB_SUMS=1 repaired_boot "${cases[@]:k:per}" || return 1
		rest_check "${cases[@]:k:per}" || return 1
	done
}

# rest_check CASE...: the checks of the boot repaired_boot just made of
# those cases (disk I is the I-th case)
rest_check() {
	local c i y sum lost cases=("$@")
	for i in "${!cases[@]}"; do
		c=${cases[$i]}
		y=$(. "$F2_TOP/tests/fsck/$c/expect" && echo "$y_exit")
		[ "$y" -ne 4 ] || continue
		# the kernel reads what our dump read before the boot
		diff "$d/$c.sums" "$d/got.$i" || { echo "$c: the kernel read other files or contents"; return 1; }
		# a standard-tree case keeps every file the fault did not touch
		if grep -q '^base ' "$F2_TOP/tests/fsck/$c/make.sh"; then
			case $c in
			056-nat-addr-lost|072-*|073-*) lost=./d1/d2/mid ;;	# lost, or in lost+found
			061-root-zeroed) lost=ALL ;;
			*) lost= ;;
			esac
			if [ "$lost" = ALL ]; then	# every content of the old tree, under lost+found
				awk 'NR == FNR { if ($2 ~ /^\.\/lost\+found\/#/) lf[$1] = 1; next }
					!($1 in lf) { print "061: " $2 " not in lost+found"; bad = 1 }
					END { exit bad }' "$d/got.$i" "$d/want" || return 1
			else
				awk -v skip="$lost" -v c="$c" 'NR == FNR { got[$0] = 1; next }
					$2 != skip && !($0 in got) { print c ": " $2 " differs or is missing"; bad = 1 }
					END { exit bad }' "$d/got.$i" "$d/want" || return 1
			fi
		fi
		after_kernel "$d/$c.img"
		case $c in
		072-dent-name-slash|073-dent-dotdot-extra)
			# illegal names: the file is intact in lost+found
			sum=$(grep ' ./d1/d2/mid$' "$d/want" | cut -d' ' -f1)
			grep -q "^$sum ./lost+found/#" "$d/got.$i" || { echo "$c: mid not in lost+found"; return 1; } ;;
		077-cp-head-damaged)
			# the newer checkpoint's lost+found is there
			grep -q "^$(vd_name "$i") has lost+found" "$d/out" || { echo "077: lost+found missing"; return 1; } ;;
		esac
	done
}

# A repair on the second device of a two-device volume (062, mkfs -c):
# the guest finds each device at the path the superblock records (a link
# to its virtio disk), the driver mounts both, every file reads back, our
# fsck -y refuses the mounted volume, the kernel writes on it, and both
# fscks find it clean afterwards.  A boot of its own: the big boots above
# use every PCI slot the guest has (it takes ~45 s here; the default
# 600 s limit leaves the margin a busy machine needs).
@test "fsck kernel: a repair on the second device of a two-device volume mounts with both devices, reads back, takes writes, both fscks clean" {
	kernel_require
	require_prog "$FSCK" "$F2FIELD" "$REF_MKFS" "$REF_SLOAD"
	local d=$BATS_TEST_TMPDIR c=062-multidev-inode-links img rc
	img=$d/062.img	# short: the superblock holds each device's path in 63 bytes
	std_tree_sums >"$d/want"
	bash "$F2_TOP/tests/fsck/$c/make.sh" "$img"
	rc=0; "$FSCK" -f -y "$img" </dev/null >"$d/y" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || { cat "$d/y"; echo "$c: -y exit $rc"; return 1; }
	printf 'vda %s\nvdb %s\n' "$(realpath "$img")" "$(realpath "$img.dev1")" >"$d/devmap"
	kernel_add_binary "$FSCK"
	rc=0; KERNEL_FILES="$d/devmap:/guest/devmap" \
		kernel_run "$BATS_TEST_DIRNAME/guest/multidev-tree.sh" "$img" "$img.dev1" || rc=$?
	kernel_output >"$d/out"
	cat "$d/out"
	echo "boot: ${KERNEL_WALL:-?} s"
	[ "$rc" -eq 0 ] && grep -q '^DONE' "$d/out" || return 1
	grep -q '^multi mount rc=0' "$d/out" ||
		{ echo "no mount"; kernel_dmesg | grep -i f2fs | tail -n 5; return 1; }
	grep -q '^multi devices 2$' "$d/out"
	sed -n 's/^multi md5 //p' "$d/out" | LC_ALL=C sort -k2 >"$d/got"
	diff "$d/want" "$d/got" || { echo "$c: the tree differs"; return 1; }
	grep -q '^multi fsck-y rc=8$' "$d/out"
	grep -q '^multi write rc=0$' "$d/out"
	grep -q '^multi umount rc=0$' "$d/out"
	after_kernel "$img"
}
