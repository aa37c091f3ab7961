#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /huge)
inj "$1" --node --nid "$ino" --mb i_nid --idx 1 --val "$(inj_val "$1" --node --nid "$ino" --mb i_nid --idx 0)"
