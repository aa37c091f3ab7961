#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" orphan $(ino_of "$1" /small)
# nid 100000: far past the few hundred inodes of the standard tree, free
field "$1" set orph.0.ino0 100000
