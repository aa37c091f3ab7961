#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,inode_checksum
addto "$1" inode.$(ino_of "$1" /d1/d2/mid).csum 1
