#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sb.magic (block 0, byte 1024) = 0
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set sb.magic 0
