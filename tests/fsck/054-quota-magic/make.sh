#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,quota
q=$(val "$1" sb.qf_ino1)
field "$1" setoff $(( $(val "$1" inode.$q.addr0) * 4096 )) 4 0x12345678
