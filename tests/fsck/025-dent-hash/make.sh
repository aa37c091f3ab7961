#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
addto "$1" dent.$(ino_of "$1" /many).f1.hash 1
