#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/resize/kernel.bats - the Linux driver (QEMU, one boot for all
# images; F2_KERNEL=6.1 or 6.12) on kernel-written fixtures resized by
# resize.f2fs: sect (1 GiB, 2-segment sections, quota) shrunk to 55% with
# blocks moved, casefold (256 MiB) and small (64 MiB) grown to 3x, aged
# (512 MiB, partly valid segments everywhere) grown to 2x in place (-s)
# and to 3x; all but the -s one with the metadata areas relocated to the
# start of the old main area (segment0 moved), and casefold shrunk to 60%
# then grown back, its areas back where mkfs put them.  The kernel mounts
# each, the tree it reads (paths, types, modes, owners, sizes, links, md5,
# xattrs) is the fixture's manifest, it fills the volume to 90% (the grown
# ones: into the added segments), unmounts cleanly and reads the new files
# back; afterwards both fscks find the images clean.
# Two more images are the states between an in-place (-s) resize's two
# commits (rs_between): sect shrunk to 55% stopped before the superblock
# (the old volume, its checkpoint written for the smaller one) and
# casefold grown to 3x stopped before the last checkpoint (the new volume
# with the old checkpoint): the kernel takes both as well, the sizes as
# their superblocks say, and its own checkpoint leaves them clean.  (Its
# free space there follows the checkpoint's user_block_count: the new
# size's in the shrink's state, the old size's in the grow's.)
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load helpers

# name|fixture|size factor (percent)|resize.f2fs options
RESIZES="
shrunk|sect|55|-t SECTORS
grown|casefold|300|
small3|small|300|
aged2|aged|200|-s
aged3|aged|300|
back|casefold|100|BACK
mid_shrunk|sect|55|BETWEEN -s -t SECTORS
mid_grown|casefold|300|BETWEEN -s
"

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	local dir=$BATS_FILE_TMPDIR name fx pct opts size letters=abcdefgh i=0
	local -a disks=()
	fixtures_build || return 0	# each test then skips or fails by itself
	kernel_setup || return 0
	: >"$dir/disks"
	while IFS='|' read -r name fx pct opts; do
		[ -n "$name" ] || continue
		fixture_copy "$fx" "$dir/$name.img" || return 1
		size=$(stat -c %s "$dir/$name.img")
		if [ "$pct" -gt 100 ]; then
			truncate -s $((size * pct / 100)) "$dir/$name.img"
		fi
		opts=${opts/SECTORS/$(sectors_at "$pct" "$size")}
		echo "$fx" >"$dir/$name.fixture"
		"$F2SB" "$dir/$name.img" | sed -n 's/^segment_count_main=//p' >"$dir/$name.oldmain"
		if [[ $opts == BETWEEN* ]]; then
			mv "$dir/$name.img" "$dir/$name.start"
			# shellcheck disable=SC2086 # the options are a word list
			rs_between "$dir/$name.start" "$dir/$name.img" ${opts#BETWEEN} 2>"$dir/$name.err" ||
				echo "rs_between failed: $(cat "$dir/$name.err")" >"$dir/$name.fail"
			"$F2SB" "$dir/$name.img" | sed -n 's/^segment_count_main=//p' >"$dir/$name.sbmain"
		elif [ "$opts" = BACK ]; then
			{ "$RESIZE" -t "$(sectors_at 60 "$size")" "$dir/$name.img" >/dev/null 2>"$dir/$name.err" &&
			  "$RESIZE" --json "$dir/$name.img" >"$dir/$name.json" 2>"$dir/$name.err"; } ||
				echo "resize.f2fs failed: $(cat "$dir/$name.err")" >"$dir/$name.fail"
		else
			# shellcheck disable=SC2086 # the options are a word list
			"$RESIZE" --json $opts "$dir/$name.img" >"$dir/$name.json" 2>"$dir/$name.err" ||
				echo "resize.f2fs failed: $(cat "$dir/$name.err")" >"$dir/$name.fail"
		fi
		echo "$name vd${letters:$i:1}" >>"$dir/disks"
		disks+=("$dir/$name.img")
		i=$((i + 1))
	done <<<"$RESIZES"
	kernel_add_binary /usr/bin/getfattr || return 1
	head -c 4194304 /dev/urandom >"$dir/rand"
	KERNEL_FILES="$dir/disks:/guest/disks $dir/rand:/guest/rand" KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=1200 \
		kernel_run "$BATS_TEST_DIRNAME/guest/check.sh" "${disks[@]}"
	echo $? >"$dir/run/status"
	cp "$KERNEL_OUT" "$dir/report"
	kernel_dmesg >"$dir/dmesg"
}

report_of() { sed -n "s/^$1 //p" "$BATS_FILE_TMPDIR/report"; }
names() { awk -F'|' 'NF > 1 { print $1 }' <<<"$RESIZES"; }
# wrote NAME N: md5sum's lines for the N files the guest wrote on NAME
# (new/fI: the line "NAME fI", then the random block), sorted
wrote() {
	python3 -c '
import hashlib, sys
rand = open(sys.argv[1], "rb").read()
for i in range(int(sys.argv[3])):
    h = hashlib.md5(("%s f%d\n" % (sys.argv[2], i)).encode())
    h.update(rand)
    print("%s  new/f%d" % (h.hexdigest(), i))
' "$BATS_FILE_TMPDIR/rand" "$1" "$2" | LC_ALL=C sort -k2
}

setup() {
	fixtures_require
	kernel_require
	kernel_ran
}

