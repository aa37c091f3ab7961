#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/defrag.bats - defrag.f2fs moving a block range (-s -l -t -i) on
# a volume aged by our engine (tests/tools/f2age: 256 MiB, files filled to
# 30%, every other one deleted): ranges holding the node logs' current
# segments, data ranges moved right and left, the whole used area.  After
# each run: the range holds no valid block (our SIT dump), both fscks find
# the volume clean, and every file extracts with the content it had.
# Against the reference defrag.f2fs on the same image, where it too has
# only free segments to fill (it also fills holes of partly valid
# segments in place, which our log-structured writer never does): the
# same segments end up used.
load ../lib/common
load helpers

AGE=${AGE:-$F2AGE}
REF_DEFRAG=${REF_DEFRAG:-/sbin/defrag.f2fs}

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	local img=$BATS_FILE_TMPDIR/aged.img
	make_image "$img" 256M
	run_mkfs "$F2_BUILD/mkfs/mkfs.f2fs" -f -q "$img"
	"$AGE" fill "$img" 30 2 >/dev/null
	"$F2_BUILD/dump/dump.f2fs" --extract / --output "$BATS_FILE_TMPDIR/before" "$img" >/dev/null 2>&1
}

setup() {
	require_prog "$DEFRAG" "$DUMP" "$FSCK" "$REF_FSCK" "$AGE"
	AGED=$BATS_FILE_TMPDIR/aged.img
	MAIN0=$("$DUMP" --json "$AGED" 2>/dev/null | jq -r .superblock.main_blkaddr)
	[ "$MAIN0" -gt 0 ]
}

# used_segs IMG: "segno vblocks" of every segment holding valid blocks
used_segs() {
	"$DUMP" --json -s 0~-1 "$1" 2>/dev/null | jq -r '.sit[] | select(.vblocks > 0) | "\(.segno) \(.vblocks)"'
}

# intact IMG: both fscks clean, every file as before
intact() {
	local img=$1 out=$(f2_tmp)/x.$RANDOM
	ref_fsck_clean "$img" || return 1
	"$FSCK" -f -n "$img" >"$out.fsck" 2>&1 || { cat "$out.fsck"; return 1; }
	"$DUMP" --extract / --output "$out" "$img" >/dev/null 2>&1 || { echo "extract failed"; return 1; }
	diff -r "$BATS_FILE_TMPDIR/before" "$out" || return 1
	rm -rf "$out" "$out.fsck"
}

# move_check ARGS...: defrag.f2fs ARGS on a copy ($IMG); the range is
# empty after, by its report and by the SIT; sets MOVED (report line)
move_check() {
	IMG=$BATS_TEST_TMPDIR/run.img
	cp --sparse=always "$AGED" "$IMG"
	run "$DEFRAG" "$@" "$IMG"
	echo "$output"
	[ "$status" -eq 0 ] || return 1
	[[ $output =~ :\ ([0-9]+)\ valid\ blocks\ before,\ ([0-9]+)\ data\ and\ ([0-9]+)\ node\ blocks\ moved,\ 0\ skipped,\ 0\ valid\ blocks\ left ]] ||
		{ echo "no report line"; return 1; }
	BEFORE=${BASH_REMATCH[1]} DATA=${BASH_REMATCH[2]} NODE=${BASH_REMATCH[3]}
	[ "$BEFORE" -eq $((DATA + NODE)) ]
}

# range_empty IMG START LEN: no valid block in [START, START+LEN), by the
# SIT bitmaps dump.f2fs prints (hex, most significant bit first)
range_empty() {
	"$DUMP" --json -s 0~-1 "$1" 2>/dev/null | jq -r '.sit[] | select(.vblocks > 0) | "\(.segno) \(.valid_map)"' |
	awk -v m="$MAIN0" -v s="$2" -v l="$3" '
		BEGIN { for (i = 0; i < 16; i++) hex[sprintf("%x", i)] = i }
		{ s0 = m + $1 * 512; lo = (s > s0 ? s : s0) - s0; e = s + l; hi = (e < s0 + 512 ? e : s0 + 512) - s0
		  for (o = lo; o < hi; o++) {
			d = hex[substr($2, int(o / 4) + 1, 1)]
			if (int(d / (2 ^ (3 - o % 4))) % 2) { print "block " s0 + o " (segment " $1 ") still valid"; bad = 1; break }
		  } }
		END { exit bad }'
}

@test "defrag: the node logs' current segments and the first data segment, to the right" {
	move_check -s "$MAIN0" -l 0x800
	[ "$NODE" -ge 100 ] && [ "$DATA" -ge 1 ]
	range_empty "$IMG" "$MAIN0" 2048
	intact "$IMG"
	# moved blocks went to the first free sections past the range
	used_segs "$IMG" | awk '$1 < 4 { bad = 1 } END { exit bad }'
	used_segs "$IMG" | awk '$1 >= 4 && $1 < 16 { n++ } END { exit !(n >= 3) }'
}

