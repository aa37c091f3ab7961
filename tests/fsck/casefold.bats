#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# fsck.f2fs in casefolded directories, where the kernel and the reference
# fsck (f2fs-tools 1.15) part: names whose fold is 255 bytes or longer or
# empty are hashed as their bytes by the kernel (refused when strict),
# folded by f2fs-tools.  Images: our mkfs -C utf8[:strict] and f2field
# casefold (tests/fsck/lib.sh cf_base); the numbered cases are in
# cases.bats (063-068).
load ../lib/common

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
export F2FIELD

# cf_img IMG ENC [NAME...]: lib.sh's image, NAMEs (printf formats) added to /cf
cf_img() {
	bash -c '. "$F2_TOP/tests/fsck/lib.sh"; cf_base "$@"' cf_img "$@"
}

cf_ino() {
	bash -c '. "$F2_TOP/tests/fsck/lib.sh"; ino_of "$1" /cf' cf_ino "$1"
}

# fsck_codes IMG: the problem codes -f -n reports, and its exit status
fsck_codes() {
	local rc=0
	"$FSCK" -f -n "$1" </dev/null >"$BATS_TEST_TMPDIR/out" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/out" >&2
	f2_codes "$BATS_TEST_TMPDIR/out"
	echo "${REPLY:+$REPLY }exit $rc"
}

LONG=$(printf 'A%.0s' $(seq 1 255))	# folds to 255 bytes: no room for the NUL

@test "casefold: a name folding to 255 bytes, and one folding to nothing, carry the hash of their bytes" {
	require_prog "$FSCK" "$F2FIELD" "$MKFS"
	local img=$BATS_TEST_TMPDIR/img dir raw zw
	zw=$(printf '\342\200\213\342\200\214')
	cf_img "$img" utf8 "$LONG" "$zw"
	dir=$(cf_ino "$img")
	raw=$("$F2FIELD" hash "$LONG")
	[ "$("$F2FIELD" hashcf "$LONG")" = "$raw" ]
	[ "$("$F2FIELD" "$img" get "dent.$dir.$LONG.hash" | cut -d' ' -f3)" = "$raw" ]
	[ "$("$F2FIELD" "$img" get "dent.$dir.$zw.hash" | cut -d' ' -f3)" = "$("$F2FIELD" hash "$zw")" ]
	[ "$(fsck_codes "$img")" = "exit 0" ]
	# what f2fs-tools would store (the hash of the fold) is wrong
	"$F2FIELD" "$img" set "dent.$dir.$LONG.hash" "$("$F2FIELD" hash "$(printf 'a%.0s' $(seq 1 255))")"
	[ "$(fsck_codes "$img")" = "0x060004 exit 4" ]
	"$FSCK" -f -y "$img" </dev/null || [ $? -eq 1 ]
	[ "$("$F2FIELD" "$img" get "dent.$dir.$LONG.hash" | cut -d' ' -f3)" = "$raw" ]
	[ "$(fsck_codes "$img")" = "exit 0" ]
}

@test "casefold: strict refuses a fold of 255 bytes and an empty fold, and keeps a stray continuation byte" {
	require_prog "$FSCK" "$F2FIELD" "$MKFS"
	local img=$BATS_TEST_TMPDIR/img
	cf_img "$img" utf8:strict "$LONG"
	[ "$("$F2FIELD" hashcf -s "$LONG")" = refused ]
	[ "$(fsck_codes "$img")" = "0x06000E exit 4" ]
	grep -q 'folds to more than 254 bytes' "$BATS_TEST_TMPDIR/out"
	cf_img "$img" utf8:strict '\342\200\213'
	[ "$(fsck_codes "$img")" = "0x06000E exit 4" ]
	grep -q 'folds to nothing' "$BATS_TEST_TMPDIR/out"
	# "a\x80stray" (in every image) is what the kernel accepts even when strict
	cf_img "$img" utf8:strict
	[ "$(fsck_codes "$img")" = "exit 0" ]
}

@test "casefold: duplicates of every kind are found; -y keeps the first and every inode" {
	require_prog "$FSCK" "$F2FIELD" "$MKFS"
	local img=$BATS_TEST_TMPDIR/img rc
	# precomposed and decomposed, sharp s and ss, final and medial sigma
	cf_img "$img" utf8 'Caf\303\251' 'cafe\314\201' 'MASSE' 'ma\303\237e' \
		'\317\203\317\203' '\316\243\317\202'
	[ "$(fsck_codes "$img")" = "0x06000D exit 4" ]
	[ "$(grep -c '^0x06000D' "$BATS_TEST_TMPDIR/out")" -eq 3 ]
	rc=0; "$FSCK" -f -y "$img" </dev/null >"$BATS_TEST_TMPDIR/y" 2>&1 || rc=$?
	cat "$BATS_TEST_TMPDIR/y"
	[ "$rc" -eq 1 ]
	# the three removed names' inodes are in lost+found, not lost
	[ "$(grep -c '^0x030006' "$BATS_TEST_TMPDIR/y")" -eq 3 ]
	[ "$(fsck_codes "$img")" = "exit 0" ]
	ref_fsck_clean "$img"
}

@test "casefold: names that are not UTF-8 hash as their bytes when not strict, and only equal bytes are the same name" {
	require_prog "$FSCK" "$F2FIELD" "$MKFS"
	local img=$BATS_TEST_TMPDIR/img
	cf_img "$img" utf8 'caf\351' 'CAF\351' '\377\376'
	[ "$(fsck_codes "$img")" = "exit 0" ]
	ref_fsck_clean "$img"
}
