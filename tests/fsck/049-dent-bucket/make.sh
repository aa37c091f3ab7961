#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# a directory of 1000 names: level 0 (one bucket of 2 blocks) fills, the
# rest goes to level 1 (2 buckets of 2 blocks, bucket = hash % 2)
img=$1 tree=$(dirname "$1")/tree.$$
rm -rf "$tree" && mkdir -p "$tree/big"
for i in $(seq 1 1000); do echo "$i" >"$tree/big/f$i"; done
rm -f "$img" && truncate -s 256M "$img"
"$REF_MKFS" -q -f "$img" >/dev/null
"$REF_SLOAD" -f "$tree" "$img" >/dev/null 2>&1 || true
rm -rf "$tree"
dir=$(ino_of "$img" /big)
# an entry in a level-1 block (file block >= 2)
for i in $(seq 1000 -1 1); do
	[ "$(field "$img" dentblk "$dir" "f$i")" -ge 2 ] && break
done
name=f$i
old=$(field hash "$name")
# rename it in place (same length) to a name of the other bucket, with
# that name's correct hash: the kernel would look for it in the other
# bucket and never find it
for c in x y z w v u t s; do
	new=$c${name#f}
	h=$(field hash "$new")
	[ $(( h % 2 )) -ne $(( old % 2 )) ] && break
done
field "$img" set "dent.$dir.$name.hash" "$h"
field "$img" set "dent.$dir.$name.name" "$(printf '%d' "'$c")"
