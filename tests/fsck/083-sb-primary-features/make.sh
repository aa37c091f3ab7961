#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,inode_checksum,sb_checksum
inj "$1" --sb 1 --mb feature --val 0
