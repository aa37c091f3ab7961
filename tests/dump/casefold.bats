#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# dump.f2fs in casefolded directories: --stat, --ls and --extract resolve
# a path component by its casefold as Linux does (the spellings below are
# what Linux 6.1 and 6.12 resolve in QEMU, both alike), names outside
# casefolded directories stay exact, a name that is not valid UTF-8
# finds only itself (nothing on a strict volume), an entry whose stored
# hash is wrong is still found (the kernel's fallback scan), and --stat
# shows the casefold flag.  Images: our mkfs -C utf8[:strict] --root
# tests/engine/cftree.sh's tree --casefold /cf.
load ../lib/common

F2FIELD="$F2_BUILD/tests/tools/f2field"

setup_file() {
	local t=$BATS_FILE_TMPDIR
	"$F2_TOP/tests/engine/cftree.sh" "$t/tree"
	"$F2_TOP/tests/engine/cftree.sh" "$t/stree" strict
	make_image "$t/cf.img" 256M
	make_image "$t/strict.img" 256M
	run_mkfs "$MKFS" -f -q -O extra_attr -C utf8 -T 1700000000 --root "$t/tree" \
		--casefold /cf "$t/cf.img"
	run_mkfs "$MKFS" -f -q -O extra_attr -C utf8:strict -T 1700000000 --root "$t/stree" \
		--casefold /cf "$t/strict.img"
}

# ino IMG PATH: the inode number --stat PATH resolves to (fails if none)
ino() {
	"$DUMP" --stat "$2" "$1" | awk '$1 == "ino" { sub(/\]$/, "", $NF); print $NF; f = 1 }
		END { exit !f }'
}

# finds IMG LOOKUP TARGET: --stat /cf/LOOKUP is the entry /cf/TARGET
finds() {
	local want got
	want=$(ino "$1" "/cf/$3") || { echo "no /cf/$3" >&2; return 1; }
	got=$(ino "$1" "/cf/$2") || { echo "/cf/$2 finds nothing (want $3)" >&2; return 1; }
	[ "$got" = "$want" ] || { echo "/cf/$2 finds ino $got, not $3 ($want)" >&2; return 1; }
}

# misses IMG LOOKUP: --stat /cf/LOOKUP finds nothing, and says so
misses() {
	run "$DUMP" --stat "/cf/$2" "$1"
	[ "$status" -ne 0 ] || { echo "/cf/$2 found something: $output" >&2; return 1; }
	[[ "$output" == *"has no entry"* ]] || { echo "$output" >&2; return 1; }
}

# field IMG PATH NAME: the value of dump --stat's row NAME (decimal)
field() {
	"$DUMP" --stat "$2" "$1" | awk -v f="$3" '$1 == f { sub(/\]$/, "", $NF); print $NF }'
}

@test "dump --stat: other spellings find the entry as under Linux" {
	img=$BATS_FILE_TMPDIR/cf.img
	finds "$img" hello.txt Hello.txt
	finds "$img" HELLO.TXT Hello.txt
	finds "$img" hElLo.TxT Hello.txt
	finds "$img" $'CAF\xc3\x89' $'caf\xc3\xa9'		# CAFÉ
	finds "$img" $'cafe\xcc\x81' $'caf\xc3\xa9'		# e + U+0301
	finds "$img" $'CAFE\xcc\x81' $'caf\xc3\xa9'
	finds "$img" STRASSE $'Stra\xc3\x9fe'
	finds "$img" strasse $'Stra\xc3\x9fe'
	finds "$img" $'STRA\xe1\xba\x9eE' $'Stra\xc3\x9fe'	# U+1E9E capital sharp s
	finds "$img" $'\xce\xa3\xce\x9f\xce\xa6\xce\x9f\xce\xa3' \
		$'\xcf\x83\xce\xbf\xcf\x86\xce\xbf\xcf\x82'	# ΣΟΦΟΣ -> σοφος
	finds "$img" $'\xcf\x83\xce\xbf\xcf\x86\xce\xbf\xcf\x83' \
		$'\xcf\x83\xce\xbf\xcf\x86\xce\xbf\xcf\x82'	# σοφοσ
	finds "$img" $'\xd0\x9f\xd0\xa0\xd0\x98\xd0\x92\xd0\x95\xd0\xa2' \
		$'\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82'	# ПРИВЕТ
	finds "$img" $'\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82' \
		$'\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82'	# привет
	finds "$img" $'\xf0\x9f\x98\x80SMILE' $'\xf0\x9f\x98\x80smile'
	finds "$img" zerowidth $'zero\xe2\x80\x8bwidth'
	finds "$img" $'ZERO\xe2\x80\x8bWIDTH' $'zero\xe2\x80\x8bwidth'
	finds "$img" softhyphen $'soft\xc2\xadhyphen'
	finds "$img" $'SOFT\xc2\xadHYPHEN' $'soft\xc2\xadhyphen'
	finds "$img" $'MELT\xf0\x9f\xab\xa0' $'melt\xf0\x9f\xab\xa0'	# U+1FAE0 passes through
	finds "$img" FILE-0599 file-0599
	finds "$img" $'bad\xff\xfename' $'bad\xff\xfename'
	finds "$img" LINK link
}

