#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --cp 0 --mb ckpt_flags --val $(( $(inj_val "$1" --cp 0 --mb ckpt_flags) | 0x10 ))
