#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# cftree.sh DIR [strict]: a host tree for casefolded populate tests, to be
# copied with mkfs.f2fs -C utf8[:strict] --root DIR --casefold /cf:
#   cf/        650 files (file-0000 .. file-0649: the directory grows past
#              hash level 0) and one name per case the kernel folds or not:
#              ASCII case, precomposed é, ß, Greek final sigma, dotless ı,
#              Cyrillic, CJK, emoji, U+200B and U+00AD inside a name, a code
#              point newer than Unicode 12.1 (U+1FAE0), and (not strict) a
#              name that is not UTF-8; a symlink; sub/inner/ (inherit +F)
#   plain/     "A" and "a" (both allowed outside casefolded directories)
# File contents are their own names, so an extract can be checked.
set -euo pipefail
d=$1 strict=${2:-}
mkdir -p "$d/cf/sub/inner" "$d/plain"
cd "$d/cf"
for i in $(seq 0 649); do
	printf -v n 'file-%04d' "$i"
	printf '%s\n' "$n" >"$n"
done
names=(
	'Hello.txt'
	$'caf\xc3\xa9'			# café, precomposed U+00E9
	$'Stra\xc3\x9fe'		# Straße
	$'\xcf\x83\xce\xbf\xcf\x86\xce\xbf\xcf\x82'	# σοφος (final sigma)
	$'k\xc4\xb1r'			# kır (dotless i U+0131)
	$'\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82'	# Привет
	$'\xe4\xb8\xad\xe6\x96\x87\xe5\x90\x8d'	# 中文名
	$'\xf0\x9f\x98\x80smile'	# 😀smile
	$'zero\xe2\x80\x8bwidth'	# zero U+200B width
	$'soft\xc2\xadhyphen'		# soft U+00AD hyphen
	$'melt\xf0\x9f\xab\xa0'		# melt U+1FAE0 (Unicode 14)
)
[ "$strict" = strict ] || names+=($'bad\xff\xfename')
for n in "${names[@]}"; do
	printf '%s\n' "$n" >"$n"
done
ln -s Hello.txt link
printf 'inner\n' >sub/inner/Deep.TXT
printf 'A\n' >"$d/plain/A"
printf 'a\n' >"$d/plain/a"
