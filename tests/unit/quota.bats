#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The quota file format (lib/fs/quota.c): build, parse back, refuse damage.
load ../lib/common

@test "quota: files for 0, 1 and many ids parse back; mkfs's layout; corrupt files refused" {
	run "$F2_BUILD/tests/unit/test_quota"
	echo "$output"
	[ "$status" -eq 0 ]
}