@test "resize kernel: every resize ran and the guest ran the whole script" {
	local name
	for name in $(names); do
		[ ! -f "$BATS_FILE_TMPDIR/$name.fail" ] || { cat "$BATS_FILE_TMPDIR/$name.fail"; return 1; }
		[[ $name == mid_* ]] && continue
		[ "$(jq -r .error "$BATS_FILE_TMPDIR/$name.json")" = null ]
	done
	[ "$(jq -r .kind "$BATS_FILE_TMPDIR/shrunk.json")" = shrink ]
	[ "$(jq -r .moved.blocks "$BATS_FILE_TMPDIR/shrunk.json")" -gt 1000 ]
	for name in grown small3 aged2 aged3 back; do
		[ "$(jq -r .kind "$BATS_FILE_TMPDIR/$name.json")" = grow ]
	done
	for name in shrunk grown small3 aged3; do
		[ "$(jq -r .relocate.placement "$BATS_FILE_TMPDIR/$name.json")" = main_start ]
	done
	[ "$(jq -r .relocate.shift_segments "$BATS_FILE_TMPDIR/aged3.json")" -gt 0 ]
	[ "$(jq -r .relocate "$BATS_FILE_TMPDIR/aged2.json")" = null ]
	[ "$(jq -r .relocate.placement "$BATS_FILE_TMPDIR/back.json")" = mkfs ]
	[ "$("$F2SB" "$BATS_FILE_TMPDIR/back.img" | sed -n 's/^main_blkaddr=//p')" -eq \
	  "$("$F2SB" "$F2_FIXTURES/casefold.img" | sed -n 's/^main_blkaddr=//p')" ]
	grep -q '^DONE$' "$BATS_FILE_TMPDIR/report"
	[ "$(cat "$BATS_FILE_TMPDIR/run/status")" -eq 0 ]
}

@test "resize kernel: the states between the two commits are the old and the new volume" {
	local name
	# as the superblock says: the shrink's is still the old size, the grow's the new
	[ "$(cat "$BATS_FILE_TMPDIR/mid_shrunk.sbmain")" -eq "$(jq -r .old.main_segments "$BATS_FILE_TMPDIR/mid_shrunk.img.json")" ]
	[ "$(cat "$BATS_FILE_TMPDIR/mid_grown.sbmain")" -eq "$(jq -r .new.main_segments "$BATS_FILE_TMPDIR/mid_grown.img.json")" ]
	for name in mid_shrunk mid_grown; do
		report_of "$name" | grep -qx 'mount ok'
	done
}

@test "resize kernel: no f2fs errors in dmesg" {
	! grep -Ei 'f2fs.*(error|corrupt|inconsistent|bad |invalid|fsck)' "$BATS_FILE_TMPDIR/dmesg" || false
}

@test "resize kernel: the kernel reads each fixture's tree (manifest and xattrs)" {
	local name fx d
	for name in $(names); do
		report_of "$name" | grep -qx 'mount ok' || { echo "$name: no mount"; return 1; }
		fx=$(cat "$BATS_FILE_TMPDIR/$name.fixture")
		d=$BATS_FILE_TMPDIR/m.$name
		mkdir -p "$d/raw"
		report_of "$name" | sed -n 's/^stat //p' >"$d/raw/$name.stat"
		report_of "$name" | sed -n 's/^md5 //p' >"$d/raw/$name.md5"
		report_of "$name" | sed -n 's/^link //p' >"$d/raw/$name.links"
		report_of "$name" | sed -n 's/^xattr //p; s/^xattr$//p' >"$d/raw/$name.xattr"
		report_of "$name" | sed -n 's/^count //p' >"$d/raw/$name.count"
		f2fx_assemble "$d" "$name"
		diff "$F2_FIXTURES/$fx.manifest" "$d/$name.manifest" || { echo "$name: tree differs"; return 1; }
		diff "$F2_FIXTURES/$fx.xattrs" "$d/$name.xattrs" || { echo "$name: xattrs differ"; return 1; }
	done
}

@test "resize kernel: new files written, unmounted cleanly, read back" {
	local name n
	for name in $(names); do
		report_of "$name" | grep -qx 'umount ok'
		report_of "$name" | grep -qx 'final umount ok'
		! report_of "$name" | grep -q 'failed' || false
		n=$(report_of "$name" | sed -n 's/^files //p')
		[ "$n" -ge 1 ]
		diff <(wrote "$name" "$n") <(report_of "$name" | sed -n 's/^reread //p' | LC_ALL=C sort -k2)
	done
}

@test "resize kernel: the grown volumes hold the kernel's writes past the old end" {
	local name old n
	for name in grown small3 aged2 aged3; do
		# the old end in the new numbering (a relocation moves the main
		# area's start by main_delta_segments)
		old=$(( $(cat "$BATS_FILE_TMPDIR/$name.oldmain") -
			$(jq -r '.relocate.main_delta_segments // 0' "$BATS_FILE_TMPDIR/$name.json") ))
		n=$("$DUMP" --json -s 0~-1 "$BATS_FILE_TMPDIR/$name.img" 2>/dev/null |
			jq --argjson old "$old" '[.sit[] | select(.segno >= $old and .vblocks > 0)] | length')
		echo "$name: $n segments past the old end ($old) hold data"
		[ "$n" -ge 1 ]
	done
}

@test "resize kernel: after the kernel's writes both fscks find the images clean" {
	local name
	for name in $(names); do
		both_fsck_clean "$BATS_FILE_TMPDIR/$name.img"
	done
}
