#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
seg=$(( $(val "$1" sb.segment_count_main) - 5 ))
field "$1" set sit.$seg.vblocks 1
field "$1" set sit.$seg.map0 0x80
