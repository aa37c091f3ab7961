#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/fuzz.bats - the fuzz targets in CI (fs_open, tree, mount_sb,
# dump, fsck; see each tests/fuzz/fuzz_*.c): each seed corpus and every
# regression input (tests/fuzz/regress/<target>/*, one per crash found and
# fixed) replays cleanly, fztool round-trips, and each target fuzzes for
# FUZZ_SECONDS (default 20 s; see below) from its seed corpus without a
# finding.  A finding fails the test and names the crashing input, which
# is kept in tests/.cache/fuzz-findings/ to become a regression input.
#
# Why 20 s and not the issue's 60 s: CPU time in CI is shared by every
# suite (and the host suites run twice, plain and sanitized); the long
# campaigns are bench/fuzz's job (10 minutes a target, results in the
# issue note).  FUZZ_SECONDS=60 bats tests/fuzz/fuzz.bats gives the 60 s.

load ../lib/common

FUZZ_OUT=${FUZZ_OUT:-$F2_TOP/tests/.cache/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
FUZZ_TARGETS="fs_open tree mount_sb dump fsck"

setup_file() {
	"$F2_TOP/tests/fuzz/build.sh" "$FUZZ_OUT"
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

# fuzz TARGET: FUZZ_SECONDS from a scratch copy of the seed corpus
fuzz() {
	local t=$1 dir work finds
	require_prog "$FUZZ_OUT/fuzz_$t" || return 1
	work=$(f2_tmp)/corpus
	finds=$F2_TOP/tests/.cache/fuzz-findings/$t
	mkdir -p "$finds"
	cp -r "$F2_TOP/tests/fuzz/corpus/$t" "$work"
	# run in an empty directory: a mutated multi-device superblock makes
	# the mount_sb target open the device paths it names (read-only)
	dir=$(f2_tmp)/cwd
	mkdir -p "$dir"
	cd "$dir"
	run nice -n 10 "$FUZZ_OUT/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -timeout=20 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$finds/" "$work"
	echo "$output" | grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' | sed "s/^/# $t: /" >&3 || true
	if [ "$status" -ne 0 ]; then
		echo "fuzz_$t found a problem (exit $status); input kept in $finds:"
		echo "$output" | grep -v '^#' | tail -n 60
		ls -l "$finds"
		return 1
	fi
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
