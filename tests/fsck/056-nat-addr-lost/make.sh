#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# as 012, and the footer of the inode's own block names another owner, so
# the repair finds no intact block to re-point the entry to: it is freed
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/d2/mid)
at=$(off "$1" inode.$ino.footer_ino)
field "$1" set nat.$ino.blkaddr 10
field "$1" setoff "$at" 4 4
