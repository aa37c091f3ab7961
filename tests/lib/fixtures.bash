# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/fixtures.bash - a shared corpus of f2fs images formatted by the
# reference mkfs.f2fs (Debian f2fs-tools, on the host) and populated by the
# real Linux f2fs driver (under QEMU, one boot for all of them; the kernel
# series is F2_KERNEL, see kernel.bash), with a
# manifest of what the kernel reads back, for the dump, fsck and later
# suites.
#
# Load with:   load ../lib/common; load ../lib/kernel; load ../lib/fixtures
#
#   fixtures_build        idempotent: sets and exports F2_FIXTURES, the
#                         directory tests/.cache/fixtures/linux-<series>/<hash>/ (the hash
#                         covers this file, the guest script, the reference
#                         mkfs version and the kernel release), building
#                         every fixture in one boot unless a finished build
#                         (its .ready marker, written last) is there.  A
#                         lock serialises concurrent callers.  Returns 1
#                         with FIXTURES_ERROR set if it cannot; then
#                         KERNEL_UNAVAILABLE is also set if the reason is
#                         that no kernel can be had.  A failed build is not
#                         retried for the same hash within 30 minutes (so a
#                         broken build costs one boot, not one per suite);
#                         F2_FIXTURES_RETRY=1 forces a retry.
#   fixtures_require      for bats: fixtures_build, or `skip` when the
#                         kernel is unavailable (the kernel_require rule),
#                         or fail with the reason.
#   fixture_copy NAME DEST  sparse copy of NAME's pristine image to DEST.
#   fixtures_names        the fixture names, one a line.
#   fixture_data gen|text SEED BYTES
#                         print the bytes the guest wrote for a file made
#                         with `gen SEED BYTES` (incompressible) or `text
#                         SEED BYTES` (numbered lines) in
#                         tests/fixtures/guest/build.sh, from the pools
#                         kept in $F2_FIXTURES (pool, textpool): expected
#                         content for files the kernel wrote.
#
# The images under $F2_FIXTURES are shared and PRISTINE: never open them
# for writing; copy one first (fixture_copy) and work on the copy.
#
# In a bats file:
#   setup_file() { export F2_TMP=$BATS_FILE_TMPDIR; fixtures_build || true; }
#   setup() { fixtures_require; }
# (the build, or the cache hit, happens once; each test then passes,
# fails with the reason, or skips when no kernel can be had).  A build
# with a new hash (this file or the guest script changed) removes the
# older builds.
#
# For each fixture NAME, in $F2_FIXTURES:
#   NAME.img       the image (sparse)
#   NAME.mkfs      the mkfs command line that formatted it (one line)
#   NAME.manifest  every path the guest's `find` printed in the mounted
#                  file system (so "." for the root, and lost+found where
#                  it exists), sorted with LC_ALL=C, one line each, fields
#                  separated by one TAB:
#                    path type mode uid gid size nlink last
#                  path   "." or "./..." (as find prints it)
#                  type   f d l p c b s
#                  mode   permission bits incl. suid/sgid/sticky, 4 octal
#                         digits (0644, 4755, 1777)
#                  uid gid  decimal
#                  size   bytes; "-" for directories (their sizes differ
#                         between tools)
#                  nlink  decimal
#                  last   f: md5 of the content; l: the link target;
#                         c, b: "major,minor" (decimal); otherwise "-"
#   NAME.xattrs    every extended attribute, sorted with LC_ALL=C:
#                    path<TAB>name<TAB>hex-value
#                  (lowercase hex, no 0x; an empty value is an empty
#                  field).  Empty file if there are none.
# Fixture-specific sidecars:
#   compress.stats  "ALG compr_written_block|compr_saved_block|
#                   compr_new_inode N": the kernel's counters after each
#                   algorithm's mount
#   compress.algos  path<TAB>algorithm<TAB>mount options<TAB>flag, one
#                   line for each regular file of the compress fixture,
#                   sorted; algorithm is lzo, lz4, lz4hc (lz4 with a
#                   level), zstd or lzo-rle; flag is "compressed" if the
#                   inode has the compression flag (lsattr c), else
#                   "plain" (files not named *.txt)
# Build logs stay beside them: guest.log (the guest script's output),
# dmesg.log, console.log, build.log.
#
# The manifest is what the kernel reads back after an unmount and a
# read-only remount, with one exception: md5sum over basic's
# ./sparse/dind (8.5 GB, one data block far past the double-indirect
# boundary) would take minutes under TCG, so the guest checks its size,
# that block and a sample of its holes, and the host computes the md5 of
# zeros + that block.

