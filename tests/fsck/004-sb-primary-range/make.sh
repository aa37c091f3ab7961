#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set sb.segment_count_main 100000
