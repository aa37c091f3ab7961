#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# the names of lib.sh (cf_base), and in /cf one that is not UTF-8 (hashed
# as its bytes: the encoding is not strict)
cf_base "$1" utf8 'caf\351'
