#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# user_block_count = the whole main area (the kernel requires less)
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --cp 0 --mb user_block_count --val $(( $(inj_val "$1" --sb 1 --mb segment_count_main) * 512 ))
