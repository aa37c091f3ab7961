#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# both superblock blocks (0 and 1) zeroed
. "$(dirname "$0")/../lib.sh"
base "$1"
zero_sb "$1"
