# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/common.bash - helpers shared by every bats suite.
#
# Load with:   load ../lib/common
#
# Paths (override any of them from the environment):
#   F2_TOP        source top directory (found from this file's location)
#   F2_BUILD      build top directory (default: F2_TOP, the in-tree build)
#   MKFS          mkfs under test: $MKFS_UNDER_TEST, else $F2_BUILD/mkfs/mkfs.f2fs
#   FSCK DUMP     our fsck.f2fs and dump.f2fs in the build tree
#   F2SB          tests/tools/f2sb, the superblock/checkpoint printer
#   REF_MKFS      reference mkfs.f2fs (f2fs-tools 1.15): /sbin/mkfs.f2fs
#   REF_FSCK      reference fsck.f2fs: /sbin/fsck.f2fs
#
# Helpers (each fails the test with the evidence printed when it fails):
#   require_prog PATH...            fail unless each PATH is executable
#   is_crash STATUS                 true if STATUS means killed by a signal
#   make_image PATH SIZE            sparse file of SIZE (truncate -s syntax)
#   allocated_bytes PATH            bytes actually allocated (st_blocks * 512)
#   run_mkfs PROG ARGS...           run PROG ARGS with stdin closed, fail on error
#   ref_fsck_clean IMG              reference fsck --dry-run finds IMG clean
#   sb_fields IMG [--cp]            superblock (and checkpoint) as name=value
#   compare_geometry OURS REF       fail listing differing geometry fields
#   compare_cp OURS REF [FIELD...]  fail listing differing checkpoint fields
#                                   (default: user_block_count,
#                                   rsvd_segment_count, overprov_segment_count)
#   compare_field_files A B IGNORE_ERE   the comparison engine behind both
#   lane_shared NAME ITEM FUNC ...  FUNC's output made once for all lanes

# f2_canon PATH: PATH made absolute, without . and .. components and
# doubled slashes (symlinks kept), in $REPLY; no process is started: this
# file is loaded again by every test, where a process costs milliseconds
f2_canon() {
	local p=$1 seg out=
	[[ $p == /* ]] || p=$PWD/$p
	local IFS=/
	for seg in $p; do
		case $seg in
		''|.) ;;
		..) out=${out%/*} ;;
		*) out=$out/$seg ;;
		esac
	done
	REPLY=${out:-/}
}
if [ -z "${F2_TOP:-}" ]; then
	f2_canon "${BASH_SOURCE[0]%/*}/../.."
	F2_TOP=$REPLY
fi
F2_BUILD=${F2_BUILD:-$F2_TOP}
MKFS=${MKFS_UNDER_TEST:-$F2_BUILD/mkfs/mkfs.f2fs}
FSCK=${FSCK:-$F2_BUILD/fsck/fsck.f2fs}
DUMP=${DUMP:-$F2_BUILD/dump/dump.f2fs}
F2SB=${F2SB:-$F2_BUILD/tests/tools/f2sb}
REF_MKFS=${REF_MKFS:-/sbin/mkfs.f2fs}
REF_FSCK=${REF_FSCK:-/sbin/fsck.f2fs}
GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}
POPULATE=${POPULATE:-$F2_BUILD/mkfs/f2fs-populate}
SLOAD=${SLOAD:-$F2_BUILD/mkfs/sload.f2fs}
INJECT=${INJECT:-$F2_BUILD/inject/inject.f2fs}
TUNE=${TUNE:-$F2_BUILD/tune/tune.f2fs}
F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
F2REPLAY=${F2REPLAY:-$F2_BUILD/tests/tools/f2replay}
F2AGE=${F2AGE:-$F2_BUILD/tests/tools/f2age}
F2EXTRACT=${F2EXTRACT:-$F2_BUILD/tests/tools/f2extract}
F2WALK=${F2WALK:-$F2_BUILD/tests/crash/f2walk}
export F2_TOP F2_BUILD MKFS FSCK DUMP F2SB REF_MKFS REF_FSCK
export GC DEFRAG POPULATE SLOAD INJECT TUNE F2FIELD F2REPLAY F2AGE F2EXTRACT F2WALK

# f2_unwrap VAR...: each VAR naming an uninstalled program of a shared
# build (a libtool wrapper script) is set to the program itself, and the
# build's library directory goes on LD_LIBRARY_PATH: what the wrapper
# does, without a shell and its sed calls per run (0.13 s against 0.02 s
# for a small fsck; the crash suites run tools thousands of times).
f2_unwrap() {
	local var prog dir line
	for var in "$@"; do
		prog=${!var}
		dir=${prog%/*}
		[ -x "$dir/.libs/${prog##*/}" ] || continue
		# a libtool wrapper says so in its third line
		line=
		{ read -r line && read -r line && read -r line; } <"$prog" 2>/dev/null
		[[ $line == *'temporary wrapper script'* ]] || continue
		printf -v "$var" %s "$dir/.libs/${prog##*/}"
		case ":${LD_LIBRARY_PATH:-}:" in
		*":$F2_BUILD/lib/.libs:"*) ;;
		*) export LD_LIBRARY_PATH=$F2_BUILD/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
		esac
	done
}

