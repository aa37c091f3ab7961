#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# golden.sh BUILD OUT: format and populate a fixed set of images with fixed
# UUID and times, run dump.f2fs over them (text and JSON), and print one
# "HASH  name" line per image and per dump.  tests/mkfs/golden.bats
# compares the lines with tests/mkfs/golden.sha256: a refactor that moves
# code must not move one byte of what the tools write or print.  A dump's
# hash is its sha256; an image's is f2replay sum's (its size and every
# non-zero block by offset), which reads only the data of the sparse
# image, not gigabytes of holes.  F2REPLAY names the tool (default: the
# one of BUILD).
# GOLDEN_DIND=1 adds a tree with a file past the double-indirect boundary.
set -euo pipefail
build=$1 out=$2
top=${GOLDEN_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
mkfs=$build/mkfs/mkfs.f2fs dump=$build/dump/dump.f2fs
replay=${F2REPLAY:-$build/tests/tools/f2replay}
U=6e1c2e5a-3d2f-4a8e-9d53-0b9c1f0d7a11 T=1600000000
mkdir -p "$out"
tree=$out/tree
if [ ! -d "$tree" ]; then
	MKTREE_NO_DIND=1 "$top/tests/engine/mktree.sh" "$tree" 300 >/dev/null
	# populate copies xattrs in the order the host file system lists them,
	# which differs between tmpfs and ext4: one xattr a file here
	for f in "$tree/xattr/small" "$tree/xattr/node"; do
		getfattr --absolute-names -m - "$f" | sed -n 's/^\([a-z]\+\.[^ ]*\)$/\1/p' |
			while read -r n; do setfattr -x "$n" "$f"; done
	done
	setfattr -n trusted.t -v trusted-value "$tree/xattr/small"
	setfattr -n user.k -v "$(printf 'v%.0s' $(seq 1 2400))" "$tree/xattr/node"
	find "$tree" -exec touch -h -d @$T {} +
fi
# name | size | mkfs options (a fixed -U/-T is added) | populate (1: --root tree)
combos=(
	"plain|256M||0"
	"feat|512M|-O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,lost_found|0"
	"quota|512M|-O extra_attr,quota,project_quota|0"
	"sect|1G|-s 4 -z 2 -o 7 -l golden|0"
	"android|512M|-g android|0"
	"casefold|256M|-O extra_attr,casefold -C utf8|0"
	"compress|256M|-O extra_attr,compression,encrypt,verity|0"
	"heap|256M|-a 1 -i -e mp3 -E db|0"
	"root|1G||1"
	"rootfeat|1G|-O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum,lost_found|1"
	"rootsect|1G|-s 2 -O extra_attr,inode_checksum|1"
)
if [ -n "${GOLDEN_DIND:-}" ]; then
	dind=$out/dind
	if [ ! -d "$dind" ]; then
		mkdir -p "$dind"
		truncate -s $(( (923 + 2036 + 2*1018*1018 + 7) * 4096 )) "$dind/big"
		printf 'past the double-indirect boundary' |
			dd of="$dind/big" bs=4096 seek=$((923 + 2036 + 2*1018*1018 + 3)) conv=notrunc status=none
		find "$dind" -exec touch -h -d @$T {} +
	fi
	combos+=("dind|1G||2")
fi
for c in "${combos[@]}"; do
	IFS='|' read -r name size opts pop <<<"$c"
	img=$out/$name.img
	rm -f "$img"
	truncate -s "$size" "$img"
	root=()
	[ "$pop" = 1 ] && root=(--root "$tree")
	[ "$pop" = 2 ] && root=(--root "$dind")
	# shellcheck disable=SC2086
	"$mkfs" -q -f -U $U -T $T $opts "${root[@]}" "$img" >/dev/null
	echo "$("$replay" sum "$img")  $name.img"
	for d in "text:" "json:--json"; do
		fmt=${d%%:*} flag=${d#*:}
		# shellcheck disable=SC2086
		{
			"$dump" $flag "$img"
			"$dump" $flag -n 0~-1 -s 0~-1 -a 0~-1 "$img"
			"$dump" $flag -i 3 "$img"
			"$dump" $flag --ls / "$img"
			"$dump" $flag --stat / "$img"
		} >"$out/$name.$fmt" 2>&1 || true
		echo "$(sha256sum <"$out/$name.$fmt" | cut -d' ' -f1)  $name.dump.$fmt"
	done
done
