#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
for p in 1 2; do
	inj "$1" --cp $p --mb overprov_segment_count --val 4294967295
	inj "$1" --cp $p --mb rsvd_segment_count --val 0
done