# f2_plain_instruments VAR...: in a run of another build (F2_BUILD not
# F2_TOP: the sanitized one), each VAR still naming that build's test
# instrument (tests/tools, tests/crash/f2walk) is set to the in-tree plain
# build's, through a two-line wrapper that gives it the plain library (the
# two libraries share a name, so LD_LIBRARY_PATH cannot hold both).  The
# sanitizers watch the tools under test; the crash suites run the
# instruments thousands of times, and an ASan process costs 30-75 ms to
# start and end against 8 for a plain one.
f2_plain_instruments() {
	local var prog rel dir w
	[ "$F2_BUILD" != "$F2_TOP" ] || return 0
	dir=$F2_TOP/tests/.cache/instruments
	for var in "$@"; do
		prog=${!var}
		case $prog in "$F2_BUILD"/*) rel=${prog#"$F2_BUILD"/} ;; *) continue ;; esac
		[ -x "$F2_TOP/${rel%/*}/.libs/${rel##*/}" ] || continue
		w=$dir/${rel##*/}
		if [ ! -x "$w" ]; then
			mkdir -p "$dir" || continue
			printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$F2_TOP/lib/.libs" \
				"$F2_TOP/${rel%/*}/.libs/${rel##*/}" >"$w.$$" &&
				chmod +x "$w.$$" && mv -f "$w.$$" "$w" || continue
		fi
		printf -v "$var" %s "$w"
	done
}
f2_plain_instruments F2SB F2FIELD F2REPLAY F2AGE F2EXTRACT F2WALK
f2_unwrap MKFS FSCK DUMP F2SB GC DEFRAG POPULATE SLOAD INJECT TUNE F2FIELD F2REPLAY F2AGE F2EXTRACT F2WALK

# Scratch space: per-test under bats, else a private directory.
f2_tmp() {
	if [ -n "${BATS_TEST_TMPDIR:-}" ]; then
		echo "$BATS_TEST_TMPDIR"
	else
		: "${F2_TMP:=$(mktemp -d)}"
		echo "$F2_TMP"
	fi
}

require_prog() {
	local p
	for p in "$@"; do
		if [ ! -x "$p" ]; then
			echo "required program not built or not installed: $p" >&2
			return 1
		fi
	done
}

# img_sum FILE...: one hash of the files' contents (holes and zero blocks
# alike), reading only their data: "did the image change" in the time
# a sha256sum of a sparse 256 MiB image takes to start
img_sum() {
	"$F2REPLAY" sum "$@"
}

# f2_codes FILE [CODE...]: the problem codes fsck printed in FILE (lines
# starting 0x and six hex digits), each once, upper case, sorted, but the
# CODEs given, in REPLY as "0x.. 0x.." (no process: the crash suites ask
# on every state)
f2_codes() {
	local file=$1 l c out=" " ignore=" ${*:2} " sorted=
	ignore=${ignore^^}
	while IFS= read -r l; do
		[[ $l =~ ^0[xX]([0-9A-Fa-f]{6}) ]] || continue
		c=0x${BASH_REMATCH[1]^^}
		[[ $ignore == *" ${c^^} "* || $out == *" $c "* ]] || out+="$c "
	done <"$file"
	# the smallest left, each round
	while [ "$out" != " " ]; do
		l=
		for c in $out; do
			[[ -z $l || $c < $l ]] && l=$c
		done
		sorted+="$l "
		out=${out/ $l / }
	done
	REPLY=${sorted% }
}

