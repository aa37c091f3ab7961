#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# nat_bits sit at the end of the pack's segment: an 8-byte header, the
# "full" bits, then the "empty" bits (one bit per NAT block, lsb first).
# Set the empty bit of NAT block 0, which holds the root inode.
. "$(dirname "$0")/../lib.sh"
base "$1"
cpstart=$(( $(off "$1" cp.checkpoint_ver) / 4096 ))
bytes=$(( $(val "$1" sb.segment_count_nat) / 2 * 512 / 8 ))
nblk=$(( (2 * bytes + 8 + 4095) / 4096 ))
at=$(( (cpstart + 512 - nblk) * 4096 + 8 + bytes ))
field "$1" setoff $at 1 $(( $(od -An -tu1 -j $at -N1 "$1") | 1 ))
