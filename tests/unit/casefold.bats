#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The utf8-12.1 casefold (lib/util/casefold.c): the C checks, and the
# committed table against a fresh run of its generator.
load ../lib/common

UCD=${UCD:-/usr/share/unicode}

@test "casefold: fold, hash and name comparison (vectors, kernel selftest, limits)" {
	run "$F2_BUILD/tests/unit/test_casefold"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "casefold: lib/util/utf8fold_data.c is what gen-utf8fold.py makes of the UCD" {
	if [ ! -r "$UCD/UnicodeData.txt" ]; then
		skip "no Unicode Character Database in $UCD (Debian package unicode-data)"
	fi
	python3 "$F2_TOP/lib/util/gen-utf8fold.py" "$UCD" >"$BATS_TEST_TMPDIR/data.c"
	run diff -u "$F2_TOP/lib/util/utf8fold_data.c" "$BATS_TEST_TMPDIR/data.c"
	echo "$output" | head -40
	[ "$status" -eq 0 ]
}

@test "casefold: print mode folds and hashes as the library does" {
	run "$F2_BUILD/tests/unit/test_casefold" fold 53545241c39f45
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf strasse | od -An -tx1 | tr -d ' \n')" ]
	a=$("$F2_BUILD/tests/unit/test_casefold" hash STRASSE)
	b=$("$F2_BUILD/tests/unit/test_casefold" hash "$(printf 'stra\303\237e')")
	c=$("$F2_BUILD/tests/unit/test_hash" strasse)
	echo "$a $b $c"
	[ "$a" = "$b" ] && [ "$a" = "$c" ]
	run "$F2_BUILD/tests/unit/test_casefold" hash -s "$(printf 'caf\351')"
	[ "$output" = refused ]
}
