#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the whole checkpoint area (both packs) zeroed
. "$(dirname "$0")/../lib.sh"
base "$1"
zero_area "$1" cp
