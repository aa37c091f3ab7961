#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Populating images through the engine (mkfs/populate.c, f2fs-populate):
# a tree of every file type and size class (tests/engine/mktree.sh) is
# copied into images from our mkfs; the reference fsck.f2fs --dry-run
# finds them clean and the read path gives back exactly the tree
# (tests/tools/f2extract + tests/engine/manifest.sh); two runs give the
# same bytes; every prefix of the write log (sampled) is the old or the
# new state.
load ../lib/common

POP=$POPULATE
EXTRACT=$F2EXTRACT
REPLAY=$F2REPLAY
MANIFEST="$F2_TOP/tests/engine/manifest.py"
FEAT=extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime,sb_checksum

setup_file() {
	"$F2_TOP/tests/engine/mktree.sh" "$BATS_FILE_TMPDIR/tree" 10000
	mkdir -p "$BATS_FILE_TMPDIR/small/d"
	for i in $(seq 1 40); do
		head -c $((i * 997)) /dev/zero | tr '\0' "$(printf \\$(printf '%03o' $((65 + i % 26))))" \
			> "$BATS_FILE_TMPDIR/small/d/f$i"
	done
	ln -s f1 "$BATS_FILE_TMPDIR/small/d/link"
	head -c 3000000 /dev/urandom > "$BATS_FILE_TMPDIR/small/big"
	setfattr -n user.x -v y "$BATS_FILE_TMPDIR/small/big"
}

# crash_state_clean IMG: the reference fsck --dry-run verdict, except that
# the pack being written when the crash came may be torn: fsck says
# "Invalid CP CRC[ offset]" for it and uses the other pack, which is the
# intended outcome (the kernel's own checkpoints leave the same states).
crash_state_clean() {
	local t=$BATS_TEST_TMPDIR/cs.img status=0
	cp --sparse=always "$1" "$t"
	"$REF_FSCK" --dry-run "$t" </dev/null >"$t.out" 2>&1 || status=$?
	grep -Ev '^[[:space:]]*Invalid CP CRC' "$t.out" >"$t.filtered"
	if ! f2_ref_fsck_verdict "$t.filtered" "$status"; then
		cat "$t.out" >&2
		return 1
	fi
}

# same_tree SRC IMG: the read path gives back SRC exactly
same_tree() {
	local out=$BATS_TEST_TMPDIR/x.$RANDOM
	mkdir "$out"
	"$EXTRACT" "$2" "$out"
	"$MANIFEST" "$1" >"$out.want"
	EXCLUDE=./lost+found "$MANIFEST" "$out" >"$out.got"
	diff "$out.want" "$out.got"
	rm -rf "$out"
}

@test "populate: every file type and size class, 10k-entry directory: reference fsck clean, read back exactly" {
	img=$BATS_TEST_TMPDIR/p.img
	make_image "$img" 1G
	run_mkfs "$MKFS" -f -O "$FEAT" "$img"
	"$POP" --root "$BATS_FILE_TMPDIR/tree" -T 1700000000 "$img"
	ref_fsck_clean "$img"
	same_tree "$BATS_FILE_TMPDIR/tree" "$img"
	if [ -x "$FSCK" ]; then
		"$FSCK" -f -n "$img" >"$BATS_TEST_TMPDIR/ourfsck.out" 2>&1 ||
			echo "note: our fsck.f2fs exit $?" >&2
	fi
}

@test "populate: default features, sections of 2 segments in zones of 2" {
	img=$BATS_TEST_TMPDIR/p.img
	make_image "$img" 1G
	run_mkfs "$MKFS" -f -s 2 -z 2 "$img"
	"$POP" --root "$BATS_FILE_TMPDIR/tree" "$img"
	ref_fsck_clean "$img"
	same_tree "$BATS_FILE_TMPDIR/tree" "$img"
}

