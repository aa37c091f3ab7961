#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,inode_checksum
ino=$(ino_of "$1" /d1/d2/mid)
inj_add "$1" 2 --node --nid "$ino" --mb i_links
