#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/d2/mid)
inj "$1" --nat 0 --nid "$ino" --mb ino --val 1275068449
inj "$1" --nat 0 --nid "$ino" --mb block_addr --val 12345678
