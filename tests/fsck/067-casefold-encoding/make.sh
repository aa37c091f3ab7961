#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
cf_base "$1" utf8
field "$1" set sb.s_encoding 2
field "$1" set sb1.s_encoding 2
