#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
base "$1"
inj "$1" --sb 1 --mb cp_payload --val 1
