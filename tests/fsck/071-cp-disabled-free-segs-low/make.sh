#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# As 070, one more short: a segment whose SIT entry that checkpoint did
# not write was free before it, and stays free: past what the kernel
# writes, so fsck warns (as for 010).
base "$1"
n=$(cp_disabled "$1" 2)
addto "$1" cp.free_segment_count "-$(( n + 1 ))"
field "$1" fixcrc cp
