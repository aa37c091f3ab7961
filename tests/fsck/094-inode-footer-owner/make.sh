#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# random bytes over the footer of /d1/d2/mid's inode: owner and node
# offset wrong, its nid right.  The footer is rewritten and the inode
# kept (the walk went on with the damaged offset, found the inode
# unparsable and dropped it, and then the footer rewrite failed on the
# freed nid); found by fault campaign seed 1
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/d2/mid)
inj "$1" --node --nid "$ino" --mb ino --val 2260336704
inj "$1" --node --nid "$ino" --mb flag --val $((16 << 3))
