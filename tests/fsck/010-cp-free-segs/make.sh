#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# One too low.  Only a checkpoint written as the kernel disables
# checkpointing counts fewer free segments than the SIT holds (fsck/
# cp_free.c; cases 070, 071); this one is not.  The kernel never reads
# the count, so fsck warns (CNT_FREE_SEGS_SHORT) and writes nothing.
base "$1"
addto "$1" cp.free_segment_count -1
field "$1" fixcrc cp
