#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O sb_checksum
inj_add "$1" 1 --sb 2 --mb crc
