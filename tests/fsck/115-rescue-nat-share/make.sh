#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# 10% of the NAT blocks holding entries (at least one), both copies, chosen with seed 22
. "$(dirname "$0")/../lib.sh"
base "$1"
zero_nat_share "$1" 10 22 >/dev/null
