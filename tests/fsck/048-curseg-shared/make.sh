#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set cp.cur_data_segno1 $(val "$1" cp.cur_data_segno0)
field "$1" fixcrc cp
