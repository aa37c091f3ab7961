#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# dump.f2fs --metadata-image [--scramble-names]: on damaged volumes made
# by tests/fsck/NNN-*/make.sh, fsck -f -n finds the same problem codes on
# the image as on the volume (scrambled too: a wrong hash stays wrong, a
# misplaced entry stays misplaced, casefold findings stay); no byte of a
# regular file's data, in blocks or inline, reaches the image; scrambled
# names keep their count and lengths and both fscks find the image of a
# clean volume clean; the volume is never written; an existing output
# needs --force and the device itself is refused.
load ../lib/common

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}
export F2FIELD REF_SLOAD

# same_codes CASE: fsck -f -n on the volume of tests/fsck/CASE and on its
# metadata image, plain and scrambled: the same codes and exit status;
# the volume unchanged by both dumps
same_codes() {
	local c=$1 t=$BATS_TEST_TMPDIR img=$BATS_TEST_TMPDIR/vol want rc_v rc before scr
	require_prog "$FSCK" "$DUMP" "$F2FIELD" "$INJECT" "$REF_MKFS" "$REF_SLOAD"
	bash "$F2_TOP/tests/fsck/$c/make.sh" "$img" >/dev/null
	before=$(img_sum "$img")
	rc_v=0; "$FSCK" -f -n "$img" </dev/null >"$t/vol.out" 2>&1 || rc_v=$?
	f2_codes "$t/vol.out"
	want=$REPLY
	[ -n "$want" ] || { cat "$t/vol.out"; echo "$c: the volume shows no problem"; return 1; }
	for scr in "" --scramble-names; do
		rm -f "$t/meta.img"
		"$DUMP" $scr --metadata-image "$t/meta.img" "$img" || return 1
		rc=0; "$FSCK" -f -n "$t/meta.img" </dev/null >"$t/meta.out" 2>&1 || rc=$?
		cat "$t/meta.out"
		f2_codes "$t/meta.out"
		echo "$c ${scr:-plain}: volume '$want' (exit $rc_v), image '$REPLY' (exit $rc)"
		[ "$REPLY" = "$want" ] && [ "$rc" -eq "$rc_v" ] || return 1
	done
	[ "$(img_sum "$img")" = "$before" ] || { echo "$c: the volume changed"; return 1; }
}

@test "metadata image: checkpoint fault 007-cp-valid-blocks, same codes" { same_codes 007-cp-valid-blocks; }
@test "metadata image: NAT fault 012-nat-addr-range, same codes" { same_codes 012-nat-addr-range; }
@test "metadata image: inode fault 015-inode-links, same codes" { same_codes 015-inode-links; }
@test "metadata image: inode fault 018-inode-csum (a wrong checksum stays wrong), same codes" { same_codes 018-inode-csum; }
@test "metadata image: dentry fault 025-dent-hash (the wrong hash is kept), same codes" { same_codes 025-dent-hash; }
@test "metadata image: dentry fault 049-dent-bucket (the same wrong bucket), same codes" { same_codes 049-dent-bucket; }
@test "metadata image: SIT fault 032-sit-vblocks, same codes" { same_codes 032-sit-vblocks; }
@test "metadata image: SSA fault 034-ssa-data, same codes" { same_codes 034-ssa-data; }
@test "metadata image: quota fault 050-quota-user (quota file data kept), same codes" { same_codes 050-quota-user; }
@test "metadata image: casefold faults 064 hash, 066 refused: same codes" {
	local c
	for c in 064-casefold-hash 066-casefold-strict; do
		same_codes "$c" || return 1
	done
}

# data_volume DIR IMG: three 1 MiB files and inline ones, each holding a
# marker line (MARKER-<32 random hex>-<name>) the image must not hold
data_volume() {
	local d=$1/tree img=$2 i m
	mkdir -p "$d/sub/deeper" "$d/many"
	MARK=MARKER-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
	for i in 1 2 3; do
		{ echo "$MARK-big$i"; head -c $((1024 * 1024 - 100)) /dev/urandom
		  echo "$MARK-mid$i"; } >"$d/big$i"
	done
	echo "$MARK-inline" >"$d/small"
	echo "$MARK-deep" >"$d/sub/deeper/tiny"
	for i in $(seq 1 300); do echo "$MARK-$i" >"$d/many/entry_name_$i"; done
	ln "$d/small" "$d/sub/hardlink"
	ln -s small "$d/shortlink"
	ln -s "$(printf 'target%.0s' $(seq 1 650))" "$d/longlink"	# past the inline area
	make_image "$img" 256M
	run_mkfs "$MKFS" -f -q -O extra_attr,inode_checksum -T 1700000000 --root "$d" "$img"
}

