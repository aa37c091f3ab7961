#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
# the root inode's node block zeroed (footer, mode, block pointers: all gone)
a=$(val "$1" nat.3.blkaddr)
dd if=/dev/zero of="$1" bs=4096 seek="$a" count=1 conv=notrunc status=none
