#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the hot data log is put on the hot node log's segment, a node segment
# in the SIT: the node log keeps it, the data log moves
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set cp.cur_data_segno0 $(val "$1" cp.cur_node_segno0)
field "$1" fixcrc cp
