#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the hot data log is put on the hot node log's segment, a node segment
# in the SIT: the node log keeps it, the data log moves
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --cp 0 --mb cur_data_segno --idx 0 --val "$(inj_val "$1" --cp 0 --mb cur_node_segno --idx 0)"
