#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/unit.bats - the C unit test of the victim costs and the planner.
load ../lib/common

@test "gc unit: costs (6.1 formula), ordering, targets, histogram" {
	run "$F2_BUILD/tests/unit/test_gc"
	echo "$output"
	[ "$status" -eq 0 ]
}
