#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# manifest.sh DIR: one line per entry (sorted by path) with type+mode,
# owner, link count, size (not for directories), md5 of regular files,
# symlink targets and device numbers; then "XATTRS" and one sorted line
# "path name=0xhex" per xattr (getfattr, if present).  For comparing a tree
# with what an image holds (host extraction or a kernel mount in QEMU).
# POSIX sh + find/stat/md5sum/readlink/awk/sort/cut (busybox works).
# manifest.py prints the same, faster, on the host.
# EXCLUDE (env, optional): a path to leave out, e.g. ./lost+found
cd "$1" || exit 1
t=${TMPDIR:-/tmp}/manifest.$$
TAB=$(printf '\t') SEP=$(printf '\001')
# A fixed number of processes, whatever the tree (a few per entry cost
# most of a TCG guest's time): one stat for every entry (the name last,
# so it may hold anything but a newline), one md5sum for every file, a
# readlink per symlink; joined by path and sorted by it (\001 between
# the path and its line: names may hold tabs).
# (the excluded path is pruned, not read: it may be an 8 GiB sparse file)
set -- -path "${EXCLUDE:-//}" -prune -o
find . "$@" -exec stat -c "%F$TAB%a$TAB%u$TAB%g$TAB%h$TAB%s$TAB%t$TAB%T$TAB%n" {} + >"$t.st" &&
find . "$@" -type f -exec md5sum {} + >"$t.md5" &&
find . "$@" -type l -exec sh -c 'for p; do printf "%s\001%s\n" "$p" "$(readlink "$p")"; done' sh {} + \
	>"$t.ln" || { rm -f "$t".*; exit 1; }
awk -F"$TAB" -v ex="${EXCLUDE:-}" -v sep="$SEP" '
	FILENAME ~ /md5$/ { md5[substr($0, 35)] = substr($0, 1, 32); next }
	FILENAME ~ /ln$/ { i = index($0, sep); link[substr($0, 1, i - 1)] = substr($0, i + 1); next }
	{
		p = $9
		for (i = 10; i <= NF; i++) p = p "\t" $i
		if (ex != "" && (p == ex || index(p, ex "/") == 1)) next
		if ($1 == "symbolic link") l = p " l " $3 ":" $4 ":" $5 " " link[p]
		else if ($1 == "directory") l = p " d " $2 ":" $3 ":" $4 ":" $5
		else if ($1 ~ /^regular/) l = p " f " $2 ":" $3 ":" $4 ":" $5 ":" $6 " " md5[p]
		else l = p " o " $1 ":" $2 ":" $3 ":" $4 ":" $5 ":" $7 ":" $8
		print p sep l
	}' "$t.md5" "$t.ln" "$t.st" | LC_ALL=C sort -t "$SEP" -k1,1 |
	awk -v sep="$SEP" '{ print substr($0, index($0, sep) + 1) }'
rm -f "$t".*
echo XATTRS
if command -v getfattr >/dev/null 2>&1; then
	getfattr -R -h -d -m - -e hex . 2>/dev/null |
		awk -v ex="${EXCLUDE:-}" '
			/^# file: / { f = substr($0, 9); if (f != ".") f = "./" f; next }
			/=/ { if (ex == "" || (f != ex && index(f, ex "/") != 1)) print f " " $0 }' |
		LC_ALL=C sort
fi