# one cache per kernel series (F2_KERNEL): a new build of one series
# removes that series' older builds only
F2_FIXTURES_CACHE=${F2_FIXTURES_CACHE:-${F2_TOP:?load ../lib/common first}/tests/.cache/fixtures/linux-${F2_KERNEL:-6.1}}
F2_FIXTURES_GUEST=$F2_TOP/tests/fixtures/guest/build.sh
F2_FIXTURES_MKSOCK=$F2_TOP/tests/fixtures/guest/mksock.c
FIXTURES_ERROR=

# name|size|reference mkfs options
F2_FIXTURE_TABLE="
basic|1G|-O extra_attr,inode_checksum,flexible_inline_xattr,inode_crtime
small|64M|
compress|1G|-O extra_attr,compression
aged|512M|-O extra_attr,inode_checksum
allfeat|1G|-O extra_attr,project_quota,inode_checksum,flexible_inline_xattr,quota,inode_crtime,lost_found,sb_checksum,compression,encrypt,verity
casefold|256M|-O extra_attr,inode_checksum,casefold -C utf8
strict|128M|-O extra_attr,casefold -C utf8:strict
sect|1G|-s 2 -z 2 -O extra_attr,quota,project_quota
"

# The far block of basic's sparse/dind: block number and content.
F2_FIXTURE_DIND_BLOCK=2075700

# The guest's data pools, the same on every build: 4 MiB of pseudo-random
# bytes from a fixed seed, 1 MiB of numbered text lines.
f2fx_pools() {
	perl -e 'srand(20261204); for (1 .. 1048576) { print pack("L", int(rand(4294967296))) }' >"$1/pool" &&
	perl -e 'my $n = 0; my $s = "";
		while (length($s) < 1048576) { $s .= sprintf("line %08d: the quick brown fox jumps over the lazy dog, %d\n", $n, $n * 7); $n++ }
		print substr($s, 0, 1048576)' >"$1/textpool"
}

fixture_data() {
	local kind=$1 seed=$2 n=$3 pool chunk i=0 chunks
	[ -n "${F2_FIXTURES:-}" ] || { echo "fixture_data: fixtures_build first" >&2; return 1; }
	case $kind in
	gen) pool=$F2_FIXTURES/pool chunk=4194304 ;;
	text) pool=$F2_FIXTURES/textpool chunk=1048576 ;;
	*) echo "fixture_data: gen or text, not $kind" >&2; return 1 ;;
	esac
	chunks=$((n / chunk + 1))
	while [ $i -lt $chunks ]; do
		if [ "$kind" = gen ]; then
			echo "f2fixture $seed chunk $i"
		else
			echo "f2fixture text $seed chunk $i"
		fi
		cat "$pool"
		i=$((i + 1))
	done | head -c "$n"
}

fixtures_names() { printf '%s\n' "$F2_FIXTURE_TABLE" | sed '/^$/d' | cut -d'|' -f1; }

f2fx_dind_block() {
	local i
	for i in $(seq 0 63); do
		printf 'f2fixture dind block, line %02d, 2075700 blocks into the file ...\n' "$i"
	done | head -c 4096
}

f2fx_hash() {
	{
		cat "${BASH_SOURCE[0]}" "$F2_FIXTURES_GUEST" "$F2_FIXTURES_MKSOCK"
		echo "kernel $KERNEL_RELEASE"
		"$REF_MKFS" -V 2>&1 | head -n 1
	} | sha256sum | cut -c1-16
}

fixture_copy() {
	local name=$1 dest=$2
	[ -n "${F2_FIXTURES:-}" ] || { echo "fixture_copy: fixtures_build first" >&2; return 1; }
	[ -f "$F2_FIXTURES/$name.img" ] || { echo "fixture_copy: no fixture $name" >&2; return 1; }
	cp --sparse=always "$F2_FIXTURES/$name.img" "$dest"
}

