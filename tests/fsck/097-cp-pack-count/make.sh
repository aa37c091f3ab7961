#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cp_pack_total_block_count of the pack in use (the newer one, written by
# tune.f2fs -O lost_found) raised by 3 in head and tail alike: the kernel
# reads the tail 3 blocks too far ("invalid crc_offset: 0") and falls
# back to the older pack; found by fault campaign seed 2 (faults 70, 468)
. "$(dirname "$0")/../lib.sh"
base "$1"
"${TUNE:?}" -O lost_found "$1" >/dev/null
inj_add "$1" 3 --cp 0 --mb cp_pack_total_block_count