@test "populate: same input, -U and -T give byte-identical images; SOURCE_DATE_EPOCH is -T" {
	for n in 1 2 3; do
		make_image "$BATS_TEST_TMPDIR/r$n.img" 512M
		run_mkfs "$MKFS" -f -O "$FEAT" -U 6e1c2e5a-3d2f-4a8e-9d53-0b9c1f0d7a11 -T 1600000000 \
			"$BATS_TEST_TMPDIR/r$n.img"
	done
	"$POP" --root "$BATS_FILE_TMPDIR/tree" -T 1600000000 "$BATS_TEST_TMPDIR/r1.img"
	"$POP" --root "$BATS_FILE_TMPDIR/tree" -T 1600000000 "$BATS_TEST_TMPDIR/r2.img"
	SOURCE_DATE_EPOCH=1600000000 "$POP" --root "$BATS_FILE_TMPDIR/tree" "$BATS_TEST_TMPDIR/r3.img"
	cmp "$BATS_TEST_TMPDIR/r1.img" "$BATS_TEST_TMPDIR/r2.img"
	cmp "$BATS_TEST_TMPDIR/r1.img" "$BATS_TEST_TMPDIR/r3.img"
}

@test "populate: the host files read in io_uring batches or file by file give the same bytes" {
	# every file type and size class (mktree.sh: sparse, empty, large,
	# hard links, devices), plus a run of regular files across several
	# batches in one directory; F2_POPULATE_BATCH=0 reads file by file
	local t=$BATS_TEST_TMPDIR/t
	mkdir -p "$t/run"
	cp -a "$BATS_FILE_TMPDIR/tree" "$t/tree"
	for i in $(seq 1 300); do head -c $((i * 389)) /dev/urandom >"$t/run/f$i"; done
	head -c 5000000 /dev/urandom >"$t/run/f150x"	# past a batch's file size
	for n in 1 2; do
		make_image "$BATS_TEST_TMPDIR/b$n.img" 512M
		run_mkfs "$MKFS" -f -O "$FEAT" -U 6e1c2e5a-3d2f-4a8e-9d53-0b9c1f0d7a11 -T 1600000000 \
			"$BATS_TEST_TMPDIR/b$n.img"
	done
	run "$POP" --progress --root "$t" -T 1600000000 "$BATS_TEST_TMPDIR/b1.img"
	[ "$status" -eq 0 ]
	# most files came from batches (io_uring is there: a build without
	# liburing, or a kernel refusing it, would read none so)
	[[ $output =~ ,\ ([0-9]+)\ read\ in\ batches ]] && [ "${BASH_REMATCH[1]}" -gt 300 ]
	run env F2_POPULATE_BATCH=0 "$POP" --progress --root "$t" -T 1600000000 "$BATS_TEST_TMPDIR/b2.img"
	[ "$status" -eq 0 ] && [[ $output == *", 0 read in batches"* ]]
	cmp "$BATS_TEST_TMPDIR/b1.img" "$BATS_TEST_TMPDIR/b2.img"
	"$FSCK" -n -f "$BATS_TEST_TMPDIR/b1.img"
}

@test "populate: uid/gid maps, SELinux labels from file_contexts with a mount point" {
	img=$BATS_TEST_TMPDIR/p.img
	make_image "$img" 256M
	run_mkfs "$MKFS" -f -O "$FEAT" "$img"
	fc=$BATS_TEST_TMPDIR/file_contexts
	cat >"$fc" <<-'FC'
	/system(/.*)?		u:object_r:system_file:s0
	/system/d(/.*)?		u:object_r:d_file:s0
	/system/big		u:object_r:big_file:s0
	FC
	"$POP" --root "$BATS_FILE_TMPDIR/small" --uid-map 0:1000:1 --gid-map 0:2000:1 \
		--file-contexts "$fc" --mount-point /system "$img"
	ref_fsck_clean "$img"
	out=$BATS_TEST_TMPDIR/x
	mkdir "$out"
	"$EXTRACT" "$img" "$out"
	[ "$(stat -c %u:%g "$out/big")" = "1000:2000" ]
	[ "$(stat -c %u:%g "$out/d/f3")" = "1000:2000" ]
	[ "$(getfattr --only-values -n security.selinux "$out/big" | tr -d '\0')" = "u:object_r:big_file:s0" ]
	[ "$(getfattr --only-values -n security.selinux "$out/d/f7" | tr -d '\0')" = "u:object_r:d_file:s0" ]
	[ "$(getfattr --only-values -n security.selinux "$out" | tr -d '\0')" = "u:object_r:system_file:s0" ]
	[ "$(getfattr --only-values -n user.x "$out/big")" = "y" ]
}

