#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
a0=$(inj_val "$1" --node --nid "$(ino_of "$1" /d1/big)" --mb i_addr --idx 0)
# vblocks carries the type in its top bits: += 3 keeps it
inj_add "$1" 3 --sit 0 --blk "$a0" --mb vblocks