@test "dump --stat: spellings Linux does not resolve find nothing" {
	img=$BATS_FILE_TMPDIR/cf.img
	ino "$img" $'/cf/k\xc4\xb1r' >/dev/null		# kır itself
	misses "$img" KIR
	misses "$img" kir
	misses "$img" $'K\xc4\xb0R'			# KİR: U+0130 folds to i + U+0307
	misses "$img" $'BAD\xff\xfeNAME'		# not UTF-8: its own bytes only
	misses "$img" nosuchname
	misses "$img" $'melt\xf0\x9f\xab\xa1'		# U+1FAE1, another new code point
}

@test "dump: names outside casefolded directories stay exact" {
	img=$BATS_FILE_TMPDIR/cf.img
	a=$(ino "$img" /plain/A)
	b=$(ino "$img" /plain/a)
	[ "$a" != "$b" ]
	run "$DUMP" --stat /PLAIN "$img"
	[ "$status" -ne 0 ]
	run "$DUMP" --stat /CF/Hello.txt "$img"		# the root is not casefolded
	[ "$status" -ne 0 ]
}

@test "dump on a strict volume: folds resolve; a name that is not UTF-8 finds nothing" {
	img=$BATS_FILE_TMPDIR/strict.img
	finds "$img" HELLO.TXT Hello.txt
	finds "$img" $'ZERO\xe2\x80\x8bWIDTH' $'zero\xe2\x80\x8bwidth'
	finds "$img" STRASSE $'Stra\xc3\x9fe'
	misses "$img" KIR
	run "$DUMP" --stat $'/cf/bad\xff\xfename' "$img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"strict encoding refuses the name"* ]]
}

@test "dump --ls and --extract resolve through casefolded directories" {
	img=$BATS_FILE_TMPDIR/cf.img
	run "$DUMP" --ls /cf/SUB/INNER "$img"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *" Deep.TXT"* ]]
	run "$DUMP" --ls /cf/sub/inner/deep.txt "$img"
	[ "$status" -eq 0 ]
	out=$BATS_TEST_TMPDIR/out
	"$DUMP" --extract /cf/STRASSE --output "$out" "$img"
	[ "$(cat "$out/STRASSE")" = $'Stra\xc3\x9fe' ]
	"$DUMP" --extract /cf/Sub --output "$out" "$img"
	[ "$(cat "$out/Sub/inner/Deep.TXT")" = inner ]
	"$DUMP" --extract /cf --output "$out/all" "$img"
	diff -r "$BATS_FILE_TMPDIR/tree/cf" "$out/all/cf"
}

@test "dump --stat shows the casefold flag; the directory is past hash level 0" {
	img=$BATS_FILE_TMPDIR/cf.img
	[ "$(field "$img" /cf casefolded)" = 1 ]
	[ "$(field "$img" /cf i_flags)" = 1073741824 ]
	[ "$(field "$img" /cf/SUB casefolded)" = 1 ]
	[ "$(field "$img" /cf/SUB/INNER casefolded)" = 1 ]
	[ "$(field "$img" /cf/HELLO.TXT casefolded)" = 0 ]
	[ "$(field "$img" /plain casefolded)" = 0 ]
	[ "$(field "$img" / casefolded)" = 0 ]
	[ "$("$DUMP" --json --stat /cf "$img" | jq .inode.casefolded)" = 1 ]
	[ "$("$DUMP" --json --stat /plain "$img" | jq .inode.casefolded)" = 0 ]
	[ "$(field "$img" /cf i_size)" -gt 8192 ]
	[ "$("$DUMP" --stat /cf "$img" | grep -ac '^dentry ino ')" -gt 600 ]
}

@test "dump --stat: an entry whose stored hash is wrong is still found (the fallback scan)" {
	img=$BATS_TEST_TMPDIR/h.img
	cp --sparse=always "$BATS_FILE_TMPDIR/cf.img" "$img"
	cf=$(ino "$img" /cf)
	want=$(ino "$img" /cf/file-0321)
	good=$("$F2FIELD" hashcf file-0321)
	[ "$("$F2FIELD" "$img" get "dent.$cf.file-0321.hash_code" | awk '{ print $3 }')" = "$good" ]
	"$F2FIELD" "$img" set "dent.$cf.file-0321.hash_code" $((good ^ 0x1234567))
	[ "$(ino "$img" /cf/FILE-0321)" = "$want" ]
	[ "$(ino "$img" /cf/file-0321)" = "$want" ]
}
