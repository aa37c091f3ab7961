#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# "caf\351" (Latin-1) in /cf: the strict encoding refuses it
cf_base "$1" utf8:strict 'caf\351'
