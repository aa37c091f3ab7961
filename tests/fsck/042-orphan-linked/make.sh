#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" orphan $(ino_of "$1" /small)
