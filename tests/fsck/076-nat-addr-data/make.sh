#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/big)
a0=$(inj_val "$1" --node --nid "$ino" --mb i_addr --idx 0)
inj "$1" --nat 0 --nid "$ino" --mb block_addr --val "$a0"
