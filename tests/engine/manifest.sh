#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# manifest.sh DIR: one line per entry (sorted by path) with type+mode,
# owner, link count, size (not for directories), md5 of regular files,
# symlink targets, device numbers and xattrs (hex), for comparing a tree
# with what an image holds (host extraction or a kernel mount in QEMU).
# POSIX sh + find/stat/md5sum/readlink (busybox works); getfattr if present.
# EXCLUDE (env, optional): a path to leave out, e.g. ./lost+found
cd "$1" || exit 1
find . | LC_ALL=C sort | while IFS= read -r p; do
	[ -n "${EXCLUDE:-}" ] && case "$p" in "$EXCLUDE"|"$EXCLUDE"/*) continue;; esac
	if [ -L "$p" ]; then
		printf '%s l %s %s\n' "$p" "$(stat -c '%u:%g:%h' "$p")" "$(readlink "$p")"
	elif [ -d "$p" ]; then
		printf '%s d %s\n' "$p" "$(stat -c '%a:%u:%g:%h' "$p")"
	elif [ -f "$p" ]; then
		printf '%s f %s %s\n' "$p" "$(stat -c '%a:%u:%g:%h:%s' "$p")" \
			"$(md5sum < "$p" | cut -c1-32)"
	else
		printf '%s o %s\n' "$p" "$(stat -c '%F:%a:%u:%g:%h:%t:%T' "$p")"
	fi
	if command -v getfattr >/dev/null 2>&1; then
		getfattr -h -d -m - -e hex "$p" 2>/dev/null | grep -v '^#' | grep . | LC_ALL=C sort |
			sed 's/^/    /'
	fi
done