# build_stamp: a hash of the build under test (F2_BUILD's library and
# programs, tests/tools included), once a process, in F2_BUILD_STAMP: the
# key of what the suites share between their lanes (lane_shared)
build_stamp() {
	if [ -z "${F2_BUILD_STAMP:-}" ] || [ "${F2_BUILD_STAMP_OF:-}" != "$F2_BUILD" ]; then
		F2_BUILD_STAMP=$(find "$F2_BUILD/lib/.libs" "$F2_BUILD"/*/.libs "$F2_BUILD/tests/tools" \
			-maxdepth 1 -type f \( -name '*.so*' -o -perm -u+x \) -print0 2>/dev/null |
			LC_ALL=C sort -z | xargs -0 -r md5sum | md5sum | cut -c1-16)
		F2_BUILD_STAMP_OF=$F2_BUILD
		export F2_BUILD_STAMP F2_BUILD_STAMP_OF
	fi
	REPLY=$F2_BUILD_STAMP
}

# lane_shared NAME ITEM FUNC [ARGS...]: what FUNC DIR ARGS... puts in DIR,
# made once for every lane of a run (the QEMU suites run once per kernel,
# in a lane each, and much of what they build on the host does not depend
# on the kernel): the first caller builds it, under a lock, in
# tests/.cache/shared/NAME-KEY/ITEM/, the others wait for it and find it
# there.  KEY is the build's stamp and LANE_KEY (what else the result
# depends on: the suite's own scripts, say).  REPLY is the directory;
# status 1 when FUNC failed (nothing kept: the next caller tries again).
# Callers copy out of it, never write into it.  Directories of NAME with
# another key are removed once 30 minutes have passed since the last
# item went in.
lane_shared() {
	local name=$1 item=$2 fn=$3 key dir lockfd rc=0
	shift 3
	build_stamp
	key=$(printf '%s %s' "$REPLY" "${LANE_KEY:-}" | md5sum | cut -c1-16)
	dir=$F2_TOP/tests/.cache/shared/$name-$key
	mkdir -p "$dir" || return 1
	find "$F2_TOP/tests/.cache/shared" -mindepth 1 -maxdepth 1 -name "$name-*" \
		! -name "$name-$key" -mmin +30 -exec rm -rf {} + 2>/dev/null
	exec {lockfd}>"$dir/$item.lock"
	flock "$lockfd"
	if [ ! -d "$dir/$item" ]; then
		rm -rf "$dir/$item.tmp" && mkdir "$dir/$item.tmp" &&
			"$fn" "$dir/$item.tmp" "$@" && mv "$dir/$item.tmp" "$dir/$item" || rc=1
		[ "$rc" -eq 0 ] || rm -rf "$dir/$item.tmp"
	fi
	flock -u "$lockfd"
	exec {lockfd}>&-
	REPLY=$dir/$item
	return "$rc"
}

# Shells report death by signal N as 128+N; exit(-1) shows as 255, which is
# an (unidiomatic) error exit, not a crash.
is_crash() {
	[ "$1" -gt 128 ] && [ "$1" -le 192 ]
}

make_image() {
	local path=$1 size=$2
	rm -f "$path" && truncate -s "$size" "$path"
}

allocated_bytes() {
	echo $(( $(stat -c %b "$1") * $(stat -c %B "$1") ))
}

# run_mkfs PROG ARGS...: stdin is closed so nothing can wait for an answer.
# Output goes to $F2_MKFS_LOG (shown when it fails).
run_mkfs() {
	local prog=$1; shift
	F2_MKFS_LOG=$(f2_tmp)/mkfs.$$.$RANDOM.log
	if ! "$prog" "$@" </dev/null >"$F2_MKFS_LOG" 2>&1; then
		echo "FAILED: $prog $*" >&2
		cat "$F2_MKFS_LOG" >&2
		return 1
	fi
}

# The verdict on reference fsck output.  f2fs-tools 1.15 --dry-run on a
# clean image exits 0 and every [FSCK] line says [Ok..].  On damage it
# prints [Fail] or [ASSERT] lines and usually exits non-zero, but not
# always: with a zeroed primary superblock it falls back to the backup, says
# "Magic Mismatch" / "Can't find a valid F2FS superblock" and still exits 0
# with all [Ok..].  When it wants to ask a question (restore lost files)
# with no tty it asserts and exits 255.  So judge by status AND text.
f2_ref_fsck_verdict() {
	local out=$1 status=$2 l ok=
	local trouble='\[fail\]|\[assert\]|magic mismatch|can.t find a valid|invalid|error|wrong|mismatch|\[fix|not valid|corrupt'
	[ "$status" -eq 0 ] || return 1
	# every line but the benign "other corrupted bugs [Ok..]" and the
	# quoted kernel version strings must be free of trouble words, in any
	# case (read here, not by grep: the suites ask hundreds of times)
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in
		*'other corrupted bugs'*)
			[[ $l == '[FSCK] other corrupted bugs '*'[Ok..]'* ]] && ok=1
			continue ;;
		esac
		[[ $l =~ ^\ *(from\ |to\ )?\" ]] && continue
		[[ ${l,,} =~ $trouble ]] && return 1
	done <"$out"
	[ -n "$ok" ]
}

# ref_fsck_clean IMG: the reference fsck.f2fs --dry-run finds IMG clean.
# Runs on a sparse copy so the image under test is never touched.  A
# multi-device image (devs[0].path set) must be checked under the paths
# recorded in its superblock, so there the originals are checked in place
# and their modification times compared before and after, to prove it
# (a byte compare of two sparse 1 TiB devices would read 2 TiB of holes).
ref_fsck_clean() {
	local img=$1 tmp target out status=0 l i
	local -a devs=()
	tmp=${BATS_TEST_TMPDIR:-$(f2_tmp)}/fsck.$$.$RANDOM
	mkdir -p "$tmp"
	out=$tmp/fsck.out
	require_prog "$REF_FSCK" "$F2SB" || return 1
	while IFS= read -r l; do
		[[ $l =~ ^devs\[[0-7]\]\.path=(.+)$ ]] && devs+=("${BASH_REMATCH[1]}")
	done < <("$F2SB" "$img" 2>/dev/null)
	if [ ${#devs[@]} -gt 0 ]; then
		for i in "${!devs[@]}"; do
			stat -c %y "${devs[$i]}" >"$tmp/pre.$i" || return 1
		done
		target=${devs[0]}
	else
		target=$tmp/${img##*/}
		cp --sparse=always "$img" "$target" || return 1
	fi
	"$REF_FSCK" --dry-run "$target" </dev/null >"$out" 2>&1 || status=$?
	if ! f2_ref_fsck_verdict "$out" "$status"; then
		echo "reference fsck does not find $img clean (exit $status):" >&2
		cat "$out" >&2
		return 1
	fi
	for i in "${!devs[@]}"; do
		if [ "$(stat -c %y "${devs[$i]}")" != "$(cat "$tmp/pre.$i")" ]; then
			echo "reference fsck --dry-run modified ${devs[$i]}" >&2
			return 1
		fi
	done
	rm -rf "$tmp"
}

