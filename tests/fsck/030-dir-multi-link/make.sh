#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
d2=$(ino_of "$1" /d1/d2)
mid=$(ino_of "$1" /d1/d2/mid)
inj "$1" --dent --nid "$mid" --mb d_ftype --val 2
inj "$1" --dent --nid "$mid" --mb d_ino --val "$(ino_of "$1" /many)"
