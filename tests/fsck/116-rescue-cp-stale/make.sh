#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the checkpoint area saved, three more checkpoints written (our
# sload.f2fs adds a directory each time: a file and a copy of a source
# tree), then the saved area written back: both packs valid, the newest
# three versions behind the nodes its NAT reaches
. "$(dirname "$0")/../lib.sh"
base "$1"
SLOAD=${SLOAD:?}
cp=$(val "$1" sb.cp_blkaddr)
n=$(( $(val "$1" sb.segment_count_ckpt) * 512 ))
src=$(dirname "$1")/stale.$$
dd if="$1" of="$src.cp" bs=4096 skip="$cp" count="$n" status=none
for i in 1 2 3; do
	rm -rf "$src" && mkdir -p "$src/new$i/sub"
	seq 1 $((i * 20000)) >"$src/new$i/f"
	for j in $(seq 1 $((i * 7))); do echo "$i $j" >"$src/new$i/sub/g$j"; done
	"$SLOAD" -q -f "$src" "$1" >/dev/null
done
dd if="$src.cp" of="$1" bs=4096 seek="$cp" conv=notrunc status=none
rm -rf "$src" "$src.cp"
