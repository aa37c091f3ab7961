#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
# the root inode's i_mode zeroed: no file type, the rest intact
field "$1" set inode.3.mode 0
