#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/move.bats - gc.f2fs really cleaning the aged fixture (written by
# the Linux 6.1 driver): with each policy the target is reached, -n
# predicted exactly the victims the run cleaned, every victim segment is
# now empty, both fscks find the image clean and every file has the
# content the kernel wrote; defrag.f2fs --file makes a file contiguous.
# Crash safety: prefixes of the run's write log
# (inside the first checkpoint, a torn last checkpoint head,
# complete) replayed onto the original leave a clean image with every
# file intact.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load helpers

REPLAY=${REPLAY:-$F2REPLAY}

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

setup() {
	fixtures_require
	require_prog "$GC" "$DUMP" "$FSCK" "$REF_FSCK" "$REPLAY"
}

# clean_and_check POLICY ARGS...: -n then a real run on a copy; checks the
# plan was followed; leaves the image in $IMG and the run's JSON in $GC_JSON
clean_and_check() {
	local policy=$1; shift
	IMG=$BATS_TEST_TMPDIR/aged.img
	fixture_copy aged "$IMG"
	gc_json "$IMG" -p "$policy" "$@"
	[ "$GC_STATUS" -eq 0 ] || { cat "$GC_JSON.err"; return 1; }
	jqv '.victims[].section' >"$BATS_TEST_TMPDIR/predicted"
	[ -s "$BATS_TEST_TMPDIR/predicted" ]
	local plan_free=$(jqv .predicted.free_sections_after)
	local plan_data=$(jqv .owners.alive_data) plan_node=$(jqv .owners.alive_node)
	GC_JSON=$BATS_TEST_TMPDIR/run.json
	"$GC" --json --no-progress -p "$policy" "$@" "$IMG" >"$GC_JSON" 2>"$GC_JSON.err" ||
		{ echo "gc.f2fs failed:"; cat "$GC_JSON.err"; return 1; }
	[ "$(jqv .dry_run)" = false ]
	jqv '.victims[].section' | diff "$BATS_TEST_TMPDIR/predicted" -
	[ "$(jqv .result.target_reached)" = true ]
	[ "$(jqv .owners.stale)" -eq 0 ]
	# every data block the check found alive moved; node blocks move
	# themselves or earlier, as owners of moved data written back at a
	# checkpoint (their old copy is then no longer valid)
	[ "$(jqv .owners.alive_data)" -eq "$plan_data" ]
	[ "$(jqv .owners.alive_node)" -le "$plan_node" ]
	# the volume has at least the free sections the plan predicted
	[ "$(jqv .result.free_sections_after)" -ge "$plan_free" ]
	# with one checkpoint at the end (-c above the victim count) every
	# victim is empty now; with periodic ones the logs may reuse a victim
	# freed by an earlier checkpoint
	[ "${CHECK_EMPTY:-0}" = 1 ] || return 0
	"$DUMP" --json -s 0~-1 "$IMG" 2>/dev/null | jq -r '.sit[] | select(.vblocks > 0) | .segno' \
		>"$BATS_TEST_TMPDIR/used"
	[ -s "$BATS_TEST_TMPDIR/used" ]
	awk 'NR == FNR { u[$1] = 1; next } ($1 in u)' "$BATS_TEST_TMPDIR/used" \
		"$BATS_TEST_TMPDIR/predicted" >"$BATS_TEST_TMPDIR/still"
	[ ! -s "$BATS_TEST_TMPDIR/still" ] || { echo "victims still used:"; cat "$BATS_TEST_TMPDIR/still"; return 1; }
}

@test "move: greedy to a free-section target: plan followed, clean, content intact" {
	local t
	IMG=$BATS_TEST_TMPDIR/probe.img
	fixture_copy aged "$IMG"
	gc_json "$IMG"
	t=$(( $(jqv .before.free_sections) + 20 ))
	clean_and_check greedy --target-free "$t" -c 8
	[ "$(jqv .result.free_sections_after)" -ge "$t" ]
	image_intact "$IMG" aged
	# nothing is left that greedy would still pick before the target
	gc_json "$IMG" --target-free "$t"
	[ "$(jqv '.victims | length')" -eq 0 ]
}

@test "move: cost-benefit, every partly valid section: clean, content intact" {
	CHECK_EMPTY=1 clean_and_check cost-benefit -c 100000
	image_intact "$IMG" aged
	# the write amplification is reported and sane (< 5 on this image)
	awk -v wa="$(jqv .result.write_amplification)" 'BEGIN { exit !(wa > 0 && wa < 5) }'
	# all that is left partly valid are sections the run itself filled
	gc_json "$IMG"
	[ "$(jqv .before.dirty_sections)" -le 6 ]
}

@test "move: the other kernel fixtures (xattrs, compression, encryption, quota, big sparse file)" {
	local name img
	for name in basic allfeat compress; do
		img=$BATS_TEST_TMPDIR/$name.img
		fixture_copy "$name" "$img"
		gc_json "$img"
		[ "$(jqv .owners.bad)" -eq 0 ] && [ "$(jqv .owners.stale)" -eq 0 ]
		"$GC" --no-progress "$img" >"$img.out" 2>&1 || { cat "$img.out"; return 1; }
		echo "$name: $(grep '^result' "$img.out")"
		grep -q '^result: [1-9]' "$img.out"
		image_intact "$img" "$name"
		rm -f "$img"
	done
}

