#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# both checkpoint packs and both NAT copies zeroed
. "$(dirname "$0")/../lib.sh"
base "$1"
zero_area "$1" cp
zero_area "$1" nat
