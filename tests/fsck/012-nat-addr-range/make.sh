#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/d2/mid)
field "$1" set nat.$ino.blkaddr 10
