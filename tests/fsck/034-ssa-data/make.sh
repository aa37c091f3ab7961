#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# big's first data block sits in a full (not current) data segment, so
# its summary is the SSA area's
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/big)
a=$(val "$1" inode.$ino.addr0)
main=$(val "$1" sb.main_blkaddr)
seg=$(( (a - main) / 512 ))
inj "$1" --ssa --blk "$a" --mb nid --val 77
