#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set cp.ckpt_flags $(( $(val "$1" cp.ckpt_flags) | 0x8 ))
field "$1" fixcrc cp
