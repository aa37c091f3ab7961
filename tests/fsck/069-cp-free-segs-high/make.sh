#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# One too high: the kernel never counts a segment free that the SIT shows
# in use, so a count above the SIT's is damage whatever the checkpoint.
base "$1"
inj_add "$1" 1 --cp 0 --mb free_segment_count
