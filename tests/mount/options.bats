#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/mount/options.bats - mount.f2fs's option parser (mopts.c) through
# its test driver mount-helper/test_mopts, whose SELinux callback is a
# fake: contexts "ok*" are kept and translated to "raw:*", "same*" kept
# as given, "drop*" dropped, others refused.  This tests what the parser
# does with the callback's answers; libselinux itself is not involved
# (SELinux is off on the test hosts and in the QEMU guest).

load ../lib/common

TEST_MOPTS=${TEST_MOPTS:-$F2_BUILD/mount-helper/test_mopts}

setup() { require_prog "$TEST_MOPTS"; }

parse() { "$TEST_MOPTS" "$@"; }

@test "options: kept contexts go to the data string quoted, in their raw form" {
	run parse 'ro,context="ok_u:r:t:s0:c1,c2",fscontext=same_u:r:t,inline_data'
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = 'flags=0x1 data=<context="raw:ok_u:r:t:s0:c1,c2",fscontext="same_u:r:t",inline_data> mtab=<ro,context="raw:ok_u:r:t:s0:c1,c2",fscontext="same_u:r:t",inline_data> fsck=0 loop=0 errors=0' ]
}

@test "options: a refused context refuses the mount, naming the option" {
	run parse 'inline_data,rootcontext=bad_u:r:t'
	[ "$status" -eq 1 ]
	[ "$output" = "refused: option 'rootcontext': 'bad_u:r:t' is not a valid SELinux context" ]
}

@test "options: a dropped context is neither in the data nor in mtab" {
	run parse 'defcontext=drop_me,noatime'
	[ "$status" -eq 0 ]
	[ "$output" = 'flags=0x400 data=<> mtab=<rw,noatime> fsck=0 loop=0 errors=0' ]
}

@test "options: helper options are recorded, not passed (fsck, loop, errors=)" {
	run parse 'fsck,loop,errors=fsck,inline_data'
	[ "$output" = 'flags=0x0 data=<inline_data> mtab=<rw,inline_data> fsck=1 loop=1 errors=1' ]
	run parse 'errors=refuse'
	[[ $output == *"errors=2" ]]
	run parse 'errors=fsck,errors=continue'
	[[ $output == *"errors=0" ]]
}

@test "options: mtab starts with ro or rw once; empty items are skipped" {
	run parse ',,noatime,,ro,rw,ro,'
	[ "$status" -eq 0 ]
	[ "$output" = 'flags=0x401 data=<> mtab=<ro,noatime> fsck=0 loop=0 errors=0' ]
	run parse ''
	[ "$output" = 'flags=0x0 data=<> mtab=<rw> fsck=0 loop=0 errors=0' ]
}

@test "options: sloppy drops only the bad items" {
	run parse 'inline_data,nope,mode=lfs,mode=bad' sloppy
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"sloppy: ignoring 'nope'"* ]]
	[[ $output == *"sloppy: ignoring 'mode=bad'"* ]]
	[[ $output == *'data=<inline_data,mode=lfs>'* ]]
}

@test "options: values that look alike but are not accepted" {
	local bad
	for bad in background_gc=ON active_logs=6x inline_xattr_size= checkpoint=disable:10%% \
		checkpoint=disable: compress_algorithm=lz4: compress_algorithm=zstd:-1 \
		test_dummy_encryption=v3 ro=1 remount=yes 'context=""'; do
		run parse "$bad"
		echo "$bad -> $output"
		[ "$status" -eq 1 ]
		[[ $output == "refused: "* ]]
	done
	run parse 'checkpoint=disable:4294967295,compress_algorithm=lz4:9,test_dummy_encryption=v1'
	[ "$status" -eq 0 ]
}
