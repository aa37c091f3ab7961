#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
# the cold data log (empty, type 2 in the SIT) gets type 1 (warm data)
inj "$1" --sit 0 --blk "$(seg_blk "$1" "$(inj_val "$1" --cp 0 --mb cur_data_segno --idx 2)")" --mb vblocks --val $(( 1 << 10 ))
