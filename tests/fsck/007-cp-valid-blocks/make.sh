#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
addto "$1" cp.valid_block_count 1
field "$1" fixcrc cp
