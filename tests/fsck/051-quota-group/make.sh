#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1" -O extra_attr,quota
addto "$1" quota.1.0.inodes 3
