#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,quota
field "$1" set inode.$(ino_of "$1" /d1/d2/mid).uid 1234
