#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# manifest.sh DIR: one line per entry (sorted by path) with type+mode,
# owner, link count, size (not for directories), md5 of regular files,
# symlink targets and device numbers; then "XATTRS" and one sorted line
# "path name=0xhex" per xattr (getfattr, if present).  For comparing a tree
# with what an image holds (host extraction or a kernel mount in QEMU).
# POSIX sh + find/stat/md5sum/readlink/awk (busybox works), few processes
# per entry.  manifest.py prints the same, faster, on the host.
# EXCLUDE (env, optional): a path to leave out, e.g. ./lost+found
cd "$1" || exit 1
find . | LC_ALL=C sort | while IFS= read -r p; do
	[ -n "${EXCLUDE:-}" ] && case "$p" in "$EXCLUDE"|"$EXCLUDE"/*) continue;; esac
	if [ -L "$p" ]; then
		printf '%s l %s %s\n' "$p" "$(stat -c '%u:%g:%h' "$p")" "$(readlink "$p")"
	elif [ -d "$p" ]; then
		printf '%s d %s\n' "$p" "$(stat -c '%a:%u:%g:%h' "$p")"
	elif [ -f "$p" ]; then
		m=$(md5sum "$p")
		printf '%s f %s %s\n' "$p" "$(stat -c '%a:%u:%g:%h:%s' "$p")" "${m%% *}"
	else
		printf '%s o %s\n' "$p" "$(stat -c '%F:%a:%u:%g:%h:%t:%T' "$p")"
	fi
done
echo XATTRS
if command -v getfattr >/dev/null 2>&1; then
	getfattr -R -h -d -m - -e hex . 2>/dev/null |
		awk -v ex="${EXCLUDE:-}" '
			/^# file: / { f = substr($0, 9); if (f != ".") f = "./" f; next }
			/=/ { if (ex == "" || (f != ex && index(f, ex "/") != 1)) print f " " $0 }' |
		LC_ALL=C sort
fi
