#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/man/man.bats - the man pages in man/ against the tools: every tool
# that is built has a page, installed by make install (man/Makefile.am);
# every option its --help lists (short -x and long --xyz) appears in the
# page; the page renders without a warning from groff -man -ww and with
# man -l.  A tool that is not built yet has its tests skipped with that
# reason (bats 1.8 cannot create tests at run time); a skip is never
# counted as a pass by tests/run.sh.

load ../lib/common

# build path (relative to F2_BUILD) of every tool that gets a page
TOOLS="mkfs/mkfs.f2fs mkfs/sload.f2fs fsck/fsck.f2fs dump/dump.f2fs gc/gc.f2fs gc/defrag.f2fs resize/resize.f2fs tune/f2fslabel tune/tune.f2fs inject/inject.f2fs mount-helper/mount.f2fs"

page_of() { echo "$F2_TOP/man/$(basename "$1").8"; }

# need_tool TOOL: skip when the tool is not built (yet)
need_tool() {
	[ -x "$F2_BUILD/$1" ] || skip "$(basename "$1") is not built yet"
}

# help_options TOOL: the options its --help lists, one per line.  Option
# lines start (after blanks) with a dash; the options are the dash words
# before the first run of two blanks (the description).
help_options() {
	"$F2_BUILD/$1" --help </dev/null 2>&1 |
		awk '/^[[:space:]]*-/ {
			sub(/^[[:space:]]+/, "")
			split($0, part, /  /)
			n = split(part[1], w, /[ ,]+/)
			for (i = 1; i <= n; i++)
				if (w[i] ~ /^--?[A-Za-z0-9][A-Za-z0-9-]*$/) print w[i]
		}' | sort -u
}

# page_text PAGE: the page source with \- turned into - and font escapes gone
page_text() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' "$1"
}

check_options() {
	local tool=$1 page opts o missing=()
	page=$(page_of "$tool")
	[ -f "$page" ] || { echo "no page $page for $tool"; return 1; }
	opts=$(help_options "$tool")
	[ -n "$opts" ] || { echo "$tool --help lists no options"; return 1; }
	for o in $opts; do
		page_text "$page" | grep -qE -- "(^|[^A-Za-z0-9-])$o([^A-Za-z0-9-]|\$)" ||
			missing+=("$o")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "options of $(basename "$tool") --help missing from $page: ${missing[*]}"
		return 1
	fi
	echo "$(basename "$tool"): $(echo $opts | wc -w) options, all in the page"
}

check_render() {
	local tool=$1 page err
	page=$(page_of "$tool")
	[ -f "$page" ] || { echo "no page $page for $tool"; return 1; }
	err=$(groff -man -ww -Tutf8 "$page" 2>&1 >/dev/null)
	if [ -n "$err" ]; then
		echo "groff -man -ww warns on $page:"
		echo "$err"
		return 1
	fi
	err=$(MANWIDTH=80 man -l "$page" 2>&1 >"$(f2_tmp)/page.txt")
	if [ -n "$err" ] || [ ! -s "$(f2_tmp)/page.txt" ]; then
		echo "man -l $page: ${err:-no output}"
		return 1
	fi
	grep -q '^NAME' "$(f2_tmp)/page.txt" && grep -q '^SYNOPSIS' "$(f2_tmp)/page.txt"
}

setup() {
	command -v groff >/dev/null && command -v man >/dev/null || {
		echo "groff (groff-base) and man (man-db) are needed"
		return 1
	}
}

