#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Unit tests of lib/: each C program exits 0 only if all its checks pass.
load ../lib/common

@test "format: structure offsets and endian accessors" { run "$F2_BUILD/tests/unit/test_format"; echo "$output"; [ "$status" -eq 0 ]; }
@test "crc32: check value, chaining, cp and inode checksums" { run "$F2_BUILD/tests/unit/test_crc"; echo "$output"; [ "$status" -eq 0 ]; }
@test "hash: dots, known value, collisions" { run "$F2_BUILD/tests/unit/test_hash"; echo "$output"; [ "$status" -eq 0 ]; }
@test "dir place: level, bucket and bucket count of a directory block, at the kernel's boundaries" { run "$F2_BUILD/tests/unit/test_dir_place"; echo "$output"; [ "$status" -eq 0 ]; }
@test "features: table, parsing, dependencies" { run "$F2_BUILD/tests/unit/test_features"; echo "$output"; [ "$status" -eq 0 ]; }
@test "fields: every table row matches format.h, names unique, lookup" { run "$F2_BUILD/tests/unit/test_fields"; echo "$output"; [ "$status" -eq 0 ]; }
@test "geometry: reference values, invariants, errors" { run "$F2_BUILD/tests/unit/test_geometry"; echo "$output"; [ "$status" -eq 0 ]; }
@test "map: model of puts/gets/removals, growth, inline records, keys 0 and UINT64_MAX, iteration" { run "$F2_BUILD/tests/unit/test_map"; echo "$output"; [ "$status" -eq 0 ]; }

@test "hash: lost+found hash equals the one f2fs-tools stores" {
	require_prog "$REF_MKFS"
	img="$BATS_TEST_TMPDIR/ref.img"
	truncate -s 256M "$img"
	"$REF_MKFS" -q -f -O lost_found "$img"
	# root dentry block: first block of the hot data log; slot 2 is lost+found
	main=$("$F2SB" --cp "$img" | sed -n 's/^main_blkaddr=//p')
	seg=$("$F2SB" --cp "$img" | sed -n 's/^cp.cur_data_segno\[0\]=//p')
	blk=$((main + seg * 512))
	ref=$(od -An -tx4 -j $((blk * 4096 + 30 + 22)) -N4 "$img" | tr -d ' ')
	ours=$("$F2_BUILD/tests/unit/test_hash" lost+found)
	echo "reference $ref ours $ours"
	[ "$ref" = "$ours" ]
}