# entries IMG INO: "ino namelength" of every entry of directory INO, sorted
entries() {
	"$DUMP" --json -i "$2" "$1" | jq -r '.inode.dentries[] | "\(.ino) \(.name | length)"' | sort
}

# names IMG INO: the names of directory INO but . and .., sorted
names() {
	"$DUMP" --json -i "$2" "$1" | jq -r '.inode.dentries[] | .name' | grep -vx -e . -e .. | sort
}

# dirs IMG: the inode numbers of every directory, from the root
dirs() {
	local img=$1 todo=3 ino
	while [ -n "$todo" ]; do
		set -- $todo
		ino=$1; shift; todo="$*"
		echo "$ino"
		todo="$todo $("$DUMP" --json -i "$ino" "$img" |
			jq -r '.inode.dentries[] | select(.file_type == 2 and .name != "." and .name != "..") | .ino')"
		todo=$(echo $todo)
	done
}

@test "metadata image: no file data (blocks or inline), the metadata areas whole, fsck clean" {
	local t=$BATS_TEST_TMPDIR vol=$BATS_TEST_TMPDIR/vol before cp main n
	require_prog "$MKFS" "$FSCK" "$DUMP" "$F2SB"
	data_volume "$t" "$vol"
	[ "$(grep -a -c "$MARK" "$vol")" -ge 300 ]	# the markers are there to find
	before=$(md5sum <"$vol")
	run "$DUMP" --metadata-image "$t/meta.img" "$vol"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"$t/meta.img: "*" blocks kept (superblock 2, checkpoint "* ]]
	[ "$(md5sum <"$vol")" = "$before" ]
	[ "$(stat -c %s "$t/meta.img")" = "$(stat -c %s "$vol")" ]
	n=$(grep -a -c "$MARK" "$t/meta.img" || true)
	[ "$n" -eq 0 ] || { echo "$n markers in the image"; return 1; }
	# the big files' blocks are holes: the image holds less than them
	[ "$(allocated_bytes "$t/meta.img")" -lt $((3 * 1024 * 1024)) ]
	# superblocks and every metadata area byte for byte
	cp=$("$F2SB" "$vol" | sed -n 's/^cp_blkaddr=//p')
	main=$("$F2SB" "$vol" | sed -n 's/^main_blkaddr=//p')
	cmp -n 8192 "$vol" "$t/meta.img"
	cmp <(dd if="$vol" bs=4096 skip="$cp" count=$((main - cp)) 2>/dev/null) \
	    <(dd if="$t/meta.img" bs=4096 skip="$cp" count=$((main - cp)) 2>/dev/null)
	# the symlinks' targets are kept, the inline file reads as zeroes
	[ "$("$DUMP" --json --stat /longlink "$t/meta.img" | jq -r .inode.target)" = \
	  "$(printf 'target%.0s' $(seq 1 650))" ]
	run "$FSCK" -f -n "$t/meta.img"
	echo "$output"
	[ "$status" -eq 0 ]
	ref_fsck_clean "$t/meta.img"
	# and with --json, the same counts as an object
	"$DUMP" --json -f --metadata-image "$t/meta.img" "$vol" >"$t/out.json"
	[ "$(jq '.metadata_image.superblock' "$t/out.json")" -eq 2 ]
	[ "$(jq '.metadata_image.checkpoint + .metadata_image.sit + .metadata_image.nat +
		 .metadata_image.ssa' "$t/out.json")" -eq $((main - cp)) ]
	[ "$(jq '.metadata_image.directory' "$t/out.json")" -ge 2 ]
	[ "$(jq '.metadata_image.symlink' "$t/out.json")" -eq 1 ]
	[ "$(jq '.metadata_image.inline_files_emptied' "$t/out.json")" -ge 302 ]
}

