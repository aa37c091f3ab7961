#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
# the cold data log (empty, type 2 in the SIT) gets type 1 (warm data)
field "$1" set sit.$(val "$1" cp.cur_data_segno2).vblocks $(( 1 << 10 ))
