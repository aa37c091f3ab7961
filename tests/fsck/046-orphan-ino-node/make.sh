#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" orphan $(ino_of "$1" /small)
field "$1" set orph.0.ino0 $(val "$1" inode.$(ino_of "$1" /huge).nid0)
