#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../lib.sh"
# A two-device volume (reference mkfs -c, then sload): IMG (16 MiB) holds
# only the metadata, so the main area, every node and data block, lies on
# the second device, IMG.dev1 (256 MiB).  Paths are absolute: the
# superblock records them and the tools compare them.
img=$(realpath "$1")
[ ${#img} -le 58 ] || { echo "$img.dev1: longer than the 63 bytes a device path has" >&2; exit 1; }
tree=$(dirname "$img")/tree.$$
std_tree "$tree"
rm -f "$img" "$img.dev1" && truncate -s 16M "$img" && truncate -s 256M "$img.dev1"
"$REF_MKFS" -q -f -c "$img.dev1" "$img" >/dev/null
"$REF_SLOAD" -f "$tree" "$img" >/dev/null 2>&1 || true
rm -rf "$tree"
# i_links of /d1/d2/mid one too high: its inode lies on the second
# device (f2field offsets are in the devices joined)
ino=$(ino_of "$img" /d1/d2/mid)
read -r o _ links < <(field "$img" get inode.$ino.links)
[ "$o" -ge "$(stat -c %s "$img")" ] ||
	{ echo "the inode of /d1/d2/mid is not on the second device" >&2; exit 1; }
field "$img" set inode.$ino.links $((links + 1))
