#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/support/testlint.bats - the suites' own assertions can fail.
# Under bats' errexit a negated command ("! grep ...") never fails a
# test unless it is the test's last command, so every negation in a
# suite ends in "|| false" (or its test uses run !).

load ../lib/common

# weak_negations FILE...: "file:line: text" of each negation (continued
# lines joined) with no "||" in its last line
weak_negations() {
	awk '
		/^[ \t]*! / { neg = 1; start = FNR; text = $0 }
		neg && !/\\$/ { if ($0 !~ /\|\|/) print FILENAME ":" start ": " text; neg = 0 }
	' "$@"
}

@test "testlint: every '! command' assertion in a suite ends in '|| false'" {
	local bad
	bad=$(cd "$F2_TOP" && weak_negations tests/*/*.bats)
	[ -z "$bad" ] || { echo "negations that cannot fail a test:"; echo "$bad"; false; }
}

@test "testlint: the check finds an ineffective negation" {
	printf '@test "x" {\n\t! grep -q a /dev/null\n\ttrue\n}\n' >"$BATS_TEST_TMPDIR/a.bats"
	run weak_negations "$BATS_TEST_TMPDIR/a.bats"
	[[ $output == *"a.bats:2:"* ]]
}
