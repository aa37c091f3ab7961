#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/fuzz.bats - the fuzz targets in CI (fs_open, tree, mount_sb,
# dump, fsck, repair; see each tests/fuzz/fuzz_*.c): each seed corpus and
# every regression input (tests/fuzz/regress/<target>/*, one per crash
# found and fixed, see tests/fuzz/regress/README) replays cleanly, fztool
# round-trips, and each target fuzzes for FUZZ_SECONDS from its seed
# corpus without a finding.  A finding fails the test and names the
# crashing input, which is kept in tests/.cache/fuzz-findings/<target>/
# to become a regression input.
#
# FUZZ_SECONDS is 60 s a target, as issue 8 asks of CI.  Neither .ci/run
# nor tests/run.sh sets CI=true, so 60 s is the default for every run, not
# only where CI is set; FUZZ_SECONDS=20 bats tests/fuzz/fuzz.bats gives a
# quick local run.  The campaigns run in setup_file, FUZZ_JOBS (default 2,
# one a core) at a time under nice, so the six targets cost about
# 3 x 60 s of wall time; each "fuzz TARGET" test then reports its
# campaign.  The long campaigns are bench/fuzz's job (10 minutes a target,
# exec/s in the issue note).

load ../lib/common

FUZZ_OUT=${FUZZ_OUT:-$F2_TOP/tests/.cache/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_JOBS=${FUZZ_JOBS:-2}
FUZZ_TARGETS="fs_open tree mount_sb dump fsck repair"

# fuzz_campaign TARGET DIR: FUZZ_SECONDS from a scratch copy of the seed
# corpus; DIR/TARGET.log gets libFuzzer's output, DIR/TARGET.rc its exit
# status (written last).  Run by xargs (exported).
fuzz_campaign() {
	local t=$1 dir=$2 work=$2/$1.corpus cwd=$2/$1.cwd finds
	finds=$F2_TOP/tests/.cache/fuzz-findings/$t
	mkdir -p "$finds" "$cwd"
	if [ ! -x "$FUZZ_OUT/fuzz_$t" ]; then
		echo "fuzz_$t was not built" >"$dir/$t.log"
		echo 127 >"$dir/$t.rc"
		return 0
	fi
	cp -r "$F2_TOP/tests/fuzz/corpus/$t" "$work"
	# run in an empty directory: a mutated multi-device superblock makes
	# the mount_sb target open the device paths it names (read-only)
	(cd "$cwd" && exec nice -n 10 "$FUZZ_OUT/fuzz_$t" -max_total_time="$FUZZ_SECONDS" \
		-timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$finds/" "$work") >"$dir/$t.log" 2>&1
	echo $? >"$dir/$t.rc"
}

setup_file() {
	local dir=$BATS_FILE_TMPDIR/campaigns
	# under nice, as the campaigns: tests/run.sh runs this beside the rest
	nice -n 10 "$F2_TOP/tests/fuzz/build.sh" "$FUZZ_OUT" || return 1
	mkdir -p "$dir"
	export -f fuzz_campaign
	export FUZZ_OUT FUZZ_SECONDS
	printf '%s\n' $FUZZ_TARGETS |
		xargs -P "$FUZZ_JOBS" -I{} bash -c 'fuzz_campaign "$1" "$2"' _ {} "$dir"
}

# replay TARGET FILE...: run the target once on each file
replay() {
	local t=$1; shift
	require_prog "$FUZZ_OUT/fuzz_$t" || return 1
	run "$FUZZ_OUT/fuzz_$t" -runs=0 "$@"
	if [ "$status" -ne 0 ]; then
		echo "fuzz_$t fails on replay (exit $status):"
		echo "$output" | tail -n 40
		return 1
	fi
}

# fuzz TARGET: the result of TARGET's campaign (setup_file)
fuzz() {
	local t=$1 dir=$BATS_FILE_TMPDIR/campaigns rc finds
	finds=$F2_TOP/tests/.cache/fuzz-findings/$t
	[ -f "$dir/$t.rc" ] || { echo "the campaign of fuzz_$t did not finish"; return 1; }
	rc=$(cat "$dir/$t.rc")
	grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$dir/$t.log" |
		sed "s/^/# $t: /" >&3 || true
	if [ "$rc" -ne 0 ]; then
		echo "fuzz_$t found a problem (exit $rc); input kept in $finds:"
		grep -v '^#' "$dir/$t.log" | tail -n 60
		ls -l "$finds"
		return 1
	fi
	# it did fuzz: libFuzzer's final "Done N runs in S second(s)"
	grep -qE '^Done [0-9]+ runs in [0-9]+ second' "$dir/$t.log" || {
		echo "fuzz_$t exited 0 without finishing a campaign:"
		tail -n 20 "$dir/$t.log"
		return 1
	}
}

@test "fztool: diff(apply(seed)) gives back the seed" {
	local tmp seed
	require_prog "$FUZZ_OUT/fztool"
	tmp=$(f2_tmp)
	for seed in "$F2_TOP"/tests/fuzz/corpus/tree/tree-*; do
		v=${seed##*-}
		"$FUZZ_OUT/fztool" apply "$seed" "$tmp/img"
		"$FUZZ_OUT/fztool" diff "$v" "$tmp/img" "$tmp/again"
		cmp "$seed" "$tmp/again"
	done
}

@test "seed corpora and regression inputs replay without a finding" {
	local t files
	for t in $FUZZ_TARGETS; do
		files=("$F2_TOP/tests/fuzz/corpus/$t"/*)
		if [ -d "$F2_TOP/tests/fuzz/regress/$t" ]; then
			files+=("$F2_TOP/tests/fuzz/regress/$t"/*)
		fi
		replay "$t" "${files[@]}"
	done
}

@test "regression inputs exist only for known targets" {
	local d
	[ -d "$F2_TOP/tests/fuzz/regress" ] || return 0
	for d in "$F2_TOP"/tests/fuzz/regress/*/; do
		[ -d "$d" ] || continue # no target directory yet
		[ -f "$F2_TOP/tests/fuzz/fuzz_$(basename "$d").c" ] || {
			echo "regression inputs for an unknown target: $d"
			return 1
		}
	done
}

@test "fuzz fs_open for FUZZ_SECONDS" {
	fuzz fs_open
}

@test "fuzz tree for FUZZ_SECONDS" {
	fuzz tree
}

@test "fuzz mount_sb for FUZZ_SECONDS" {
	fuzz mount_sb
}

@test "fuzz dump for FUZZ_SECONDS" {
	fuzz dump
}

@test "fuzz fsck for FUZZ_SECONDS" {
	fuzz fsck
}

@test "fuzz repair for FUZZ_SECONDS" {
	fuzz repair
}

@test "every fuzz target has a test here and a seed corpus" {
	local f t
	for f in "$F2_TOP"/tests/fuzz/fuzz_*.c; do
		t=$(basename "$f" .c)
		t=${t#fuzz_}
		grep -q "^@test \"fuzz $t for FUZZ_SECONDS\"" "$BATS_TEST_FILENAME" || {
			echo "target $t has no fuzz test"
			return 1
		}
		[ -n "$(ls "$F2_TOP/tests/fuzz/corpus/$t")" ]
	done
}
