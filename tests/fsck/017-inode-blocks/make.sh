#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
inj_add "$1" -1 --node --nid "$(ino_of "$1" /d1/big)" --mb i_blocks
