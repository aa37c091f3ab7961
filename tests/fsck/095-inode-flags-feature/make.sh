#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# /d1/d2/mid flagged casefolded on a volume without casefold: Linux
# refuses to load the inode ("has casefold flag, but casefold feature
# is off"); found by fault campaign seed 1 (i_flags set to all ones)
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/d2/mid)
inj "$1" --node --nid "$ino" --mb i_flags --val $((0x40000000))