fixtures_require() {
	fixtures_build && return 0
	if [ -n "${KERNEL_UNAVAILABLE:-}" ] && command -v skip >/dev/null; then
		skip "kernel unavailable: $KERNEL_UNAVAILABLE"
	fi
	echo "fixtures_build failed: $FIXTURES_ERROR" >&2
	return 1
}

fixtures_build() {
	local hash dir lockfd rc=0 failed
	FIXTURES_ERROR=
	if ! kernel_setup; then
		FIXTURES_ERROR="kernel unavailable: $KERNEL_UNAVAILABLE"
		return 1
	fi
	hash=$(f2fx_hash)
	dir=$F2_FIXTURES_CACHE/$hash
	if [ -f "$dir/.ready" ]; then
		F2_FIXTURES=$dir
		export F2_FIXTURES
		return 0
	fi
	mkdir -p "$F2_FIXTURES_CACHE" || { FIXTURES_ERROR="cannot create $F2_FIXTURES_CACHE"; return 1; }
	exec {lockfd}>"$F2_FIXTURES_CACHE/.lock"
	flock "$lockfd"
	failed=$F2_FIXTURES_CACHE/$hash.failed
	if [ -f "$dir/.ready" ]; then
		:
	elif [ -f "$failed" ] && [ "${F2_FIXTURES_RETRY:-0}" != 1 ] &&
	     [ -n "$(find "$failed" -mmin -30 2>/dev/null)" ]; then
		FIXTURES_ERROR="an earlier build of $hash failed (within 30 min; F2_FIXTURES_RETRY=1 retries): $(cat "$failed")"
		rc=1
	else
		local tmp=$F2_FIXTURES_CACHE/.build.$hash.$$
		# under the lock nobody else is building: leftovers of killed
		# builds can go
		rm -rf "$F2_FIXTURES_CACHE"/.build.* "$dir"
		mkdir -p "$tmp"
		if f2fx_build "$tmp" >"$tmp/build.log" 2>&1; then
			mv "$tmp" "$dir" && : >"$dir/.ready" || rc=1
			rm -f "$failed"
			# older builds and failures are stale
			local d
			for d in "$F2_FIXTURES_CACHE"/*/; do
				d=${d%/}
				[ "$d" != "$dir" ] && rm -rf "$d"
			done
			rm -f "$F2_FIXTURES_CACHE"/*.failed
		else
			rc=1
			FIXTURES_ERROR="build failed: $(grep -m 3 'FAIL' "$tmp/build.log" | tr '\n' ' ')(log: $F2_FIXTURES_CACHE/failed.$hash/build.log)"
			rm -rf "$F2_FIXTURES_CACHE/failed.$hash"
			# keep logs and reports, not the images
			rm -f "$tmp"/*.img
			mv "$tmp" "$F2_FIXTURES_CACHE/failed.$hash"
			echo "$FIXTURES_ERROR" >"$failed"
		fi
	fi
	flock -u "$lockfd"
	exec {lockfd}>&-
	[ $rc = 0 ] || return 1
	F2_FIXTURES=$dir
	export F2_FIXTURES
}

# f2fx_dind_md5 BLOCK: the md5 of F2_FIXTURE_DIND_BLOCK zero blocks then
# BLOCK, from tests/.cache/dind-md5 when an earlier build computed it
f2fx_dind_md5() {
	local key dir=$F2_TOP/tests/.cache/dind-md5 f
	key=$({ echo "$F2_FIXTURE_DIND_BLOCK"; cat "$1"; } | sha256sum | cut -c1-16)
	f=$dir/$key
	if [ ! -s "$f" ]; then
		mkdir -p "$dir" || return 1
		{ head -c $((F2_FIXTURE_DIND_BLOCK * 4096)) /dev/zero; cat "$1"; } |
			md5sum | cut -d' ' -f1 >"$f.$$" && mv -f "$f.$$" "$f" || return 1
	fi
	cat "$f"
}

# f2fx_build DIR: format, boot once, assemble manifests.  Output is the
# build log; lines starting with FAIL say what went wrong.
f2fx_build() {
	local dir=$1 name size opts letters=abcdefghijklmnop i=0 status=0 md5pid p
	local -a disks=()
	local t0=$SECONDS
	echo "fixtures: building in $dir"
	for p in "$REF_MKFS" /usr/bin/setfattr /usr/bin/getfattr /usr/bin/lsattr /usr/bin/chattr; do
		[ -x "$p" ] || { echo "FAIL missing $p"; return 1; }
	done
	: >"$dir/guest.list"
	while IFS='|' read -r name size opts; do
		truncate -s "$size" "$dir/$name.img" || return 1
		# shellcheck disable=SC2086 # the options are a word list
		echo "mkfs.f2fs -f $opts $name.img" | tr -s ' ' >"$dir/$name.mkfs"
		# shellcheck disable=SC2086
		if ! "$REF_MKFS" -f $opts "$dir/$name.img" </dev/null >"$dir/$name.mkfs.log" 2>&1; then
			echo "FAIL reference mkfs of $name"
			cat "$dir/$name.mkfs.log"
			return 1
		fi
		echo "$name vd${letters:$i:1}" >>"$dir/guest.list"
		disks+=("$dir/$name.img")
		i=$((i + 1))
	done < <(printf '%s\n' "$F2_FIXTURE_TABLE" | sed '/^$/d')
	truncate -s 64M "$dir/out.img"
	echo "out vd${letters:$i:1}" >>"$dir/guest.list"
	disks+=("$dir/out.img")

	# md5 of basic's sparse/dind, computed while the guest runs (8 GiB
	# of zeroes: 16 s of a core), once per content: kept in the cache
	f2fx_dind_block >"$dir/dind.blk"
	f2fx_dind_md5 "$dir/dind.blk" >"$dir/dind.md5" &
	md5pid=$!

	f2fx_pools "$dir" || { echo "FAIL making the data pools"; return 1; }
	mkdir -p "$dir/bin"
	if ! ${CC:-cc} -O2 -Wall -Wextra -o "$dir/bin/mksock" "$F2_FIXTURES_MKSOCK"; then
		echo "FAIL compiling $F2_FIXTURES_MKSOCK"
		return 1
	fi
	for p in setfattr getfattr lsattr chattr; do
		kernel_add_binary /usr/bin/$p || return 1
	done
	kernel_add_binary "$dir/bin/mksock" || return 1
	KERNEL_FILES="$dir/guest.list:/guest/fixtures $dir/dind.blk:/guest/dind.blk $dir/pool:/guest/pool $dir/textpool:/guest/textpool" \
		KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=900 \
		kernel_run "$F2_FIXTURES_GUEST" "${disks[@]}" || status=$?
	# (an early boot oops is retried by kernel_run itself)
	wait "$md5pid"
	cp "$KERNEL_OUT" "$dir/guest.log"
	cp "$KERNEL_LOG" "$dir/console.log"
	kernel_dmesg >"$dir/dmesg.log"
	rm -rf "$dir/run"
	echo "fixtures: guest exit $status, wall ${KERNEL_WALL:-?} s"
	if [ "$status" != 0 ]; then
		echo "FAIL guest exit status $status"
		grep '^FAIL' "$dir/guest.log"
		tail -n 30 "$dir/guest.log"
		return 1
	fi
	if grep -q 'F2GUEST-INSMOD-FAILED' "$dir/console.log"; then
		echo "FAIL a module did not load: $(grep -o 'F2GUEST-INSMOD-FAILED=[^ ]*' "$dir/console.log" | tr '\n' ' ')"
		return 1
	fi
	if grep -Ei 'f2fs.*(error|corrupt|inconsistent|bad |invalid|fsck)' "$dir/dmesg.log"; then
		echo "FAIL f2fs complained in dmesg"
		return 1
	fi
	mkdir -p "$dir/raw"
	if ! tar -x -f "$dir/out.img" -C "$dir/raw"; then
		echo "FAIL cannot read the guest's archive"
		return 1
	fi
	rm -f "$dir/out.img"
	rm -rf "$dir/bin"
	if [ ! -f "$dir/raw/DONE" ]; then
		echo "FAIL the guest's archive has no DONE marker"
		return 1
	fi
	for name in $(fixtures_names); do
		f2fx_assemble "$dir" "$name" || return 1
	done
	if [ -f "$dir/raw/compress.algos" ]; then
		LC_ALL=C sort "$dir/raw/compress.algos" >"$dir/compress.algos"
		cp "$dir/raw/compress.extra" "$dir/compress.stats"
	fi
	echo "fixtures: built in $((SECONDS - t0)) s"
}

# f2fx_assemble DIR NAME: NAME.manifest and NAME.xattrs from the raw facts
f2fx_assemble() {
	local dir=$1 name=$2 raw=$1/raw want got
	local -a extra=()
	if [ "$name" = basic ]; then
		local blk
		blk=$(sed -n 's/^dind_block_md5 //p' "$raw/basic.extra")
		if [ "$blk" != "$(md5sum <"$dir/dind.blk" | cut -d' ' -f1)" ]; then
			echo "FAIL basic: the guest did not read back the dind block ($blk)"
			return 1
		fi
		extra=("./sparse/dind=$(cat "$dir/dind.md5")")
	fi
	perl -e '
		use strict; use warnings;
		my ($stat, $md5, $links, @extra) = @ARGV;
		my (%md5, %link);
		open my $fh, "<", $md5 or die "$md5: $!";
		while (<$fh>) { chomp; /^([0-9a-f]{32})  (.*)$/ or die "bad md5 line: $_"; $md5{$2} = $1; }
		for (@extra) { my ($p, $s) = split /=/, $_, 2; $md5{$p} = $s; }
		open $fh, "<", $links or die "$links: $!";
		while (<$fh>) { chomp; my ($p, $t) = split /\t/, $_, 2; $link{$p} = $t; }
		my %type = (0x8 => "f", 0x4 => "d", 0xA => "l", 0x1 => "p", 0x2 => "c", 0x6 => "b", 0xC => "s");
		open $fh, "<", $stat or die "$stat: $!";
		my @out;
		while (<$fh>) {
			chomp;
			my ($mode, $uid, $gid, $size, $nlink, $maj, $min, $perm, $path) =
				/^([0-9a-f]+) (\d+) (\d+) (\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) ([0-7]+) (.*)$/
				or die "bad stat line: $_";
			$mode = hex $mode;
			my $t = $type{$mode >> 12} // die "unknown type in: $_";
			my $last = "-";
			if ($t eq "f") { $last = $md5{$path} // die "no md5 for $path\n"; }
			elsif ($t eq "l") { $last = $link{$path} // die "no target for $path\n"; }
			elsif ($t eq "c" || $t eq "b") { $last = hex($maj) . "," . hex($min); }
			$size = "-" if $t eq "d";
			push @out, join("\t", $path, $t, sprintf("%04o", $mode & 07777), $uid, $gid, $size, $nlink, $last);
		}
		print "$_\n" for sort @out;
	' "$raw/$name.stat" "$raw/$name.md5" "$raw/$name.links" "${extra[@]}" \
		>"$dir/$name.manifest.tmp" || { echo "FAIL $name: assembling the manifest"; return 1; }
	LC_ALL=C sort -c "$dir/$name.manifest.tmp" || { echo "FAIL $name: manifest not sorted"; return 1; }
	want=$(cat "$raw/$name.count")
	got=$(wc -l <"$dir/$name.manifest.tmp")
	if [ "$want" != "$got" ]; then
		echo "FAIL $name: the guest counted $want paths, the manifest has $got"
		return 1
	fi
	# getfattr: "# file: PATH", then name=0xHEX lines, then a blank line;
	# it escapes unprintable bytes in names as \ooo
	perl -e '
		use strict; use warnings;
		sub unq { my $s = shift; $s =~ s/\\([0-7]{3})/chr(oct($1))/ge; $s =~ s/\\\\/\\/g; return $s; }
		my ($path, @out);
		while (<>) {
			chomp;
			if (/^# file: (.*)$/) { $path = unq($1); next; }
			next if /^$/;
			defined $path or die "xattr before a file line: $_";
			/^(.*?)=0x([0-9a-f]*)$/ or /^(.*?)=()$/ or /^([^=]+)()$/ or die "bad xattr line: $_";
			my ($n, $v) = (unq($1), $2);
			$path = "./$path" unless $path eq "." || $path =~ m{^\./};
			push @out, "$path\t$n\t$v";
		}
		print "$_\n" for sort @out;
	' "$raw/$name.xattr" >"$dir/$name.xattrs" || { echo "FAIL $name: assembling the xattrs"; return 1; }
	mv "$dir/$name.manifest.tmp" "$dir/$name.manifest"
}
