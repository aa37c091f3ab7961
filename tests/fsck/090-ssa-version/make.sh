#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the NAT version of big's inode moves on: the SSA entries of the data
# blocks the inode maps still carry the old one (the kernel's cleaner
# warns of "mismatched node version"); found by fault campaign seed 7
. "$(dirname "$0")/../lib.sh"
base "$1"
ino=$(ino_of "$1" /d1/big)
inj "$1" --nat 0 --nid "$ino" --mb version --val 1
