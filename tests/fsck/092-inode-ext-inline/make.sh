#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# an inline file's i_ext gets a length: the kernel checks the range of
# every inode's extent when it loads it and refuses block 0; found by
# fault campaign seed 7 (a compressed file's)
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /small)
inj "$1" --node --nid "$ino" --mb i_ext.len --val 1
