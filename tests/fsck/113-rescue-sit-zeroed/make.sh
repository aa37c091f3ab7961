#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the whole SIT area (both copies) zeroed
. "$(dirname "$0")/../lib.sh"
base "$1"
zero_area "$1" sit
