#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,quota
inj "$1" --node --nid "$(ino_of "$1" /d1/d2/mid)" --mb i_uid --val 1234