# sb_fields IMG [--cp]
sb_fields() {
	require_prog "$F2SB" || return 1
	"$F2SB" "$@"
}

# compare_field_files A B IGNORE_ERE: A and B hold name=value lines (A is
# ours, B the reference).  Names matching IGNORE_ERE are skipped.  Prints
# "name: ours=X ref=Y" for every difference and fails if there is one.
compare_field_files() {
	local a=$1 b=$2 ignore=$3
	awk -v ignore="$ignore" '
		function keep(n) { return ignore == "" || n !~ ignore }
		{
			i = index($0, "="); if (!i) next
			n = substr($0, 1, i - 1); v = substr($0, i + 1)
			if (!keep(n)) next
			if (FILENAME == ARGV[1]) { A[n] = v; order[++na] = n }
			else { B[n] = v; if (!(n in A)) extra[++nb] = n }
		}
		END {
			bad = 0
			for (k = 1; k <= na; k++) {
				n = order[k]
				if (!(n in B)) { printf "%s: ours=%s ref=(missing)\n", n, A[n]; bad++ }
				else if (A[n] != B[n]) { printf "%s: ours=%s ref=%s\n", n, A[n], B[n]; bad++ }
			}
			for (k = 1; k <= nb; k++) {
				printf "%s: ours=(missing) ref=%s\n", extra[k], B[extra[k]]; bad++
			}
			exit bad ? 1 : 0
		}' "$a" "$b"
}