@test "populate: manifest.sh (for guests) and manifest.py (host) agree" {
	diff <("$F2_TOP/tests/engine/manifest.sh" "$BATS_FILE_TMPDIR/small") \
	     <("$MANIFEST" "$BATS_FILE_TMPDIR/small")
	diff <("$F2_TOP/tests/engine/manifest.sh" "$BATS_FILE_TMPDIR/tree/special") \
	     <("$MANIFEST" "$BATS_FILE_TMPDIR/tree/special")
}

@test "populate: a 1 TiB sparse image in little memory (one bit per segment), reference fsck clean" {
	img=$BATS_TEST_TMPDIR/t.img
	make_image "$img" 1T
	run_mkfs "$MKFS" -f "$img"
	# $POP is the program itself (f2_unwrap), not a wrapper shell
	/usr/bin/time -o "$BATS_TEST_TMPDIR/rss" -f '%M' \
		"$POP" --root "$BATS_FILE_TMPDIR/small" "$img"
	echo "peak RSS $(cat "$BATS_TEST_TMPDIR/rss") KiB"
	[ "$(cat "$BATS_TEST_TMPDIR/rss")" -lt 65536 ]
	ref_fsck_clean "$img"
	same_tree "$BATS_FILE_TMPDIR/small" "$img"
}

@test "populate: mkfs.f2fs --root and mkfs.f2fs --populate --root give the bytes of mkfs + f2fs-populate" {
	local u=6e1c2e5a-3d2f-4a8e-9d53-0b9c1f0d7a11 n
	for n in 1 2 3; do make_image "$BATS_TEST_TMPDIR/m$n.img" 512M; done
	run_mkfs "$MKFS" -f -O "$FEAT" -U $u -T 1600000000 --root "$BATS_FILE_TMPDIR/tree" \
		"$BATS_TEST_TMPDIR/m1.img"
	run_mkfs "$MKFS" -f -O "$FEAT" -U $u -T 1600000000 "$BATS_TEST_TMPDIR/m2.img"
	run_mkfs "$MKFS" -T 1600000000 --populate --root "$BATS_FILE_TMPDIR/tree" \
		"$BATS_TEST_TMPDIR/m2.img"
	run_mkfs "$MKFS" -f -O "$FEAT" -U $u -T 1600000000 "$BATS_TEST_TMPDIR/m3.img"
	"$POP" --root "$BATS_FILE_TMPDIR/tree" -T 1600000000 "$BATS_TEST_TMPDIR/m3.img"
	cmp "$BATS_TEST_TMPDIR/m1.img" "$BATS_TEST_TMPDIR/m2.img"
	cmp "$BATS_TEST_TMPDIR/m1.img" "$BATS_TEST_TMPDIR/m3.img"
	ref_fsck_clean "$BATS_TEST_TMPDIR/m1.img"
	# refusals
	run "$MKFS" -f --populate "$BATS_TEST_TMPDIR/m1.img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"needs --root"* ]]
	make_image "$BATS_TEST_TMPDIR/m4.img" 512M
	run "$MKFS" -f -c "$BATS_TEST_TMPDIR/m4.img" --root "$BATS_FILE_TMPDIR/small" \
		"$BATS_TEST_TMPDIR/m3.img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"not supported"* ]]
	run "$MKFS" -f --uid-map nonsense --root "$BATS_FILE_TMPDIR/small" "$BATS_TEST_TMPDIR/m3.img"
	[ "$status" -ne 0 ]
}

