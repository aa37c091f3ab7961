#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Set up a Debian 12 machine, build, then the main job on a demo image:
# mkfs a sparse 1 GiB file populated from a host tree, fsck it, dump it
# (superblock, a listing, and an extraction compared with the source).
# Idempotent: installs only what is missing, rebuilds only what changed.
set -eu
cd "$(dirname "$0")"
pkgs="build-essential autoconf automake libtool pkg-config uuid-dev libblkid-dev libselinux1-dev liblz4-dev libzstd-dev liblzo2-dev liburing-dev"
missing=""
for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
[ -x configure ] || ./autogen.sh
[ -f Makefile ] || ./configure -q
make -s -j"$(nproc)"
img=${DEMO_IMAGE:-/tmp/f2fs-demo.img}
src=${DEMO_TREE:-/usr/share/doc/util-linux}
out=${img%.img}.extract
rm -rf "$img" "$out"
truncate -s 1G "$img"
echo "== mkfs.f2fs, populated from $src"
mkfs/mkfs.f2fs -f -l demo -O extra_attr,inode_checksum,sb_checksum,lost_found \
	--root "$src" "$img"
echo "allocated after mkfs: $(du -k "$img" | cut -f1) KiB of a 1 GiB sparse file"
echo "== fsck.f2fs -f -n"
fsck/fsck.f2fs -f -n "$img"
echo "== dump.f2fs: superblock (first lines), root directory, extraction"
dump/dump.f2fs "$img" | head -n 20
dump/dump.f2fs -h --ls / "$img" | head -n 20
dump/dump.f2fs --extract / --output "$out" "$img"
if diff -r -x lost+found "$src" "$out" >/dev/null; then
	echo "extracted tree in $out is identical to $src (lost+found aside)"
else
	echo "extracted tree in $out differs from $src" >&2
	exit 1
fi
