#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
dn=$(val "$1" inode.$(ino_of "$1" /huge).nid0)
field "$1" set node.$dn.footer_ino 4
