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
# fsck find both volumes clean, and dump.f2fs --stat resolves exactly the
# spellings the kernel resolved.  In the same boot the kernel looks up a
# tree our mkfs populated with a casefolded directory, and the same tree
# after our fsck repaired a planted wrong hash.

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

# cf_tree DIR: the host tree populated with /cf casefolded: every name of
# cf_names (each file holding its name) and a subdirectory
cf_tree() {
	local t=$1 n
	mkdir -p "$t/cf/Sub" || return 1
	while IFS= read -r n; do
		printf '%s\n' "$n" >"$t/cf/$n" || return 1
	done < <(cf_names)
	echo inner >"$t/cf/Sub/Inner.TXT"
}

# cf_plant_wrong_hash IMG: damage the stored hash of cf/Hello.txt, check
# our fsck -n finds it (exit 4), repair it with -y (exit 1), check clean
cf_plant_wrong_hash() {
	local img=$1 f2field=$F2_BUILD/tests/tools/f2field cf off size val st
	cf=$("$DUMP" --stat /cf "$img" | awk '/^ino /{ print $NF; exit }' | tr -d ']')
	[ -n "$cf" ] || { echo "no /cf"; return 1; }
	read -r off size val < <("$f2field" "$img" get "dent.$cf.Hello.txt.hash") || return 1
	"$f2field" "$img" setoff "$off" "$size" $((val ^ 0x5a5a5a5a)) || return 1
	st=0; "$FSCK" -f -n "$img" || st=$?
	[ "$st" = 4 ] || { echo "fsck -n on the wrong hash: exit $st"; return 1; }
	st=0; "$FSCK" -f -y "$img" || st=$?
	[ "$st" = 1 ] || { echo "fsck -y on the wrong hash: exit $st"; return 1; }
	"$FSCK" -f -n "$img" || { echo "not clean after the repair"; return 1; }
	read -r off size val < <("$f2field" "$img" get "dent.$cf.Hello.txt.hash")
	[ "$val" = "$("$f2field" hashcf Hello.txt)" ] || { echo "repaired hash $val is not the fold's"; return 1; }
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
	# pop: a tree populated by our mkfs with /cf casefolded; wrong: the
	# same with the stored hash of cf/Hello.txt damaged, then repaired by
	# our fsck -y (the guest must find it by other spellings)
	cf_tree "$dir/tree" || return 1
	truncate -s 256M "$dir/pop.img"
	"$MKFS" -q -f -O extra_attr -C utf8 --root "$dir/tree" --casefold /cf "$dir/pop.img" \
		>>"$dir/mkfs.log" 2>&1 || return 1
	cp --sparse=always "$dir/pop.img" "$dir/wrong.img"
	cf_plant_wrong_hash "$dir/wrong.img" >"$dir/wrong.log" 2>&1 || return 1
	printf '%s\n' "utf8 vda create" "strict vdb create" "pop vdc probe" "wrong vdd probe" >"$dir/disks"
	kernel_add_binary /usr/bin/chattr || return 1
	KERNEL_FILES="$dir/disks:/guest/disks $dir/create:/guest/create $dir/probe:/guest/probe" \
		KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=600 \
		kernel_run "$BATS_TEST_DIRNAME/guest/casefold-check.sh" "$dir/utf8.img" "$dir/strict.img" \
		"$dir/pop.img" "$dir/wrong.img" ||
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

@test "linux ($F2_KERNEL) looks up our populated casefolded directory by every spelling it resolves" {
	local r=$BATS_FILE_TMPDIR/report p h want got
	grep -qx "pop done" "$r"
	# the same spellings resolve as in the directory the kernel made
	while IFS= read -r p; do
		h=$(hexname "$p")
		want=$(grep "^utf8 probe $h " "$r" | awk '{ print ($4 == "none") ? "none" : "found" }')
		got=$(grep "^pop probe $h " "$r" | awk '{ print ($4 == "none") ? "none" : "found" }')
		[ "$want" = "$got" ] || { echo "$p ($h): kernel-made $want, populated $got"; return 1; }
	done <"$BATS_FILE_TMPDIR/probe"
}

# Both kernels also find an entry with a wrong hash (a linear scan when the
# hash finds nothing: 6.12, and 6.1.192 by a stable backport), so the
# repair itself is checked on the host (the stored hash is the fold's);
# here the kernel reads the repaired volume.
@test "a planted wrong hash: our fsck finds and repairs it, linux ($F2_KERNEL) then finds the file by other spellings" {
	local r=$BATS_FILE_TMPDIR/report p
	cat "$BATS_FILE_TMPDIR/wrong.log"
	grep -qx "wrong done" "$r"
	for p in cf/hello.txt cf/HELLO.TXT cf/hElLo.TxT; do
		grep -q "^wrong probe $(hexname "$p") [0-9]" "$r" || {
			echo "$p not found"; grep "^wrong " "$r"; return 1; }
	done
}

@test "dump.f2fs --stat resolves exactly the spellings linux ($F2_KERNEL) resolved, to the same inodes" {
	local r=$BATS_FILE_TMPDIR/report p h want got
	while IFS= read -r p; do
		h=$(hexname "$p")
		want=$(grep "^utf8 probe $h " "$r" | awk '{ print $4 }')
		[ -n "$want" ] || { echo "no guest probe of $p"; return 1; }
		got=$("$DUMP" --stat "/$p" "$BATS_FILE_TMPDIR/utf8.img" 2>/dev/null |
			awk '/^ino /{ print $NF; exit }' | tr -d ']')
		[ -n "$got" ] || got=none
		[ "$want" = "$got" ] || { echo "/$p ($h): linux $want, dump.f2fs $got"; return 1; }
	done <"$BATS_FILE_TMPDIR/probe"
}
