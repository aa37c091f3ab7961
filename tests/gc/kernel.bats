#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/kernel.bats - the Linux driver (QEMU, one boot; F2_KERNEL=6.1
# or 6.12) on aged fixtures cleaned by gc.f2fs with each policy, and with
# the moved blocks written into the free slots of partly valid segments
# (--alloc ssr, the checkpoint leaving the cold data log in SSR mode with
# -c 8 putting checkpoints between the moves), and with no option at all
# (the default policy and checkpoint interval, 256 sections: one
# checkpoint at the end of the run): it mounts them, every file
# has the md5 it had before cleaning, it writes new files into the freed
# space (some land in sections gc.f2fs freed), unmounts cleanly, reads
# them back; afterwards both fscks find the images clean.
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load helpers

# name|gc.f2fs options (TARGET: the free sections before, plus 15)
CLEANINGS="
greedy|-p greedy --target-free TARGET -c 16
cb|-p cost-benefit -c 32
ssr|-p greedy --alloc ssr -m 20 -c 8
default|
"
NAMES="greedy cb ssr default"

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	local dir=$BATS_FILE_TMPDIR name opts letters=abcdefgh i=0
	local -a disks=()
	fixtures_build || return 0	# each test then skips or fails by itself
	kernel_setup || return 0
	: >"$dir/disks"
	while IFS='|' read -r name opts; do
		[ -n "$name" ] || continue
		fixture_copy aged "$dir/$name.img" || return 1
		if [[ $opts == *TARGET* ]]; then
			echo $(( $("$GC" --json -n --no-progress "$dir/$name.img" |
				jq -r .before.free_sections) + 15 )) >"$dir/target"
			opts=${opts/TARGET/$(cat "$dir/target")}
		fi
		# shellcheck disable=SC2086 # the options are a word list
		"$GC" --json --no-progress $opts "$dir/$name.img" >"$dir/$name.json" 2>"$dir/$name.err" ||
			echo "gc.f2fs failed: $(cat "$dir/$name.err")" >"$dir/$name.fail"
		"$DUMP" --json "$dir/$name.img" 2>/dev/null |
			jq -r '.checkpoint["alloc_type[CURSEG_COLD_DATA]"]' >"$dir/$name.alloc"
		# the sections free before the kernel runs
		"$DUMP" --json -s 0~-1 "$dir/$name.img" 2>/dev/null |
			jq -r '.sit[] | select(.vblocks == 0) | .segno' >"$dir/$name.free"
		echo "$name vd${letters:$i:1}" >>"$dir/disks"
		disks+=("$dir/$name.img")
		i=$((i + 1))
	done <<<"$CLEANINGS"
	KERNEL_FILES="$dir/disks:/guest/disks" KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=900 \
		kernel_run "$BATS_TEST_DIRNAME/guest/check.sh" "${disks[@]}"
	echo $? >"$dir/run/status"
	cp "$KERNEL_OUT" "$dir/report"
	kernel_dmesg >"$dir/dmesg"
}

setup() {
	fixtures_require
	kernel_require
	kernel_ran
}

@test "gc kernel: every cleaning ran and the guest ran the whole script" {
	local name
	for name in $NAMES; do
		[ ! -f "$BATS_FILE_TMPDIR/$name.fail" ] || { cat "$BATS_FILE_TMPDIR/$name.fail"; return 1; }
		[ "$(jq -r .result.sections_cleaned "$BATS_FILE_TMPDIR/$name.json")" -ge 15 ]
	done
	[ "$(jq -r .result.free_sections_after "$BATS_FILE_TMPDIR/greedy.json")" -ge "$(cat "$BATS_FILE_TMPDIR/target")" ]
	# the ssr cleaning did write into partly valid segments
	[ "$(jq -r .result.ssr_segments "$BATS_FILE_TMPDIR/ssr.json")" -ge 1 ]
	[ "$(jq -r .result.ssr_blocks "$BATS_FILE_TMPDIR/ssr.json")" -ge 1 ]
	# and its last checkpoint left the cold data log filling one (SSR) for
	# the kernel to go on with (checked before the kernel ran)
	[ "$(cat "$BATS_FILE_TMPDIR/ssr.alloc")" = 1 ]
	grep -q '^DONE$' "$BATS_FILE_TMPDIR/report"
	[ "$(cat "$BATS_FILE_TMPDIR/run/status")" -eq 0 ]
}

@test "gc kernel: no f2fs errors in dmesg" {
	! grep -Ei 'f2fs.*(error|corrupt|inconsistent|bad |invalid|fsck)' "$BATS_FILE_TMPDIR/dmesg" || false
}

@test "gc kernel: every file has its md5 from before cleaning" {
	local name want got
	want=$BATS_FILE_TMPDIR/want.md5
	awk -F'\t' '$2 == "f" { print $8 "  " $1 }' "$F2_FIXTURES/aged.manifest" | LC_ALL=C sort >"$want"
	[ -s "$want" ]
	for name in $NAMES; do
		report_of "$name" | grep -qx 'mount ok' || { echo "$name: no mount"; return 1; }
		got=$BATS_FILE_TMPDIR/$name.got
		report_of "$name" | sed -n 's/^md5 //p' | LC_ALL=C sort >"$got"
		diff "$want" "$got" || { echo "$name: md5s differ"; return 1; }
	done
}

@test "gc kernel: new files written, unmounted cleanly, read back" {
	local name
	for name in $NAMES; do
		report_of "$name" | grep -qx 'umount ok'
		report_of "$name" | grep -qx 'final umount ok'
		! report_of "$name" | grep -q 'failed' || false
		[ "$(report_of "$name" | grep -c '^wrote ')" -eq 12 ]
		diff <(report_of "$name" | sed -n 's/^wrote //p') <(report_of "$name" | sed -n 's/^reread //p')
	done
}

@test "gc kernel: the kernel wrote into sections gc.f2fs freed" {
	local name used hits
	for name in $NAMES; do
		used=$BATS_FILE_TMPDIR/$name.used
		"$DUMP" --json -s 0~-1 "$BATS_FILE_TMPDIR/$name.img" 2>/dev/null |
			jq -r '.sit[] | select(.vblocks > 0) | .segno' >"$used"
		# victims that were free when the kernel started and hold data now
		hits=$(jq -r '.victims[].section' "$BATS_FILE_TMPDIR/$name.json" |
			awk -v f="$BATS_FILE_TMPDIR/$name.free" -v u="$used" '
				BEGIN { while ((getline l < f) > 0) free[l] = 1
					while ((getline l < u) > 0) used[l] = 1 }
				($1 in free) && ($1 in used) { n++ } END { print n + 0 }')
		echo "$name: $hits freed victim sections now hold the kernel's writes"
		[ "$hits" -ge 1 ]
	done
}

@test "gc kernel: after the kernel's writes both fscks find the images clean" {
	local name
	for name in $NAMES; do
		ref_fsck_clean "$BATS_FILE_TMPDIR/$name.img"
		"$FSCK" -f -n "$BATS_FILE_TMPDIR/$name.img"
	done
}
