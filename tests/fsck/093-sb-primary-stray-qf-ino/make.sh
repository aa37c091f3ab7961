#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# random bytes over the primary superblock's qf_ino on a volume without
# quota_ino: both copies verify, the backup is the right one (a repair
# that copied the primary over it kept the garbage); found by fault
# campaign seed 1
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --sb 1 --mb qf_ino --idx 0 --val 427193719
