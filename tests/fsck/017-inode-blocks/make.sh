#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
addto "$1" inode.$(ino_of "$1" /d1/big).blocks -1