# Superblock fields that are not geometry: identity and provenance (uuid,
# the tools' version, kernel version strings), the checksum (crc itself; its
# validity, crc_valid, IS compared), and everything from the checkpoint.
F2_SB_IGNORE='^(uuid|crc|version|init_version|major_ver|minor_ver)$|^cp\.'

# Device paths are recorded as given; compare them relative to the image's
# own directory so ours/main.img and ref/main.img compare equal.
f2_sb_normalized() {
	local img=$1 dir fields
	dir=$(cd "$(dirname "$img")" && pwd)
	fields=$("$F2SB" "$img") || return 1
	awk -v dir="$dir/" '
		/^devs\[[0-7]\]\.path=/ {
			i = index($0, "="); v = substr($0, i + 1)
			if (index(v, dir) == 1) v = "<imgdir>/" substr(v, length(dir) + 1)
			print substr($0, 1, i) v; next
		}
		{ print }' <<<"$fields"
}

# compare_geometry OURS REF: every geometry field of OURS equals REF's.
compare_geometry() {
	local ours=$1 ref=$2 tmp
	require_prog "$F2SB" || return 1
	tmp=$(f2_tmp)/geom.$$.$RANDOM
	f2_sb_normalized "$ours" >"$tmp.ours" || { echo "f2sb cannot read $ours" >&2; return 1; }
	f2_sb_normalized "$ref" >"$tmp.ref" || { echo "f2sb cannot read $ref" >&2; return 1; }
	if ! compare_field_files "$tmp.ours" "$tmp.ref" "$F2_SB_IGNORE" >"$tmp.diff"; then
		echo "geometry differs between $ours (ours) and $ref (reference):" >&2
		cat "$tmp.diff" >&2
		return 1
	fi
	rm -f "$tmp".*
}

# compare_cp OURS REF [FIELD...]: checkpoint fields (names without "cp.")
compare_cp() {
	local ours=$1 ref=$2 tmp ere f
	shift 2
	[ $# -gt 0 ] || set -- user_block_count rsvd_segment_count overprov_segment_count
	require_prog "$F2SB" || return 1
	tmp=$(f2_tmp)/cp.$$.$RANDOM
	"$F2SB" --cp "$ours" | grep '^cp\.' >"$tmp.ours" || { echo "f2sb --cp cannot read $ours" >&2; return 1; }
	"$F2SB" --cp "$ref" | grep '^cp\.' >"$tmp.ref" || { echo "f2sb --cp cannot read $ref" >&2; return 1; }
	ere=
	for f in "$@"; do ere="$ere|$f"; done
	# keep only the requested fields: ignore every name NOT in the list
	awk -v want="^cp\\.(${ere#|})$" -F= '$1 ~ want' "$tmp.ours" >"$tmp.o2"
	awk -v want="^cp\\.(${ere#|})$" -F= '$1 ~ want' "$tmp.ref" >"$tmp.r2"
	if ! compare_field_files "$tmp.o2" "$tmp.r2" "" >"$tmp.diff"; then
		echo "checkpoint differs between $ours (ours) and $ref (reference):" >&2
		cat "$tmp.diff" >&2
		return 1
	fi
	rm -f "$tmp".*
}