@test "populate: --progress reports files and MiB on stderr, nothing when not asked off a tty" {
	img=$BATS_TEST_TMPDIR/p.img
	make_image "$img" 256M
	run_mkfs "$MKFS" -f "$img"
	run "$POP" --progress --root "$BATS_FILE_TMPDIR/small" "$img"
	[ "$status" -eq 0 ]
	[[ "$output" == *"populate: 43 files, 3 MiB"* ]]
	run_mkfs "$MKFS" -f "$img"
	run "$POP" --root "$BATS_FILE_TMPDIR/small" "$img"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "populate: refuses a missing root and a bad device; a quota image gets its usage counted" {
	img=$BATS_TEST_TMPDIR/p.img
	make_image "$img" 256M
	run_mkfs "$MKFS" -f "$img"
	run "$POP" --root "$BATS_TEST_TMPDIR/nonexistent" "$img"
	[ "$status" -ne 0 ]
	[[ "$output" == *"not a directory"* ]]
	run_mkfs "$MKFS" -f -O extra_attr,quota "$img"
	run "$POP" --root "$BATS_FILE_TMPDIR/small" "$img"
	[ "$status" -eq 0 ]
	# both fscks check the quota files against the usage
	"$FSCK" -f -n "$img"
	ref_fsck_clean "$img"
	run "$POP" --root "$BATS_FILE_TMPDIR/small" "$BATS_TEST_TMPDIR/nonexistent.img"
	[ "$status" -ne 0 ]
}

@test "populate: crash at any write (sampled prefixes, torn head): old state or new, reference fsck clean" {
	base=$BATS_TEST_TMPDIR/base.img
	make_image "$base" 256M
	run_mkfs "$MKFS" -f -O "$FEAT" "$base"
	cp --sparse=always "$base" "$BATS_TEST_TMPDIR/run.img"
	F2_IO_RECORD=$BATS_TEST_TMPDIR/log "$POP" --root "$BATS_FILE_TMPDIR/small" \
		"$BATS_TEST_TMPDIR/run.img"
	n=$("$REPLAY" count "$BATS_TEST_TMPDIR/log")
	echo "records: $n"
	[ "$n" -gt 10 ]
	# every 1/20th, and each of the last 6 (flushes, cp head and tail)
	prefixes=$(for k in $(seq 0 20); do echo $((n * k / 20)); done;
		   for k in $(seq 0 6); do echo $((n - k)); done)
	old=0 new=0
	for p in $(echo "$prefixes" | sort -nu); do
		img=$BATS_TEST_TMPDIR/c.img
		cp --sparse=always "$base" "$img"
		"$REPLAY" apply "$BATS_TEST_TMPDIR/log" "$img" "$p" >/dev/null
		crash_state_clean "$img"
		out=$BATS_TEST_TMPDIR/cx
		rm -rf "$out" && mkdir "$out"
		"$EXTRACT" "$img" "$out"
		if [ -z "$(ls -A "$out")" ]; then
			old=$((old + 1))
		else
			same_tree "$BATS_FILE_TMPDIR/small" "$img"
			new=$((new + 1))
		fi
	done
	# a torn cp tail: the new pack must not count
	cp --sparse=always "$base" "$img"
	"$REPLAY" apply "$BATS_TEST_TMPDIR/log" "$img" $((n - 2)) 2048 >/dev/null
	crash_state_clean "$img"
	rm -rf "$out" && mkdir "$out"
	"$EXTRACT" "$img" "$out"
	[ -z "$(ls -A "$out")" ]
	echo "old $old new $new"
	[ "$old" -gt 0 ] && [ "$new" -gt 0 ]
	# the full log is the new state
	[ "$("$REPLAY" list "$BATS_TEST_TMPDIR/log" | tail -1 | cut -d' ' -f2)" = flush ]
}