@test "metadata image --scramble-names: same entries and lengths, other names, both fscks clean, reproducible" {
	local t=$BATS_TEST_TMPDIR vol=$BATS_TEST_TMPDIR/vol before d n
	require_prog "$MKFS" "$FSCK" "$DUMP"
	data_volume "$t" "$vol"
	before=$(md5sum <"$vol")
	run "$DUMP" --scramble-names --metadata-image "$t/scr.img" "$vol"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"names: "*" scrambled, 0 kept"* ]]
	[ "$(md5sum <"$vol")" = "$before" ]
	dirs "$vol" >"$t/dirs"
	[ "$(wc -l <"$t/dirs")" -ge 4 ]
	while read -r d; do
		entries "$vol" "$d" >"$t/a"
		entries "$t/scr.img" "$d" >"$t/b"
		diff "$t/a" "$t/b"
		names "$vol" "$d" >"$t/a"
		names "$t/scr.img" "$d" >"$t/b"
		# not one old name is left, none repeats, all in [a-zA-Z0-9_]
		[ -z "$(comm -12 "$t/a" "$t/b")" ]
		[ "$(sort -u "$t/b" | wc -l)" -eq "$(wc -l <"$t/b")" ]
		! grep -v '^[a-zA-Z0-9_]*$' "$t/b" || false
	done <"$t/dirs"
	n=$(grep -a -c -e entry_name_ -e deeper -e hardlink "$t/scr.img" || true)
	[ "$n" -eq 0 ] || { echo "old names left in $n places"; return 1; }
	n=$(grep -a -c "$MARK" "$t/scr.img" || true)
	[ "$n" -eq 0 ]
	# lookups by the new names: a path through three levels resolves
	run "$DUMP" --ls / "$t/scr.img"
	echo "$output"
	[ "$(echo "$output" | wc -l)" -eq "$("$DUMP" --ls / "$vol" | wc -l)" ]
	run "$FSCK" -f -n "$t/scr.img"
	echo "$output"
	[ "$status" -eq 0 ]
	ref_fsck_clean "$t/scr.img"
	"$DUMP" --scramble-names --metadata-image "$t/again.img" "$vol"
	cmp "$t/scr.img" "$t/again.img"
}

@test "metadata image --scramble-names: a deleted entry's name and hash are zeroed in its slot" {
	local t=$BATS_TEST_TMPDIR vol=$BATS_TEST_TMPDIR/vol ino n
	require_prog "$MKFS" "$DUMP" "$INJECT"
	mkdir -p "$t/tree/dir"
	for n in $(seq 1 20); do : >"$t/tree/dir/a_rather_unique_name_$n"; done
	make_image "$vol" 64M
	run_mkfs "$MKFS" -f -q -T 1700000000 --root "$t/tree" "$vol"
	ino=$("$DUMP" --json --stat /dir/a_rather_unique_name_7 "$vol" | jq .inode.ino)
	"$INJECT" --dent --nid "$ino" --mb d_bitmap --val 0 "$vol" >/dev/null
	"$DUMP" --metadata-image "$t/meta.img" "$vol"
	[ "$(grep -a -c a_rather_unique_name_7 "$t/meta.img")" -ge 1 ]
	"$DUMP" --scramble-names --metadata-image "$t/scr.img" "$vol"
	n=$(grep -a -c a_rather_unique_name "$t/scr.img" || true)
	[ "$n" -eq 0 ]
}

