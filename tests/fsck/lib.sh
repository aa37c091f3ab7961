# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/lib.sh - helpers for the corruption cases' make.sh scripts.
# Each tests/fsck/NNN-name/make.sh is run as `make.sh IMG` with this file
# sourced first; it builds a clean image at IMG and injects one fault.
#
#   base IMG [mkfs options]  reference mkfs.f2fs on a 256 MiB sparse IMG,
#                            then reference sload.f2fs of the standard tree
#   field IMG get|set ...    tests/tools/f2field
#   ino_of IMG /path         inode number of a path (no dots in names but
#                            the last one)
#   val IMG FIELD            the current value of FIELD
#   addto IMG FIELD N        FIELD += N
set -eu
F2FIELD=${F2FIELD:?}
REF_MKFS=${REF_MKFS:-/sbin/mkfs.f2fs}
REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}

# The standard tree: small and inline files, a hard link, a symlink, a
# 5 MB file (full data segments), a 12 MB file (indirect nodes), a
# directory of 300 files (two dentry blocks), nested directories.
std_tree() {
	local d=$1 i
	rm -rf "$d" && mkdir -p "$d/d1/d2" "$d/many" "$d/empty"
	echo hello >"$d/small"
	seq 1 200 >"$d/d1/d2/mid"
	seq 1 900000 | head -c 5000000 >"$d/d1/big"
	seq 1 2000000 | head -c 12000000 >"$d/huge"
	ln "$d/small" "$d/many/hard"
	ln -s small "$d/link"
	for i in $(seq 1 300); do echo "$i" >"$d/many/f$i"; done
}

base() {
	local img=$1 tree
	shift
	tree=$(dirname "$img")/tree.$$
	std_tree "$tree"
	rm -f "$img" && truncate -s 256M "$img"
	"$REF_MKFS" -q -f "$@" "$img" >/dev/null
	# sload 1.15 exits 1 even when it succeeds: judge by fsck later
	"$REF_SLOAD" -f "$tree" "$img" >/dev/null 2>&1 || true
	rm -rf "$tree"
}

field() { "$F2FIELD" "$@"; }
val() { "$F2FIELD" "$1" get "$2" | cut -d' ' -f3; }
off() { "$F2FIELD" "$1" get "$2" | cut -d' ' -f1; }
addto() { "$F2FIELD" "$1" set "$2" $(( $(val "$1" "$2") + $3 )); }

ino_of() {
	local img=$1 path=$2 ino=3 c
	local IFS=/
	for c in $path; do
		[ -n "$c" ] || continue
		ino=$(val "$img" "dent.$ino.$c.ino")
	done
	echo "$ino"
}
