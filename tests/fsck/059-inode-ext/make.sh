#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
# sload leaves /d1/big's first extent in i_ext (file block 0, len 1024):
# shifted one block on, it names blocks the tree maps one offset later
ino=$(ino_of "$1" /d1/big)
[ "$(val "$1" inode.$ino.ext_len)" -gt 1 ] || { echo "/d1/big has no extent" >&2; exit 1; }
inj_add "$1" 1 --node --nid "$ino" --mb i_ext.blk