@test "man: every built tool has a page, and every page is installed" {
	local t built=0 bad=0 p listed
	for t in $TOOLS; do
		[ -x "$F2_BUILD/$t" ] || continue
		built=$((built + 1))
		[ -f "$(page_of "$t")" ] || { echo "$t is built but has no $(page_of "$t")"; bad=1; }
	done
	[ "$built" -gt 0 ] || { echo "no tool is built"; return 1; }
	# dist_man8_MANS assignments, continuation lines joined
	listed=$(awk '{ line = line $0 } /\\$/ { sub(/\\$/, " ", line); next }
		{ if (line ~ /^dist_man8_MANS[ \t]*\+?=/) print line; line = "" }' \
		"$F2_TOP/man/Makefile.am")
	for p in "$F2_TOP"/man/*.8; do
		grep -qw -- "$(basename "$p")" <<<"$listed" ||
			{ echo "$(basename "$p") is not in man/Makefile.am dist_man8_MANS"; bad=1; }
	done
	[ "$bad" -eq 0 ]
}

@test "man: mkfs.f2fs: every --help option is in mkfs.f2fs.8" { need_tool mkfs/mkfs.f2fs; check_options mkfs/mkfs.f2fs; }
@test "man: mkfs.f2fs.8 renders without warnings" { need_tool mkfs/mkfs.f2fs; check_render mkfs/mkfs.f2fs; }
@test "man: sload.f2fs: every --help option is in sload.f2fs.8" { need_tool mkfs/sload.f2fs; check_options mkfs/sload.f2fs; }
@test "man: sload.f2fs.8 renders without warnings" { need_tool mkfs/sload.f2fs; check_render mkfs/sload.f2fs; }
@test "man: fsck.f2fs: every --help option is in fsck.f2fs.8" { need_tool fsck/fsck.f2fs; check_options fsck/fsck.f2fs; }
@test "man: fsck.f2fs.8 renders without warnings" { need_tool fsck/fsck.f2fs; check_render fsck/fsck.f2fs; }
@test "man: dump.f2fs: every --help option is in dump.f2fs.8" { need_tool dump/dump.f2fs; check_options dump/dump.f2fs; }
@test "man: dump.f2fs.8 renders without warnings" { need_tool dump/dump.f2fs; check_render dump/dump.f2fs; }
@test "man: gc.f2fs: every --help option is in gc.f2fs.8" { need_tool gc/gc.f2fs; check_options gc/gc.f2fs; }
@test "man: gc.f2fs.8 renders without warnings" { need_tool gc/gc.f2fs; check_render gc/gc.f2fs; }
@test "man: resize.f2fs: every --help option is in resize.f2fs.8" { need_tool resize/resize.f2fs; check_options resize/resize.f2fs; }
@test "man: resize.f2fs.8 renders without warnings" { need_tool resize/resize.f2fs; check_render resize/resize.f2fs; }
@test "man: defrag.f2fs: every --help option is in defrag.f2fs.8" { need_tool gc/defrag.f2fs; check_options gc/defrag.f2fs; }
@test "man: defrag.f2fs.8 renders without warnings" { need_tool gc/defrag.f2fs; check_render gc/defrag.f2fs; }
@test "man: f2fslabel: every --help option is in f2fslabel.8" { need_tool tune/f2fslabel; check_options tune/f2fslabel; }
@test "man: f2fslabel.8 renders without warnings" { need_tool tune/f2fslabel; check_render tune/f2fslabel; }
@test "man: tune.f2fs: every --help option is in tune.f2fs.8" { need_tool tune/tune.f2fs; check_options tune/tune.f2fs; }
@test "man: tune.f2fs.8 renders without warnings" { need_tool tune/tune.f2fs; check_render tune/tune.f2fs; }
@test "man: inject.f2fs: every --help option is in inject.f2fs.8" { need_tool inject/inject.f2fs; check_options inject/inject.f2fs; }
@test "man: inject.f2fs.8 renders without warnings" { need_tool inject/inject.f2fs; check_render inject/inject.f2fs; }
@test "man: mount.f2fs: every --help option is in mount.f2fs.8" { need_tool mount-helper/mount.f2fs; check_options mount-helper/mount.f2fs; }
@test "man: mount.f2fs.8 renders without warnings" { need_tool mount-helper/mount.f2fs; check_render mount-helper/mount.f2fs; }

@test "man: the option check can fail (a page missing an option is caught)" {
	need_tool mount-helper/mount.f2fs
	local fake=$(f2_tmp)/fake
	mkdir -p "$fake/man" "$fake/mount-helper"
	grep -v -- 'dry' "$F2_TOP/man/mount.f2fs.8" >"$fake/man/mount.f2fs.8"
	ln -s "$F2_BUILD/mount-helper/mount.f2fs" "$fake/mount-helper/mount.f2fs"
	F2_TOP=$fake F2_BUILD=$F2_BUILD run check_options mount-helper/mount.f2fs
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"missing from"*"--dry-run"* ]]
}
