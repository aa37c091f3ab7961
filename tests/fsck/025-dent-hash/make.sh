#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
inj_add "$1" 1 --dent --nid "$(ino_of "$1" /many/f1)" --mb d_hash
