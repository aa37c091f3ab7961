#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --nat 0 --nid 0 --mb ino --val 3
