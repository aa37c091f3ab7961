#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Set up a Debian 12 machine, build, and format a demo image.
# Idempotent: installs only what is missing, rebuilds only what changed.
set -eu
cd "$(dirname "$0")"
pkgs="build-essential autoconf automake libtool pkg-config uuid-dev libblkid-dev libselinux1-dev liblz4-dev libzstd-dev liblzo2-dev"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
[ -x configure ] || ./autogen.sh
[ -f Makefile ] || ./configure -q
make -s -j"$(nproc)"
img=${DEMO_IMAGE:-/tmp/f2fs-demo.img}
rm -f "$img"
truncate -s 1G "$img"
mkfs/mkfs.f2fs -f -l demo -O extra_attr,inode_checksum,sb_checksum,lost_found "$img"
echo "allocated after mkfs: $(du -k "$img" | cut -f1) KiB of a 1 GiB sparse file"
echo "superblock and checkpoint of $img:"
tests/tools/f2sb --cp "$img" | grep -E '^(segment_count|segment_count_main|main_blkaddr|feature|cp\.user_block_count|cp\.valid_inode_count)='
