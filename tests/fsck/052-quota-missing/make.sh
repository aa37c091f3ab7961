#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,quota,project_quota
field "$1" set quota.2.0.leaf 0
