#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
a=$(ino_of "$1" /d1/d2/mid)
b=$(ino_of "$1" /small)
inj "$1" --nat 0 --nid "$a" --mb block_addr --val "$(inj_val "$1" --nat 0 --nid "$b" --mb block_addr)"
