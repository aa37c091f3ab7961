#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# opt.bats - one grammar for numbers on every tool's command line
# (support/opt.c): decimal or 0x-prefixed hexadecimal, nothing else, and
# one message, "PROG: invalid WHAT 'S'", with the range when out of it.

load ../lib/common

GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}

setup() {
	require_prog "$MKFS" "$DUMP" "$GC" "$DEFRAG"
	IMG=$(f2_tmp)/img
	make_image "$IMG" 256M
}

@test "opt: mkfs.f2fs takes decimal and 0x hex, refuses signs, spaces and junk" {
	run_mkfs "$MKFS" -f -s 0x2 "$IMG"
	run_mkfs "$MKFS" -f -s 2 "$IMG" 0x40000
	local bad
	for bad in +2 -2 " 2" "2 " 0x 0x2g 2k 99999999999; do
		run "$MKFS" -f -s "$bad" "$IMG" </dev/null
		echo "-s '$bad': $status $output"
		[ "$status" -eq 1 ]
		[[ $output == *"mkfs.f2fs: invalid segments per section '$bad'"* ]]
	done
	run "$MKFS" -f -w 12 "$IMG" </dev/null
	[ "$status" -eq 1 ] && [[ $output == *"invalid sector size '12' (512 to 4294967295)"* ]]
	run "$MKFS" -f "$IMG" 1e6 </dev/null
	[ "$status" -eq 1 ] && [[ $output == *"invalid sector count '1e6'"* ]]
}

@test "opt: gc.f2fs, defrag.f2fs and dump.f2fs read numbers the same way" {
	run_mkfs "$MKFS" -f "$IMG"
	run "$GC" -n -m 0x10 "$IMG"
	[ "$status" -eq 0 ]
	run "$GC" -n -m " 16" "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"gc.f2fs: invalid number of sections ' 16'"* ]]
	run "$GC" -n -u 0 "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"invalid utilization percentage '0' (1 to 100)"* ]]
	run "$DEFRAG" -n -l +4 "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"defrag.f2fs: invalid length '+4'"* ]]
	run "$DUMP" -i 0x3 "$IMG"
	[ "$status" -eq 0 ]
	run "$DUMP" -i " 3" "$IMG"
	[ "$status" -eq 2 ] && [[ $output == *"invalid argument ' 3' for -i"* ]]
}

@test "opt: unknown options and missing arguments get one message" {
	run "$GC" --bogus "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"gc.f2fs: unknown option '--bogus'"* ]]
	run "$DEFRAG" "$IMG" -s
	[ "$status" -eq 16 ] && [[ $output == *"defrag.f2fs: option '-s' needs an argument"* ]]
	run "$FSCK" -x "$IMG"
	[ "$status" -eq 16 ] && [[ $output == *"fsck.f2fs: unknown option '-x'"* ]]
}
