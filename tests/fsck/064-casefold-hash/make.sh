#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
cf_base "$1" utf8
# "straße" in /cfblk (a dentry block) with the hash of its bytes, as if
# the directory had not been casefolded when it was named
dir=$(ino_of "$1" /cfblk) name=$(printf 'stra\303\237e')
[ "$(field "$1" dentblk "$dir" "$name")" != inline ]
field "$1" set "dent.$dir.$name.hash" "$(field hash "$name")"
