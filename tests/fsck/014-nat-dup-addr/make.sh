#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
a=$(ino_of "$1" /d1/d2/mid)
b=$(ino_of "$1" /small)
field "$1" set nat.$a.blkaddr "$(val "$1" nat.$b.blkaddr)"