@test "defrag: a data range to the left of a target (-i), then back to the right" {
	local s=$((MAIN0 + 59 * 512)) t=$((MAIN0 + 40 * 512))
	move_check -s "$s" -l 0xa00 -t "$t" -i
	[ "$DATA" -ge 1500 ] && [ "$NODE" -eq 0 ]
	range_empty "$IMG" "$s" 2560
	intact "$IMG"
	# every moved block lies in sections wholly before the target
	used_segs "$IMG" | awk -v lo=20 '$1 >= 30 && $1 < 40 { n++ } $1 >= 40 && $1 < 59 { bad = 1 } END { exit bad || !n }'
	# and once more on the result: back past block t + 0x4000
	local img2=$BATS_TEST_TMPDIR/again.img
	cp --sparse=always "$IMG" "$img2"
	run "$DEFRAG" -s $((MAIN0 + 20 * 512)) -l $((20 * 512)) -t $((MAIN0 + 100 * 512)) "$img2"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *" 0 valid blocks left"* ]]
	range_empty "$img2" $((MAIN0 + 20 * 512)) $((20 * 512))
	intact "$img2"
}

@test "defrag: the whole used area in one run, to the end of the volume" {
	local nseg
	nseg=$("$DUMP" --json "$AGED" 2>/dev/null | jq -r .superblock.segment_count_main)
	move_check -s "$MAIN0" -l $((86 * 512)) -t $((MAIN0 + 86 * 512))
	[ "$BEFORE" -ge 7000 ]
	range_empty "$IMG" "$MAIN0" $((86 * 512))
	intact "$IMG"
	used_segs "$IMG" | awk -v n="$nseg" '$1 < 86 || $1 >= n { bad = 1 } END { exit bad }'
}

@test "defrag: no free section on the chosen side: exit 8, the volume keeps its checkpoint" {
	IMG=$BATS_TEST_TMPDIR/full.img
	cp --sparse=always "$AGED" "$IMG"
	# left of block main0 + 1000: only section 0, which is in use
	run "$DEFRAG" -s $((MAIN0 + 60 * 512)) -l 512 -t $((MAIN0 + 1000)) -i "$IMG"
	echo "$output"
	[ "$status" -eq 8 ]
	[[ $output == *"no free section at or below"* ]]
	[[ $output == *"keeps its last checkpoint"* ]]
	intact "$IMG"
}

@test "defrag: the same segments used as the reference defrag.f2fs where it fills free segments" {
	require_prog "$REF_DEFRAG"
	local args
	for args in "-s $((MAIN0 + 59 * 512)) -l 0xa00 -t $((MAIN0 + 40 * 512)) -i" \
		    "-s $MAIN0 -l 0x800 -t $((MAIN0 + 16 * 512))"; do
		cp --sparse=always "$AGED" "$BATS_TEST_TMPDIR/ours.img"
		cp --sparse=always "$AGED" "$BATS_TEST_TMPDIR/ref.img"
		# shellcheck disable=SC2086
		"$DEFRAG" $args "$BATS_TEST_TMPDIR/ours.img" >/dev/null
		# shellcheck disable=SC2086
		"$REF_DEFRAG" $args "$BATS_TEST_TMPDIR/ref.img" </dev/null >"$BATS_TEST_TMPDIR/ref.out" 2>&1 ||
			{ cat "$BATS_TEST_TMPDIR/ref.out"; return 1; }
		if grep -q "Not enough space" "$BATS_TEST_TMPDIR/ref.out"; then cat "$BATS_TEST_TMPDIR/ref.out"; return 1; fi
		used_segs "$BATS_TEST_TMPDIR/ours.img" | awk '{ print $1 }' >"$BATS_TEST_TMPDIR/ours.segs"
		used_segs "$BATS_TEST_TMPDIR/ref.img" | awk '{ print $1 }' >"$BATS_TEST_TMPDIR/ref.segs"
		echo "$args"
		diff "$BATS_TEST_TMPDIR/ref.segs" "$BATS_TEST_TMPDIR/ours.segs"
		# the same number of valid blocks, and the reference's result is clean too
		[ "$(used_segs "$BATS_TEST_TMPDIR/ours.img" | awk '{ n += $2 } END { print n }')" = \
		  "$(used_segs "$BATS_TEST_TMPDIR/ref.img" | awk '{ n += $2 } END { print n }')" ]
		intact "$BATS_TEST_TMPDIR/ours.img"
	done
}
