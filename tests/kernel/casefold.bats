#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/kernel/casefold.bats - casefolded directories judged by the kernel
# (F2_KERNEL: 6.1 or 6.12; tests/run.sh runs this suite with each).  One
# boot: on a volume made by our mkfs -C utf8 (and one -C utf8:strict) the
# guest makes a +F directory and creates names covering ASCII case pairs,
# precomposed and combining forms, sharp s, final sigma, dotless i,
# Cyrillic, CJK, emoji, default-ignorable code points, a code point newer
# than Unicode 12.1 and bytes that are not UTF-8; after a remount it stats
# other spellings of each.  Then on the host: our fsck and the reference
# fsck find both volumes clean.

load ../lib/common
load ../lib/kernel

# cf_names: the names the guest creates, one a line (raw bytes)
cf_names() {
	printf '%b\n' 'Hello.txt' 'caf\xc3\xa9' 'Stra\xc3\x9fe' '\xcf\x83\xce\xbf\xcf\x86\xce\xbf\xcf\x82' \
		'k\xc4\xb1r' '\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82' '\xe6\xbc\xa2\xe5\xad\x97' \
		'\xf0\x9f\x98\x80smile' 'zero\xe2\x80\x8bwidth' 'soft\xc2\xadhyphen' 'bad\xff\xfename' \
		'melt\xf0\x9f\xab\xa0'
}

# cf_probes: other spellings (paths under the mount point), one a line
cf_probes() {
	local p
	for p in 'hello.txt' 'HELLO.TXT' 'hElLo.TxT' 'CAF\xc3\x89' 'cafe\xcc\x81' 'CAFE\xcc\x81' \
		'STRASSE' 'strasse' 'STRA\xe1\xba\x9eE' '\xce\xa3\xce\x9f\xce\xa6\xce\x9f\xce\xa3' \
		'\xcf\x83\xce\xbf\xcf\x86\xce\xbf\xcf\x83' 'KIR' 'kir' 'K\xc4\xb0R' \
		'\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82' '\xd0\x9f\xd0\xa0\xd0\x98\xd0\x92\xd0\x95\xd0\xa2' \
		'\xe6\xbc\xa2\xe5\xad\x97' '\xf0\x9f\x98\x80SMILE' 'zerowidth' 'ZERO\xe2\x80\x8bWIDTH' \
		'softhyphen' 'SOFT\xc2\xadHYPHEN' 'bad\xff\xfename' 'BAD\xff\xfeNAME' \
		'melt\xf0\x9f\xab\xa0' 'MELT\xf0\x9f\xab\xa0' 'nosuchname'; do
		printf 'cf/%b\n' "$p"
	done
}

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	kernel_setup || return 0 # each test then skips or fails by itself
	local dir=$BATS_FILE_TMPDIR st=0
	require_prog "$MKFS" || return 1
	cf_names >"$dir/create"
	cf_probes >"$dir/probe"
	truncate -s 256M "$dir/utf8.img" "$dir/strict.img"
	"$MKFS" -q -f -O extra_attr -C utf8 "$dir/utf8.img" >"$dir/mkfs.log" 2>&1 || return 1
	"$MKFS" -q -f -O extra_attr -C utf8:strict "$dir/strict.img" >>"$dir/mkfs.log" 2>&1 || return 1
	printf '%s\n' "utf8 vda create" "strict vdb create" >"$dir/disks"
	kernel_add_binary /usr/bin/chattr || return 1
	KERNEL_FILES="$dir/disks:/guest/disks $dir/create:/guest/create $dir/probe:/guest/probe" \
		KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=600 \
		kernel_run "$BATS_TEST_DIRNAME/guest/casefold-check.sh" "$dir/utf8.img" "$dir/strict.img" ||
		st=$?
	echo $st >"$dir/status"
	cp "$KERNEL_OUT" "$dir/report"
	kernel_dmesg >"$dir/dmesg"
}

setup() {
	kernel_require
	[ "$(cat "$BATS_FILE_TMPDIR/status")" = 0 ] || {
		echo "guest failed ($(cat "$BATS_FILE_TMPDIR/status"))"; cat "$BATS_FILE_TMPDIR/report"; return 1; }
}

hexname() { printf %s "$1" | od -An -tx1 | tr -d ' \n'; }

@test "linux ($F2_KERNEL) creates every name in a casefolded directory of our volume" {
	local r=$BATS_FILE_TMPDIR/report n h
	cat "$r"
	grep -qx "utf8 chattr 0" "$r"
	grep -qx "utf8 done" "$r"
	while IFS= read -r n; do
		h=$(hexname "$n")
		grep -qx "utf8 create $h 0" "$r" || { echo "not created: $n ($h)"; return 1; }
		grep -q "^utf8 entry $h [0-9]" "$r" || { echo "not listed: $n ($h)"; return 1; }
	done <"$BATS_FILE_TMPDIR/create"
	# case-insensitive lookups really happened
	grep -q "^utf8 probe $(hexname cf/HELLO.TXT) [0-9]" "$r"
	grep -q "^utf8 probe $(hexname cf/STRASSE) [0-9]" "$r"
	grep -qx "utf8 probe $(hexname cf/nosuchname) none" "$r"
}

@test "linux ($F2_KERNEL) refuses names that are not valid UTF-8 under strict" {
	local r=$BATS_FILE_TMPDIR/report
	grep -qx "strict done" "$r"
	grep -qx "strict create $(hexname "$(printf 'bad\xff\xfename')") 1" "$r"
	grep -qx "strict create $(hexname Hello.txt) 0" "$r"
}

@test "our fsck finds the casefolded volumes linux ($F2_KERNEL) wrote clean" {
	local img
	for img in utf8 strict; do
		run "$FSCK" -f -n "$BATS_FILE_TMPDIR/$img.img"
		echo "$img: $output"
		[ "$status" -eq 0 ]
	done
}

@test "the reference fsck finds them clean" {
	ref_fsck_clean "$BATS_FILE_TMPDIR/utf8.img"
	ref_fsck_clean "$BATS_FILE_TMPDIR/strict.img"
}
