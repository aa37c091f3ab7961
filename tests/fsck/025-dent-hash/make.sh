#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
addto "$1" dent.$(ino_of "$1" /many).f1.hash 1
