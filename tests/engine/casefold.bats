#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Casefolded directories written by the engine: through its API
# (tests/unit/test_engine_cf) and by populate (mkfs.f2fs -C utf8 --root
# --casefold).  Every stored hash is f2_dentry_hash_casefold's (f2field
# hashcf), +F is where it belongs, names the kernel could not hold are
# refused with the names in the message, and both our fsck and the
# reference fsck.f2fs --dry-run -f find the volumes clean.
load ../lib/common

TE="$F2_BUILD/tests/unit/test_engine_cf"
POP=$POPULATE
F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
CFTREE="$F2_TOP/tests/engine/cftree.sh"

setup_file() {
	"$CFTREE" "$BATS_FILE_TMPDIR/tree"
	"$CFTREE" "$BATS_FILE_TMPDIR/stree" strict
}

# ref_fsck_f IMG: the reference fsck.f2fs --dry-run -f finds a copy clean
# (-f makes it print "Info: Force to fix corruption": not a finding)
ref_fsck_f() {
	local t=$BATS_TEST_TMPDIR/ref.$RANDOM.img status=0
	cp --sparse=always "$1" "$t"
	"$REF_FSCK" --dry-run -f "$t" </dev/null >"$t.out" 2>&1 || status=$?
	grep -v '^Info: Force to fix corruption$' "$t.out" >"$t.verdict"
	if ! f2_ref_fsck_verdict "$t.verdict" "$status"; then
		echo "reference fsck: $1 not clean (exit $status)" >&2
		cat "$t.out" >&2
		return 1
	fi
	rm -f "$t"
}

# our_fsck IMG: our fsck.f2fs -f -n exits 0
our_fsck() {
	run "$FSCK" -f -n "$1"
	echo "$output"
	[ "$status" -eq 0 ]
}

# hashes_exact IMG PATH [strict]: every entry of directory PATH stores the
# hash f2field hashcf gives its name; prints the number of entries
hashes_exact() {
	local img=$1 path=$2 strict=${3:-} line hash i bad=0
	local -a names=() stored=() want=()
	"$DUMP" --stat "$path" "$img" >"$BATS_TEST_TMPDIR/stat.out"
	while IFS= read -r line; do
		names+=("${line#* slot * name }")
		hash=${line#* hash }
		stored+=("${hash%% *}")
	done < <(grep -a '^dentry ino ' "$BATS_TEST_TMPDIR/stat.out")
	mapfile -t want < <(printf '%s\0' "${names[@]}" | "$F2FIELD" hashcf - $strict)
	[ "${#want[@]}" -eq "${#names[@]}" ] || return 1
	for i in "${!names[@]}"; do
		if [ "${want[$i]}" = refused ] ||
		   [ "$(printf '0x%08x' "${want[$i]}")" != "${stored[$i]}" ]; then
			echo "entry '${names[$i]}': stored ${stored[$i]}, casefold hash ${want[$i]}" >&2
			bad=$((bad + 1))
		fi
	done
	[ "$bad" -eq 0 ] && echo "${#names[@]}"
}

# field IMG PATH NAME: the value of dump --stat's row NAME (decimal)
field() {
	"$DUMP" --stat "$2" "$1" | awk -v f="$3" '$1 == f { sub(/\]$/, "", $NF); print $NF }'
}

@test "engine API: add, find by fold, refuse alike names, remove, inherit +F, scan past a foreign hash; fsck clean" {
	for mode in utf8 strict plain; do
		img=$BATS_TEST_TMPDIR/$mode.img
		make_image "$img" 256M
		case $mode in
		utf8) run_mkfs "$MKFS" -f -O extra_attr -C utf8 "$img" ;;
		strict) run_mkfs "$MKFS" -f -O extra_attr -C utf8:strict "$img" ;;
		plain) run_mkfs "$MKFS" -f -O extra_attr "$img" ;;
		esac
		run "$TE" "$mode" "$img"
		echo "$output"
		[ "$status" -eq 0 ]
		our_fsck "$img"
		ref_fsck_f "$img"
	done
	n=$(hashes_exact "$BATS_TEST_TMPDIR/utf8.img" /cf)
	[ "$n" -gt 700 ]
	hashes_exact "$BATS_TEST_TMPDIR/strict.img" /cf strict
}

