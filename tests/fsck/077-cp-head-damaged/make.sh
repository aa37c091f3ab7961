#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
"${TUNE:?}" -O lost_found "$1" >/dev/null
pack=$(( $(val "$1" sb.cp_blkaddr) + 512 ))
[ "$(val "$1" cp.checkpoint_ver)" = "$(field "$1" get cp.checkpoint_ver | cut -d' ' -f3)" ]
# one byte of the head's reserved tail area (before the checksum): the
# crc no longer matches
field "$1" setoff $((pack * 4096 + 4000)) 1 0x5a