@test "move: crash inside the first checkpoint, a torn last checkpoint head, complete run" {
	local orig=$BATS_TEST_TMPDIR/orig.img img=$BATS_TEST_TMPDIR/run.img log=$BATS_TEST_TMPDIR/run.log
	fixture_copy aged "$orig"
	cp --sparse=always "$orig" "$img"
	F2_IO_RECORD=$log "$GC" --no-progress -c 16 "$img" >/dev/null
	local total flushes f1 n prefixes=() p
	total=$("$REPLAY" count "$log")
	mapfile -t flushes < <("$REPLAY" list "$log" | awk '$2 == "flush" { print $1 }')
	[ "${#flushes[@]}" -ge 4 ] || { echo "expected 2+ checkpoints, flushes: ${flushes[*]}"; return 1; }
	f1=${flushes[0]}
	# before the first checkpoint's head; its head written, tail not (the
	# dense sampling is in geometry.bats, on a smaller image)
	prefixes+=("$((f1 - 1))" "$((f1 + 1))")
	# the last checkpoint: body written, head torn after 512 bytes
	n=${flushes[${#flushes[@]} - 2]}
	prefixes+=("$n:512")
	prefixes+=("$total")
	for p in "${prefixes[@]}"; do
		cp --sparse=always "$orig" "$BATS_TEST_TMPDIR/p.img"
		"$REPLAY" apply "$log" "$BATS_TEST_TMPDIR/p.img" "${p%%:*}" $([[ $p == *:* ]] && echo "${p#*:}")
		echo "prefix $p of $total"
		image_intact "$BATS_TEST_TMPDIR/p.img" aged crash
	done
}

@test "move: defrag.f2fs --file makes a fragmented file contiguous, content intact" {
	local img=$BATS_TEST_TMPDIR/defrag.img f best=0 n before after
	fixture_copy aged "$img"
	# the most fragmented of the large files
	while read -r f; do
		n=$("$DEFRAG" -n --file "$f" "$img" | sed -n 's/.* in \([0-9]*\) extents*$/\1/p')
		if [ "${n:-0}" -gt "$best" ]; then best=$n; FILE=$f; fi
	done < <(awk -F'\t' '$2 == "f" && $6 >= 2097152 { print substr($1, 2) }' \
		"$F2_FIXTURES/aged.manifest" | head -n 60)
	[ "$best" -ge 3 ] || { echo "no fragmented file found (best $best)"; return 1; }
	run "$DEFRAG" --file "$FILE" "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	before=$(sed -n 's/.*before: [0-9]* data blocks in \([0-9]*\) extents*$/\1/p' <<<"$output")
	after=$(sed -n 's/.*after: [0-9]* data blocks in \([0-9]*\) extents*$/\1/p' <<<"$output")
	[ "$before" -eq "$best" ]
	[ "$after" -le 2 ] && [ "$after" -lt "$before" ]
	image_intact "$img" aged
	# once more: contiguous now (or nearly), the data the same
	run "$DEFRAG" --file "$FILE" "$img"
	[ "$status" -eq 0 ]
	image_intact "$img" aged
}

@test "move: defrag.f2fs moves a range of the kernel-aged volume right of a target, then left: range empty, content intact" {
	local img=$BATS_TEST_TMPDIR/range.img main0 nseg half
	fixture_copy aged "$img"
	main0=$("$DUMP" --json "$img" 2>/dev/null | jq -r .superblock.main_blkaddr)
	nseg=$("$DUMP" --json "$img" 2>/dev/null | jq -r .superblock.segment_count_main)
	half=$((nseg / 2))
	# 16 segments from a quarter of the way in, to the right of the middle
	run "$DEFRAG" -s $((main0 + nseg / 4 * 512)) -l $((16 * 512)) -t $((main0 + half * 512)) "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output =~ :\ ([0-9]+)\ valid\ blocks\ before,\ ([0-9]+)\ data\ and\ ([0-9]+)\ node\ blocks\ moved,\ 0\ skipped,\ 0\ valid\ blocks\ left ]]
	[ "${BASH_REMATCH[1]}" -ge 512 ]
	"$DEFRAG" -n -s $((main0 + nseg / 4 * 512)) -l $((16 * 512)) "$img" | grep -q ': 0 to move, 0 stale'
	image_intact "$img" aged
	# the range just past the middle back to the left of it
	run "$DEFRAG" -s $((main0 + half * 512)) -l $((8 * 512)) -t $((main0 + half * 512 - 1)) -i "$img"
	echo "$output"
	[ "$status" -eq 0 ] && [[ $output == *" 0 skipped, 0 valid blocks left"* ]]
	image_intact "$img" aged
}
