#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
addto "$1" cp.valid_block_count 1
field "$1" fixcrc cp
