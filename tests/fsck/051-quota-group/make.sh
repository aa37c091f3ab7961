#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,quota
addto "$1" quota.1.0.inodes 3
