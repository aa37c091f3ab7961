#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# a small tree: every segment mkfs touches fits the SIT journal
tree=$(dirname "$1")/tree.$$
rm -rf "$tree" && mkdir -p "$tree/d1/d2"
echo hello >"$tree/small"
seq 1 200 >"$tree/d1/d2/mid"
seq 1 3000 >"$tree/d1/two-blocks"
rm -f "$1" && truncate -s 256M "$1"
"${MKFS:?}" -q -f --root "$tree" "$1" >/dev/null
rm -rf "$tree"
# segment 0 (hot node) is in the journal; its entry in the SIT block in
# use (copy 1, as mkfs leaves it) counts 3 blocks, bitmap empty
inj "$1" --sit 1 --blk "$(seg_blk "$1" 0)" --mb vblocks --val $((3 << 10 | 3))
