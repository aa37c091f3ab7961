#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
# the root inode's i_mode zeroed: no file type, the rest intact
inj "$1" --node --nid 3 --mb i_mode --val 0
