#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,inode_checksum
ino=$(ino_of "$1" /d1/d2/mid)
addto "$1" inode.$ino.links 2
field "$1" fixcrc inode.$ino
