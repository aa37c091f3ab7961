#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the whole SSA area zeroed
. "$(dirname "$0")/../lib.sh"
base "$1"
zero_area "$1" ssa
