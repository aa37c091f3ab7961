#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# two names of /cf fold to "readme"
cf_base "$1" utf8 readme README
