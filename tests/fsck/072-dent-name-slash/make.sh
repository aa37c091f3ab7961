#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
# "mid" renamed "../pwn" in place: a '/' in the name, its hash right for it
inj "$1" --dent --nid "$(ino_of "$1" /d1/d2/mid)" --mb filename --str ../pwn
