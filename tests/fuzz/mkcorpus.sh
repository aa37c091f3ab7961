#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/mkcorpus.sh - regenerate the seed corpus tests/fuzz/corpus/.
#
#   tests/fuzz/mkcorpus.sh          (needs clang for build.sh, and the
#                                    reference sload.f2fs, f2fs-tools 1.15)
#
# Seeds for every target, in tests/fuzz/corpus/<target>/:
#   base-V      the pristine base image V (one byte: the variant)
#   tree-V      base image V populated by the reference sload.f2fs with a
#               small tree (inline and block files, a 1 MiB file of
#               zeros, nested directories, a 150-entry directory spanning
#               several dentry blocks, short and long symlinks, a hard
#               link, a fifo, an empty file), as the diff from base V
#   engine-V    the same tree written by our own engine (f2fs-populate),
#               for the bases it accepts (0 and 2: it refuses quota)
# The tree is small because sload 1.15 runs out of room on a 64 MiB
# volume past ~2 MiB of data; neither Debian's sload nor f2fs-populate
# writes compressed files, so compressed clusters are reached by mutation
# only.
set -eu

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${FUZZ_OUT:-$top/tests/.cache/fuzz}
sload=${REF_SLOAD:-/sbin/sload.f2fs}
populate=${POPULATE:-$top/mkfs/f2fs-populate}
"$top/tests/fuzz/build.sh" "$out" >/dev/null
tool=$out/fztool
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=$tmp/src
mkdir -p "$src/a/b/c" "$src/many"
echo hello >"$src/small.txt"
for i in $(seq 1 200); do echo "line $i of a text that spans two blocks"; done >"$src/text.txt"
dd if=/dev/zero of="$src/zeros.bin" bs=1M count=1 status=none
for i in $(seq 1 150); do echo "$i" >"$src/many/file_with_a_longish_name_$i"; done
echo deep >"$src/a/b/c/deep"
: >"$src/empty"
ln -s small.txt "$src/link"
ln -s "$(printf 'p%.0s' $(seq 1 300))" "$src/longlink"
ln "$src/text.txt" "$src/hard"
mkfifo "$src/fifo"
touch -h -d @1700000000 "$src" "$src"/* "$src"/*/* "$src"/a/b/c "$src"/a/b/c/*

targets=$(cd "$top/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
for t in $targets; do
	rm -rf "$top/tests/fuzz/corpus/$t"
	mkdir -p "$top/tests/fuzz/corpus/$t"
done
for v in 0 1 2; do
	"$tool" base "$v" "$tmp/img"
	# sload 1.15 writes inline_xattr_size 0 under flexible_inline_xattr
	# (base 1) and then exits 255 from its own check; such a seed is still
	# a fine start for the fuzzer (the read path accepts those inodes), so
	# only a missing root is fatal.
	if ! "$sload" -f "$src" -T 1700000000 "$tmp/img" >"$tmp/sload.log" 2>&1; then
		echo "mkcorpus.sh: note: sload exited non-zero on base $v" >&2
	fi
	"$tool" diff "$v" "$tmp/img" "$tmp/tree-$v"
	printf "\\x0$v" >"$tmp/base-$v"
	seeds=("$tmp/tree-$v" "$tmp/base-$v")
	if [ "$v" != 1 ]; then
		"$tool" base "$v" "$tmp/img"
		"$populate" --root "$src" -q -T 1700000000 "$tmp/img"
		"$tool" diff "$v" "$tmp/img" "$tmp/engine-$v"
		seeds+=("$tmp/engine-$v")
	fi
	for t in $targets; do
		cp "${seeds[@]}" "$top/tests/fuzz/corpus/$t/"
	done
done
du -sh "$top/tests/fuzz/corpus"
