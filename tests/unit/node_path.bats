#!/usr/bin/env bats
# The node-tree rules (lib/fs/node_path.c) against the kernel's: the
# direct-node test, node offsets, start blocks and block paths.
load ../lib/common

@test "node path: direct-node test, node offsets, start blocks, paths at every boundary" {
	run "$F2_BUILD/tests/unit/test_node_path"
	echo "$output"
	[ "$status" -eq 0 ]
}

# Where the write engine puts each node of a file past the double-indirect
# boundary: the kernel's rule (IS_DNODE) sends direct nodes to the warm node
# log (a regular file's) and indirect ones to the cold node log.
@test "node path: populate puts a file's direct nodes in the warm node log, indirect ones in the cold" {
	require_prog "$MKFS" "$DUMP" "$F2SB"
	local d="$BATS_TEST_TMPDIR/root" img="$BATS_TEST_TMPDIR/dind.img"
	local dind=$((923 + 2 * 1018 + 2 * 1018 * 1018)) n=1018
	mkdir -p "$d"
	# blocks under the double-indirect node's first and second indirect children
	truncate -s $(( (dind + n * n + 8) * 4096 )) "$d/big"
	for b in $((dind + 3)) $((dind + n * n + 5)); do
		printf 'block %s' "$b" | dd of="$d/big" bs=4096 seek="$b" conv=notrunc status=none
	done
	truncate -s 1G "$img"
	"$MKFS" -q -f --root "$d" "$img" >/dev/null
	main=$("$F2SB" "$img" | sed -n 's/^main_blkaddr=//p')
	log=$("$F2SB" "$img" | sed -n 's/^log_blocks_per_seg=//p')
	"$DUMP" -s 0~-1 "$img" 2>/dev/null | awk '/^segno:/ { sub("seg_type:", "", $5); print $2, $5 }' \
		>"$BATS_TEST_TMPDIR/types"
	"$DUMP" -n 0~-1 "$img" 2>/dev/null | awk '/^nid:/ { print $2, $4, $6, $8 }' \
		>"$BATS_TEST_TMPDIR/nodes"
	cat "$BATS_TEST_TMPDIR/nodes"
	seen=""
	while read -r nid ino ofs addr; do
		[ "$ino" = 4 ] && [ "$ofs" != 0 ] || continue
		# the kernel's test, restated
		dnode=1
		if [ "$ofs" = 3 ] || [ "$ofs" = $((4 + n)) ] || [ "$ofs" = $((5 + 2 * n)) ]; then
			dnode=0
		elif [ "$ofs" -ge $((6 + 2 * n)) ] && [ $(( (ofs - 6 - 2 * n) % (n + 1) )) = 0 ]; then
			dnode=0
		fi
		want=$((dnode ? 4 : 5))
		seg=$(( (addr - main) >> log ))
		got=$(awk -v s="$seg" '$1 == s { print $2 }' "$BATS_TEST_TMPDIR/types")
		echo "nid $nid offset $ofs: segment $seg type $got, expected $want"
		[ "$got" = "$want" ]
		seen="$seen $ofs"
	done <"$BATS_TEST_TMPDIR/nodes"
	[ "$seen" = " 2041 2042 2043 3061 3062" ]
}
