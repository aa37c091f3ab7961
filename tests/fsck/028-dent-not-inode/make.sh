#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
dn=$(val "$1" inode.$(ino_of "$1" /huge).nid0)
inj "$1" --dent --nid "$(ino_of "$1" /d1/d2/mid)" --mb d_ino --val "$dn"
