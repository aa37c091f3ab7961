#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# /d1/d2's i_pino names /many instead of /d1: Linux keeps a directory's
# i_pino at its parent, and the reference fsck then finds its ".."
# wrong; found by fault campaign seed 1 (fault 406)
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --node --nid "$(ino_of "$1" /d1/d2)" --mb i_pino --val "$(ino_of "$1" /many)"
