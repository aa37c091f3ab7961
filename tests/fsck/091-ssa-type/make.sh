#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the summary block of a full data segment says node (the kernel's
# cleaner refuses such a segment); found by fault campaign seed 7
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/big)
a=$(val "$1" inode.$ino.addr0)
inj "$1" --ssa --blk "$a" --mb entry_type --val 1
