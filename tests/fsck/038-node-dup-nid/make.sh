#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /huge)
field "$1" set inode.$ino.nid1 "$(val "$1" inode.$ino.nid0)"
