#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
seg=$(( $(val "$1" sb.segment_count_main) - 5 ))
inj "$1" --sit 0 --blk "$(seg_blk "$1" "$seg")" --mb vblocks --val 1
inj "$1" --sit 0 --blk "$(seg_blk "$1" "$seg")" --mb valid_map --idx 0 --val 0x80
