#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set dent.$(ino_of "$1" /d1/d2).mid.name_len 0
