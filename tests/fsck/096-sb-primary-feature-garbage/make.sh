#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# random bytes over the primary superblock's feature word (its crc
# redone): bits no kernel defines.  The backup is the right copy; -y
# refused to write at all (exit 8) before it weighed the copies; found
# by fault campaign seed 2
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --sb 1 --mb feature --val 988615856
