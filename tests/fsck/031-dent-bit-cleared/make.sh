#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mid is the only entry in its bitmap byte besides "." and "..": clear
# only its own bit (slot 2 of d2's dentry block)
. "$(dirname "$0")/../lib.sh"
base "$1"
d2=$(ino_of "$1" /d1/d2)
inj "$1" --dent --nid "$(ino_of "$1" /d1/d2/mid)" --mb d_bitmap --val 0
