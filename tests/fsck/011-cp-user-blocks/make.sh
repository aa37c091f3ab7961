#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# user_block_count = the whole main area (the kernel requires less)
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set cp.user_block_count $(( $(val "$1" sb.segment_count_main) * 512 ))
field "$1" fixcrc cp
