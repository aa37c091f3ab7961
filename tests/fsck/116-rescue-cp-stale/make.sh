#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# the checkpoint area saved, three more checkpoints written (our
# sload.f2fs adds a directory each time: a file and a copy of a source
# tree), then the saved area written back: both packs valid, the newest
# three versions behind the nodes its NAT reaches
. "$(dirname "$0")/../lib.sh"
base "$1"
stale_cp "$1"
