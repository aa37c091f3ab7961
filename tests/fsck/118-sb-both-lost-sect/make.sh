#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# both superblock blocks zeroed on a volume of 2-segment sections in
# 2-section zones (segment 0 at 4 MiB) with 10% overprovision
. "$(dirname "$0")/../lib.sh"
base "$1" -s 2 -z 2 -o 10
zero_sb "$1"
