#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The NAT entry of /d1/d2/mid's inode points at a free block of the
# current hot node segment that holds a stale copy of /small's inode (as
# a node block the kernel rewrote elsewhere leaves behind).  Re-footering
# that copy as mid's would have given mid /small's data; found by fault
# campaign seed 1 (fault 409)
. "$(dirname "$0")/../lib.sh"
base "$1"
small=$(ino_of "$1" /small)
mid=$(ino_of "$1" /d1/d2/mid)
seg=$(inj_val "$1" --cp 0 --mb cur_node_segno --idx 0)
off=$(inj_val "$1" --cp 0 --mb cur_node_blkoff --idx 0)
free=$(( $(seg_blk "$1" "$seg") + off ))
dd if="$1" of="$1" bs=4096 skip="$(val "$1" nat.$small.blkaddr)" seek="$free" count=1 \
	conv=notrunc status=none
field "$1" set nat.$mid.blkaddr "$free"
