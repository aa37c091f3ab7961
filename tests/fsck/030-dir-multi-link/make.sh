#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
d2=$(ino_of "$1" /d1/d2)
field "$1" set dent.$d2.mid.ino "$(ino_of "$1" /many)"
field "$1" set dent.$d2.mid.file_type 2
