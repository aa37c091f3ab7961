#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# /d1/d2/mid (inline data, no extra attributes) gets 0x10000 in i_addr[0],
# the reserved word before its inline data: what an i_inline_xattr_size
# of 1 written into an inode without extra attributes leaves; the
# reference fsck reports it ("wrong inline reserve blkaddr"); found by
# fault campaign seed 1 (fault 203)
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --node --nid "$(ino_of "$1" /d1/d2/mid)" --mb i_addr --idx 0 --val 0x10000
