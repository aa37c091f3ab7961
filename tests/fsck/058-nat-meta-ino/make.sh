#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set nat.2.ino 7
