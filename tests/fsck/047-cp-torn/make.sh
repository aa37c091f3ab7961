#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
v=$(val "$1" cp.checkpoint_ver)
field "$1" set cpo.checkpoint_ver $(( v + 1 ))
# that pack is now the newest by head version: "cp" names it
field "$1" fixcrc cp
