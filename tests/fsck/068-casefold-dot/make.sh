#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# ".\u200b" in /cf folds to ".": a lookup of it finds the "." entry (the
# kernel's linear search), so the kernel never creates it.  Its hash is
# the TEA hash of ".", not 0 (f2field casefold stores what the kernel
# would); the reference fsck hashes the fold "." as 0 and disagrees
# until the entry is gone.
cf_base "$1" utf8 '.\342\200\213'
