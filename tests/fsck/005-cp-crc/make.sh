#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
addto "$1" cp.crc 1
