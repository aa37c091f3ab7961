#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# volume_name[0] of the backup (block 1, byte 1024 + 0x7c) = 'X'
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" setoff $((4096 + 1024 + 0x7c)) 2 88
