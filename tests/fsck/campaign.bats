#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/campaign.bats - a short run of the random fault campaign
# (tests/fsck/campaign.bash; bench/fault-campaign runs long ones): faults
# planted in the volumes Linux wrote (tests/lib/fixtures.bash), fsck -n,
# -y, -n again and the reference's --dry-run on each, then one boot
# mounting every volume -y left, reading every file, writing one.  A
# fixed seed a kernel series, 50 faults each: the 100-fault run of the
# issue over the suite's two runs (bench/fault-campaign runs thousands).
# Any crash, hang, bad exit, finding left after a repair that said it
# was done, unmountable volume, f2fs complaint or file lost that the
# fault did not touch fails.  The share of noticed faults repaired (the
# reference included: it must find the result clean) is printed; the 95%
# the issue asks of it is judged on the long runs of
# bench/fault-campaign, not on 50 faults.
# (It boots: fc_boot calls kernel_run, so tests/run.sh puts it in a QEMU
# lane.)
load ../lib/common
load ../lib/kernel
load ../lib/fixtures
load campaign

FC_FAULTS=${FC_FAULTS:-50}

setup_file() {
	export F2_TMP=$BATS_FILE_TMPDIR
	fixtures_build || true
}

@test "fault campaign: $FC_FAULTS random faults in kernel-written volumes: no crash, hang, bad exit, finding left, unmountable volume, complaint or lost file" {
	fixtures_require
	kernel_require
	require_prog "$FSCK" "$DUMP" "$INJECT" "$REF_FSCK"
	local d=$BATS_TEST_TMPDIR/fc seed rc=0 noticed repaired
	case ${F2_KERNEL:-6.1} in 6.1) seed=1 ;; *) seed=2 ;; esac
	fc_run "$FC_FAULTS" "$seed" "$d" || rc=$?
	cat "$d/summary" "$d/table"
	awk '$3 != "ok"' "$d/table"
	[ "$rc" -eq 0 ]
	noticed=$(sed -n 's/^noticed //p' "$d/summary")
	repaired=$(sed -n 's/^repaired //p' "$d/summary")
	echo "repaired $repaired of $noticed noticed"
	tr '\n' ' ' <"$d/summary" | sed 's/^/# /' >&3
	echo >&3
	[ "$noticed" -gt 0 ]
}