@test "metadata image --scramble-names: a casefolded volume's image stays clean for both fscks" {
	local t=$BATS_TEST_TMPDIR vol=$BATS_TEST_TMPDIR/cf.img cf
	require_prog "$MKFS" "$FSCK" "$DUMP"
	"$F2_TOP/tests/engine/cftree.sh" "$t/tree"
	make_image "$vol" 256M
	run_mkfs "$MKFS" -f -q -O extra_attr -C utf8 -T 1700000000 --root "$t/tree" \
		--casefold /cf "$vol"
	run "$DUMP" --scramble-names --metadata-image "$t/scr.img" "$vol"
	echo "$output"
	[ "$status" -eq 0 ]
	run "$FSCK" -f -n "$t/scr.img"
	echo "$output"
	[ "$status" -eq 0 ]
	ref_fsck_clean "$t/scr.img"
	# the casefolded directory's new names are lower case, and found by
	# another spelling as the kernel would
	cf=$("$DUMP" --json --stat /cf "$vol" | jq .inode.ino)
	names "$t/scr.img" "$cf" >"$t/b"
	! grep -v '^[a-z0-9_]*$' "$t/b" || false
	cfname=$("$DUMP" --json -i 3 "$t/scr.img" | jq -r ".inode.dentries[] | select(.ino == $cf) | .name")
	e=$(grep '[a-z]' "$t/b" | head -1)
	[ "$("$DUMP" --json --stat "/$cfname/${e^^}" "$t/scr.img" | jq .inode.ino)" = \
	  "$("$DUMP" --json --stat "/$cfname/$e" "$t/scr.img" | jq .inode.ino)" ]
}

@test "metadata image: refusals (existing output, the device itself, options alone, multi-device) write nothing" {
	local t=$BATS_TEST_TMPDIR vol=$BATS_TEST_TMPDIR/vol before
	require_prog "$MKFS" "$DUMP"
	make_image "$vol" 64M
	run_mkfs "$MKFS" -f -q "$vol"
	before=$(md5sum <"$vol")
	echo keep >"$t/exists"
	run "$DUMP" --metadata-image "$t/exists" "$vol"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"exists (--force replaces it)"* ]]
	[ "$(cat "$t/exists")" = keep ]
	run "$DUMP" --metadata-image "$vol" "$vol"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"is the device being imaged"* ]]
	run "$DUMP" --force --metadata-image "$vol" "$vol"
	[ "$status" -ne 0 ]
	ln -s "$vol" "$t/alias"
	run "$DUMP" -f --metadata-image "$t/alias" "$vol"
	[ "$status" -ne 0 ]
	[[ $output == *"is the device being imaged"* ]]
	[ "$(md5sum <"$vol")" = "$before" ]
	run "$DUMP" --scramble-names "$vol"
	[ "$status" -eq 2 ]
	run "$DUMP" --metadata-image "$t/x.img" --ls / "$vol"
	[ "$status" -eq 2 ]
	[ ! -e "$t/x.img" ]
	run "$DUMP" -f --metadata-image "$t/exists" "$vol"
	[ "$status" -eq 0 ]
	[ "$(stat -c %s "$t/exists")" = "$(stat -c %s "$vol")" ]
	# a volume of two devices
	make_image "$t/d0" 64M
	make_image "$t/d1" 64M
	run_mkfs "$MKFS" -f -q -c "$t/d1" "$t/d0"
	run "$DUMP" --metadata-image "$t/multi.img" "$t/d0"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"single-device volumes only"* ]]
	[ ! -e "$t/multi.img" ]
}

@test "metadata image: without a valid checkpoint the metadata areas alone are kept (exit 1)" {
	local t=$BATS_TEST_TMPDIR vol=$BATS_TEST_TMPDIR/vol cp main
	require_prog "$MKFS" "$DUMP" "$F2SB"
	make_image "$vol" 64M
	run_mkfs "$MKFS" -f -q "$vol"
	cp=$("$F2SB" "$vol" | sed -n 's/^cp_blkaddr=//p')
	main=$("$F2SB" "$vol" | sed -n 's/^main_blkaddr=//p')
	dd if=/dev/zero of="$vol" bs=4096 seek="$cp" count=1 conv=notrunc 2>/dev/null
	dd if=/dev/zero of="$vol" bs=4096 seek=$((cp + 512)) count=1 conv=notrunc 2>/dev/null
	run "$DUMP" --metadata-image "$t/meta.img" "$vol"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"no valid checkpoint"* ]]
	[[ $output == *"node 0,"* ]]
	cmp -n 8192 "$vol" "$t/meta.img"
	cmp <(dd if="$vol" bs=4096 skip="$cp" count=$((main - cp)) 2>/dev/null) \
	    <(dd if="$t/meta.img" bs=4096 skip="$cp" count=$((main - cp)) 2>/dev/null)
}
