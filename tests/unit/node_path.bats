#!/usr/bin/env bats
# The node-tree rules (lib/fs/node_path.c) against the kernel's: the
# direct-node test, node offsets, start blocks and block paths.
load ../lib/common

@test "node path: direct-node test, node offsets, start blocks, paths at every boundary" {
	run "$F2_BUILD/tests/unit/test_node_path"
	echo "$output"
	[ "$status" -eq 0 ]
}
