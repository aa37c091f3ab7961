#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# sb.magic (block 0, byte 1024) = 0
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --sb 1 --mb magic --val 0