@test "populate --casefold /cf: +F on cf and its subdirectories only, past 2 blocks, every hash the fold's, fsck clean" {
	img=$BATS_TEST_TMPDIR/p.img
	make_image "$img" 256M
	run_mkfs "$MKFS" -f -O extra_attr,inode_checksum -C utf8 -T 1700000000 \
		--root "$BATS_FILE_TMPDIR/tree" --casefold /cf "$img"
	[ "$(field "$img" /cf casefolded)" = 1 ]
	[ "$(field "$img" /cf/sub casefolded)" = 1 ]
	[ "$(field "$img" /cf/sub/inner casefolded)" = 1 ]
	[ "$(field "$img" /cf/Hello.txt casefolded)" = 0 ]
	[ "$(field "$img" /cf/link casefolded)" = 0 ]
	[ "$(field "$img" / casefolded)" = 0 ]
	[ "$(field "$img" /plain casefolded)" = 0 ]
	# i_flags itself: F2FS_CASEFOLD_FL
	[ "$(field "$img" /cf i_flags)" = 1073741824 ]
	# more than hash level 0's two blocks
	[ "$(field "$img" /cf i_size)" -gt 8192 ]
	[ "$(field "$img" /cf i_current_depth)" -ge 2 ]
	n=$(hashes_exact "$img" /cf)
	[ "$n" -eq $((650 + 12 + 2 + 2)) ]	# files, names, link + sub, . + ..
	hashes_exact "$img" /cf/sub
	# outside: plain hashes, both A and a
	"$DUMP" --stat /plain/A "$img" >/dev/null
	"$DUMP" --stat /plain/a "$img" >/dev/null
	our_fsck "$img"
	ref_fsck_f "$img"
}

@test "populate --casefold on a strict volume: hashes of the strict rule, fsck clean; a non-UTF-8 name refused naming the file" {
	img=$BATS_TEST_TMPDIR/s.img
	make_image "$img" 256M
	run_mkfs "$MKFS" -f -O extra_attr -C utf8:strict --root "$BATS_FILE_TMPDIR/stree" \
		--casefold cf/ "$img"
	[ "$(field "$img" /cf casefolded)" = 1 ]
	n=$(hashes_exact "$img" /cf strict)
	[ "$n" -eq $((650 + 11 + 2 + 2)) ]
	our_fsck "$img"
	ref_fsck_f "$img"
	# the non-strict tree holds bad\xff\xfename
	run "$MKFS" -f -q -O extra_attr -C utf8:strict --root "$BATS_FILE_TMPDIR/tree" \
		--casefold /cf "$img"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *$'cf/bad\xff\xfename'*"not valid UTF-8"* ]]
	# outside a casefolded directory the name is fine on a strict volume
	run_mkfs "$MKFS" -f -q -O extra_attr -C utf8:strict --root "$BATS_FILE_TMPDIR/tree" "$img"
	ref_fsck_f "$img"
}

@test "populate: two names folding alike in a casefolded directory are refused, naming both" {
	t=$BATS_TEST_TMPDIR/t
	img=$BATS_TEST_TMPDIR/c.img
	make_image "$img" 128M
	mkdir -p "$t/cf/d" "$t/ok"
	touch "$t/cf/README" "$t/cf/readme" "$t/ok/README" "$t/ok/readme"
	run "$MKFS" -f -q -O extra_attr -C utf8 --root "$t" --casefold /cf "$img"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"'readme' folds like 'README'"* ]]
	# ß against SS, é precomposed against e + U+0301, in a subdirectory (inherited)
	rm "$t/cf/readme"
	touch "$t/cf/d/"$'Stra\xc3\x9fe' "$t/cf/d/STRASSE"
	run "$MKFS" -f -q -O extra_attr -C utf8 --root "$t" --casefold /cf "$img"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ "$output" == *"'"$'Stra\xc3\x9fe'"' folds like 'STRASSE'"* ]]
	rm "$t/cf/d/STRASSE"
	touch "$t/cf/d/"$'caf\xc3\xa9' "$t/cf/d/"$'cafe\xcc\x81'
	run "$MKFS" -f -q -O extra_attr -C utf8 --root "$t" --casefold /cf "$img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"folds like"* ]]
	# the same tree without --casefold holds them all
	run_mkfs "$MKFS" -f -q -O extra_attr -C utf8 --root "$t" "$img"
	ref_fsck_f "$img"
}

