#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# /d1/big compressed by our sload.f2fs -c (the reference sload here has no
# compressor) on our mkfs -O extra_attr,compression; its i_compr_blocks
# then set to 5, which the kernel's count (cluster heads and the
# reservations after them) and the reference fsck's differ from
. "$(dirname "$0")/../lib.sh"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
std_tree "$tree"
rm -f "$1" && truncate -s 256M "$1"
"${MKFS:?}" -q -f -O extra_attr,compression "$1"
"${SLOAD:?}" -q -c -a lz4 -f "$tree" "$1" >/dev/null
inj "$1" --node --nid "$(ino_of "$1" /d1/big)" --mb i_compr_blocks --val 5