@test "populate: --casefold refused without the casefold feature, for a path that is not a directory of the tree, without --root" {
	t=$BATS_TEST_TMPDIR/t
	img=$BATS_TEST_TMPDIR/c.img
	make_image "$img" 128M
	mkdir -p "$t/d/e"
	touch "$t/file"
	ln -s d "$t/link"
	run "$MKFS" -f -q -O extra_attr --root "$t" --casefold /d "$img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--casefold needs the casefold feature (-C utf8)"* ]]
	for p in /nope /file /link /link/e d/nope; do
		run "$MKFS" -f -q -O extra_attr -C utf8 --root "$t" --casefold "$p" "$img"
		echo "$output"
		[ "$status" -ne 0 ]
		[[ "$output" == *"--casefold '$p': "*"is not a directory of the tree"* ]]
	done
	for p in ../d d/.. ./d ''; do
		run "$MKFS" -f -q -O extra_attr -C utf8 --root "$t" --casefold "$p" "$img"
		[ "$status" -ne 0 ]
		[[ "$output" == *"not a path in the volume"* ]]
	done
	run "$MKFS" -f -q -O extra_attr -C utf8 --casefold /d "$img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--casefold needs --root"* ]]
	# --populate: the volume's features decide; the volume is untouched
	run_mkfs "$MKFS" -f -q -O extra_attr "$img"
	cp --sparse=always "$img" "$img.before"
	run "$MKFS" --populate --root "$t" --casefold /d "$img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--casefold needs a volume with the casefold feature"* ]]
	run "$POP" --root "$t" --casefold /d "$img"
	[ "$status" -ne 0 ]
	cmp "$img" "$img.before"
}

@test "populate: --casefold / (root, lost+found kept) and nested paths, mkfs --populate and f2fs-populate" {
	t=$BATS_TEST_TMPDIR/t
	img=$BATS_TEST_TMPDIR/r.img
	mkdir -p "$t/Dir/Sub" "$t/other/x"
	touch "$t/Dir/Sub/File" "$t/other/x/y"
	make_image "$img" 128M
	run_mkfs "$MKFS" -f -q -O extra_attr,lost_found -C utf8 "$img"
	run_mkfs "$MKFS" --populate --root "$t" --casefold / "$img"
	[ "$(field "$img" / casefolded)" = 1 ]
	[ "$(field "$img" /LOST+FOUND casefolded)" = 0 ]
	[ "$(field "$img" /DIR/sub casefolded)" = 1 ]
	[ "$(field "$img" /OTHER/X casefolded)" = 1 ]
	"$DUMP" --stat /dir/SUB/file "$img" >/dev/null
	hashes_exact "$img" /
	our_fsck "$img"
	ref_fsck_f "$img"
	# a second populate cannot add what folds like an entry of /
	mkdir -p "$BATS_TEST_TMPDIR/u/DIR"
	run "$MKFS" --populate --root "$BATS_TEST_TMPDIR/u" "$img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"'DIR' folds like 'Dir'"* ]]
	# f2fs-populate, a path below the root only
	make_image "$img" 128M
	run_mkfs "$MKFS" -f -q -O extra_attr -C utf8 "$img"
	"$POP" --root "$t" --casefold /other/x "$img"
	[ "$(field "$img" /other casefolded)" = 0 ]
	[ "$(field "$img" /other/x casefolded)" = 1 ]
	"$DUMP" --stat /other/x/Y "$img" >/dev/null
	ref_fsck_f "$img"
}

@test "populate --casefold: the same input gives the same image" {
	for n in 1 2; do
		make_image "$BATS_TEST_TMPDIR/$n.img" 256M
		run_mkfs "$MKFS" -f -q -O extra_attr -C utf8 -T 1700000000 \
			-U 6e1c2e5a-3d2f-4a8e-9d53-0b9c1f0d7a11 \
			--root "$BATS_FILE_TMPDIR/tree" --casefold /cf "$BATS_TEST_TMPDIR/$n.img"
	done
	cmp "$BATS_TEST_TMPDIR/1.img" "$BATS_TEST_TMPDIR/2.img"
}
