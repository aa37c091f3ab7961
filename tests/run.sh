#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/run.sh - THE test command: install what the tests need, build the
# tree, run every bats suite under tests/ with TAP output, and end with
# exactly one line "N passed, N failed".
#
#   tests/run.sh            (from anywhere; run as root on Debian 12)
#
# Steps
#   1. apt-get install the test dependencies that are missing (apt-get
#      update only when something must be installed).  F2_NO_APT=1 skips.
#   2. ./autogen.sh if there is no configure, ./configure if the tree is not
#      configured (afterwards make's own rules rerun them when their inputs
#      change), then make -k -j2.  A failed step counts as one failure; the
#      suites still run, so whatever did build is still tested.
#   3. bats --tap on every tests/**/*.bats (tests/lib/ holds helpers, not
#      suites), in lanes at once: the suites that boot QEMU in background
#      lanes, one per kernel (tests/fixtures first: it builds the
#      kernel-made images; tests/kernel last), tests/fuzz in a lane of
#      its own (niced campaigns of a fixed wall time), the host suites
#      here (tests/unit first, the rest in name order); F2_LANES=1 runs
#      one lane.  A suite that dies
#      before reporting all its planned tests has the missing ones counted
#      as failures.
#      Kernels: every suite that boots QEMU, and every dump and fsck suite
#      that reads the kernel-made fixtures, runs once per kernel series in
#      F2_KERNELS (default "6.1 6.12"; tests/lib/kernel.bash), its TAP
#      labelled "linux 6.12" and so on.
#   4. the host suites against a second build made with
#      --enable-sanitizers (ASan + UBSan), where any sanitizer report
#      fails (those that run the same writers or checkers on hundreds of
#      images or states run the plain build there: san_plain); see the
#      step itself.  F2_SAN=only (default: host suites run
#      sanitized only, skipped in step 3, to keep the whole run well under
#      30 minutes) | both (plain and sanitized) | off; F2_NO_SAN=1 is off.
#
# Logs: tests/.cache/build.log and tests/.cache/tap.log (TAP of all suites).
# Exit status: 0 only if nothing failed and at least one test ran.
set -u

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top" || exit 2
cache=$top/tests/.cache
mkdir -p "$cache"
build_log=$cache/build.log
tap_log=$cache/tap.log
: >"$tap_log"

passed=0 failed=0 skipped=0

note() { printf '%s\n' "run.sh: $*"; }

# ---- 1. dependencies ------------------------------------------------------
# The brief's list, plus `mount` (losetup, for the read-only device test).
deps=(build-essential autoconf automake libtool pkg-config uuid-dev
      libblkid-dev libselinux1-dev bats f2fs-tools qemu-system-x86
      busybox-static cpio e2fsprogs util-linux mount attr
      groff-base man-db
      jq liblz4-dev libzstd-dev liblzo2-dev liburing-dev
      clang libclang-rt-14-dev
      python3 time unicode-data xz-utils zstd binutils
      android-sdk-libsparse-utils)

install_deps() {
	local p missing=()
	for p in "${deps[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	note "installing missing packages: ${missing[*]}"
	local sudo=
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null && sudo="sudo -n" || {
			note "not root and no sudo: cannot install ${missing[*]}"
			return 1
		}
	fi
	$sudo apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
			--no-install-recommends "${missing[@]}"
}

if [ "${F2_NO_APT:-0}" != 1 ] && command -v dpkg-query >/dev/null; then
	if ! install_deps; then
		note "FAILED: installing test dependencies"
		failed=$((failed + 1))
	fi
fi

# ---- 2. build ------------------------------------------------------------
build_step() {
	local what=$1; shift
	if ! "$@" >>"$build_log" 2>&1; then
		note "FAILED: $what (errors from $build_log follow)"
		# the error lines themselves, then the tail for context
		grep -E 'error:|Error [0-9]|\*\*\*|No such file|not found' "$build_log" |
			head -n 30 | sed 's/^/    /'
		echo "    ..."
		tail -n 8 "$build_log" | sed 's/^/    /'
		failed=$((failed + 1))
		return 1
	fi
}

: >"$build_log"
build_ok=1
if [ ! -x configure ]; then
	build_step "./autogen.sh" ./autogen.sh || build_ok=0
fi
if [ $build_ok = 1 ] && { [ ! -f config.status ] || [ ! -f Makefile ]; }; then
	build_step "./configure" ./configure || build_ok=0
fi
if [ $build_ok = 1 ]; then
	# -k: build everything that can be built, so its tests still run
	build_step "make -j2" make -k -j2 || build_ok=0
fi
[ $build_ok = 1 ] && note "build ok"

# ---- 3. the suites -------------------------------------------------------
mapfile -t all < <(find tests -path tests/lib -prune -o -path 'tests/.*' -prune \
	-o -type f -name '*.bats' -print | LC_ALL=C sort)
suites=()
for f in "${all[@]}"; do case $f in tests/unit/*) suites+=("$f") ;; esac; done
for f in "${all[@]}"; do case $f in tests/unit/*|tests/kernel/*) ;; *) suites+=("$f") ;; esac; done
for f in "${all[@]}"; do case $f in tests/kernel/*) suites+=("$f") ;; esac; done

if ! command -v bats >/dev/null; then
	note "FAILED: bats is not installed"
	failed=$((failed + 1))
	suites=()
fi

# The kernel series to test against, the first being the default one.
read -r -a kernels <<<"${F2_KERNELS:-6.1 6.12}"

# bats_timed SUITE: bats on SUITE, then "# cpu: U s user, S s system",
# the CPU time of every process it ran (QEMU's too): with the lanes
# sharing two cores, wall time says little about what a suite costs
bats_timed() {
	(
		bats --tap --timing "$1" 2>&1
		rc=$?
		# (times in this shell: in a pipe it would count the pipe's)
		times >"$cache/times.$BASHPID"
		awk 'function s(t) { split(t, a, /[ms]/); return a[1] * 60 + a[2] }
			NR == 2 { printf "# cpu: %.0f s user, %.0f s system\n", s($1), s($2) }' \
			"$cache/times.$BASHPID"
		rm -f "$cache/times.$BASHPID"
		exit $rc
	)
}

# run_suite SUITE [LABEL] [OUT]: one bats suite, its TAP to stdout and the
# TAP log (or, with OUT, to OUT only, for the QEMU lane below), then
# counted with count_suite unless OUT is given.  A label "linux S" runs
# it with F2_KERNEL=S.
run_suite() {
	local suite=$1 label=${2:-} out=${3:-} t0=$SECONDS rc
	case $label in
	*"linux "*) local F2_KERNEL=${label##*linux }; export F2_KERNEL ;;
	esac
	if [ -n "$out" ]; then
		{
			echo "# suite${label:+ ($label)}: $suite"
			bats_timed "$suite"
			echo "# bats-exit: $?"
			echo "# suite${label:+ ($label)}: $suite took $((SECONDS - t0)) s"
		} >"$out"
		return 0
	fi
	out=$cache/suite.tap
	echo "# suite${label:+ ($label)}: $suite" | tee -a "$tap_log"
	bats_timed "$suite" | tee "$out" | tee -a "$tap_log"
	rc=${PIPESTATUS[0]}
	echo "# suite${label:+ ($label)}: $suite took $((SECONDS - t0)) s" | tee -a "$tap_log"
	count_suite "$suite" "$out" "$rc"
}

# count_suite SUITE TAP RC: add a suite's TAP results to the totals
count_suite() {
	local suite=$1 out=$2 rc=$3 plan p s n got
	plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$out" | head -n 1)
	# TAP results: "ok N ..." (or "ok N ... # skip ..."), "not ok N ..."
	p=$(grep -E '^ok [0-9]+' "$out" | grep -Eicv '^ok [0-9]+.*# skip' || true)
	s=$(grep -Eic '^ok [0-9]+.*# skip' "$out" || true)
	n=$(grep -Ec '^not ok [0-9]+' "$out" || true)
	passed=$((passed + p)) skipped=$((skipped + s)) failed=$((failed + n))
	got=$((p + s + n))
	if [ -n "$plan" ] && [ "$got" -lt "$plan" ]; then
		note "FAILED: $suite reported $got of $plan planned tests"
		failed=$((failed + plan - got))
	elif [ "$rc" -ne 0 ] && [ "$n" -eq 0 ]; then
		note "FAILED: $suite: bats exited $rc without a failing test"
		failed=$((failed + 1))
	fi
}

# Suites the sanitized pass (step 4) runs: not tests/kernel, not one that
# boots QEMU (kernel_run), not tests/fuzz (sanitized already).
boots_qemu() {
	case $1 in tests/kernel/*) return 0 ;; esac
	grep -q kernel_run "$1"
}
# a dump or fsck suite reading the kernel-made fixtures: runs once per
# kernel's set (the host gc suites read the first kernel's only; gc
# against each kernel is tests/gc/kernel.bats)
reads_fixtures() {
	case $1 in tests/dump/*|tests/fsck/*) ;; *) return 1 ;; esac
	grep -q 'fixtures_require\|fixtures_build' "$1"
}
san_suite() {
	case $1 in tests/fuzz/*) return 1 ;; esac
	! boots_qemu "$1"
}
# F2_SAN: "both" runs those suites plain and sanitized, "only" runs them
# sanitized only (saves their plain run), "off" plain only.
san_mode=${F2_SAN:-only}
[ "${F2_NO_SAN:-0}" = 1 ] && san_mode=off

# Lanes: the suites that boot QEMU (TCG threads, partly waiting on the
# guest) run in background lanes while the host suites run here.  A
# lane's TAP is kept per suite and added to the log and the totals after
# the host suites.  F2_LANES=1 runs everything in this shell, in order.
lane=$cache/lane
rm -rf "$lane" && mkdir -p "$lane"
# The QEMU lanes' runs, as "SUITE|LABEL": per kernel, tests/fixtures
# first (it builds the images the fixture-reading suites use: a host
# suite that needs them before they are ready waits on their lock), then
# every other QEMU suite.
qemu_runs=() host_suites=()
for suite in "${suites[@]}"; do
	boots_qemu "$suite" || host_suites+=("$suite")
done
for k in "${kernels[@]}"; do
	for suite in "${suites[@]}"; do
		case $suite in tests/fixtures/*) qemu_runs+=("$suite|linux $k") ;; esac
	done
	for suite in "${suites[@]}"; do
		case $suite in tests/fixtures/*) continue ;; esac
		boots_qemu "$suite" && qemu_runs+=("$suite|linux $k")
	done
done
# host_label SUITE: the labels a host suite runs with, one a line
host_labels() {
	local k
	if reads_fixtures "$1"; then
		for k in "${kernels[@]}"; do echo "linux $k"; done
	else
		echo ""
	fi
}
# tests/fuzz runs in a lane of its own: its campaigns last a fixed wall
# time under nice, so beside the others they take only spare cycles.
bg_runs=()
for suite in "${host_suites[@]}"; do
	case $suite in tests/fuzz/*) bg_runs+=("$suite") ;; esac
done
# QEMU lanes: by default one per kernel series (F2_QEMU_LANES=1: one for
# all), each running its kernel's runs in order beside the host lane.
lane_pids=()
if [ "${F2_LANES:-2}" = 1 ]; then
	for r in "${qemu_runs[@]}"; do run_suite "${r%%|*}" "${r#*|}"; done
	qemu_runs=() bg_runs=()
fi
for r in "${bg_runs[@]}"; do
	( run_suite "$r" "" "$lane/bg-$(basename "$r").tap" ) &
	lane_pids+=($!)
done
if [ ${#qemu_runs[@]} -gt 0 ]; then
	note "QEMU suites run in background lanes: ${qemu_runs[*]}"
	lane_keys=("${kernels[@]}")
	[ "${F2_QEMU_LANES:-${#kernels[@]}}" = 1 ] && lane_keys=(all)
	for key in "${lane_keys[@]}"; do
		(
			i=0
			for r in "${qemu_runs[@]}"; do
				i=$((i + 1))
				[ "$key" = all ] || [ "${r#*|}" = "linux $key" ] || continue
				run_suite "${r%%|*}" "${r#*|}" "$lane/$(printf %03d $i).tap"
			done
		) &
		lane_pids+=($!)
	done
fi

for suite in "${host_suites[@]}"; do
	[ "$san_mode" = only ] && san_suite "$suite" && continue
	case " ${bg_runs[*]} " in *" $suite "*) continue ;; esac
	while IFS= read -r l; do run_suite "$suite" "$l"; done < <(host_labels "$suite")
done

# ---- 4. the sanitized pass -------------------------------------------------
# A second build with ./configure --enable-sanitizers (ASan + UBSan, no
# recovery) runs the C unit tests and every host suite (again with
# F2_SAN=both; only there with the default F2_SAN=only): all suites
# but tests/kernel and any other that boots QEMU (kernel_run: the guest
# side is not ours to sanitize, and a boot costs a minute), and tests/fuzz
# (built with sanitizers already).  Suites reading the kernel-made
# fixtures run: the plain pass has built and cached those.
# The suites find the build through F2_BUILD (tests/lib/common.bash).
# Where: $top is configured in place, so automake refuses a VPATH build
# from it; the sources (git's tracked and untracked-but-not-ignored files)
# are copied to tests/.cache/san, only those that differ from the copy
# there, so make rebuilds only what changed since the last run.
# The sanitized suites run in two lanes (see below for which).
# Reports: every sanitizer writes to tests/.cache/san-logs/ (log_path) and
# aborts (abort_on_error: the tool dies by SIGABRT).  Each report file is
# one failure, so a report counts even in a test that expected the tool to
# fail.  Leaks: detect_leaks=1 in the suites san_leaks names (below), so
# a leak is a failure like any other report there.
if [ "$san_mode" != off ] && [ ${#suites[@]} -gt 0 ]; then
	san=$cache/san san_logs=$cache/san-logs
	mkdir -p "$san"
	rm -rf "$san_logs" && mkdir -p "$san_logs"
	san_ok=1
	# copy what differs, stamped now: a copy can never look older than an
	# object built from the previous version of it.  What differs: by an
	# md5sum of the sources and one of the copy, then one tar for the lot
	# (a cmp per file cost a minute of CPU)
	git -C "$top" ls-files -z -co --exclude-standard >"$cache/san.files" || san_ok=0
	declare -A san_had=()
	while read -r sum f; do san_had[$f]=$sum; done < <(cd "$san" &&
		xargs -0 md5sum -- <"$cache/san.files" 2>/dev/null)
	: >"$cache/san.copy"
	while read -r sum f; do
		[ -L "$top/$f" ] || [ "${san_had[$f]:-}" != "$sum" ] || continue
		printf '%s\0' "$f" >>"$cache/san.copy"
	done < <(cd "$top" && xargs -0 md5sum -- <"$cache/san.files" 2>/dev/null)
	unset san_had
	if [ -s "$cache/san.copy" ]; then
		tar -C "$top" --null -T "$cache/san.copy" -cf - | tar -C "$san" -m -xf - || san_ok=0
	fi
	if [ $san_ok = 0 ]; then
		note "FAILED: copying the sources (git ls-files) to $san"
		failed=$((failed + 1))
	fi
	if [ $san_ok = 1 ] && [ ! -x "$san/configure" ]; then
		build_step "autogen.sh (sanitized copy)" sh -c "cd '$san' && ./autogen.sh" || san_ok=0
	fi
	if [ $san_ok = 1 ] && [ ! -f "$san/config.status" ]; then
		build_step "configure --enable-sanitizers" \
			sh -c "cd '$san' && ./configure --enable-sanitizers" || san_ok=0
	fi
	if [ $san_ok = 1 ]; then
		build_step "make -j2 (sanitized)" make -C "$san" -k -j2 || san_ok=0
	fi
	[ $san_ok = 1 ] && note "sanitized build ok"
	asan="abort_on_error=1:halt_on_error=1:log_path=$san_logs/asan"
	export UBSAN_OPTIONS="abort_on_error=1:halt_on_error=1:print_stacktrace=1:log_path=$san_logs/ubsan"
	# Suites that run the plain build here too: they run the same
	# writer (mkfs, populate, gc's mover, the metadata image) on hundreds
	# of images, or the same checker on hundreds of states (every power
	# cut of tests/crash, the roll-forward campaign, the extraction of
	# every kernel-made fixture): paths the sanitized suites (every fsck
	# case and repair once, hostile dumps, command lines, the engine) and
	# the fuzz targets cover already, at three times the cost sanitized.
	san_plain() {
		case $1 in
		tests/mkfs/layout.bats|tests/mkfs/golden.bats|tests/engine/populate.bats|\
		tests/engine/casefold.bats|tests/dump/metaimage.bats|tests/gc/move.bats|\
		tests/resize/crash.bats|tests/crash/*|tests/recovery/campaign.bats|\
		tests/dump/extract-kernel.bats) return 0 ;;
		esac
		return 1
	}
	# Two lanes: the one here is the run's longest path (it starts after
	# the sanitized build, when the QEMU lanes have run for minutes), so
	# the background lane takes tests/crash, tests/fsck/cases.bats and
	# the plain ones, about 45% of the time.
	san_bg=() san_rest=()
	for suite in "${suites[@]}"; do
		san_suite "$suite" || continue
		if san_plain "$suite"; then
			[ "$san_mode" = both ] || san_bg+=("$suite")	# (both: run in step 3)
			continue
		fi
		case $suite in
		tests/crash/*|tests/fsck/cases.bats) san_bg+=("$suite") ;;
		*) san_rest+=("$suite") ;;
		esac
	done
	# Leaks: the check at exit costs 57 ms a process against 34 for the
	# rest of ASan (91 against 8 for a plain run), so only the suites
	# that run each tool's paths once, normal and failing, run with it:
	# the unit tests, every fsck case, hostile dumps, command lines,
	# inject, gc and the engine.  The suites that run the same paths on
	# hundreds of images or states (layout, crash, extract, populate)
	# run without.
	san_leaks() {
		case $1 in
		tests/unit/*|tests/support/*|tests/mount/*|tests/fsck/cases.bats|\
		tests/fsck/stop-reasons.bats|tests/fsck/unknown-features.bats|\
		tests/dump/hostile.bats|tests/dump/dump.bats|tests/mkfs/cli.bats|\
		tests/inject/inject.bats|tests/engine/engine.bats|tests/gc/gc.bats|\
		tests/gc/unit.bats|tests/tune/label.bats) echo 1 ;;
		*) echo 0 ;;
		esac
	}
	# san_run SUITE [OUT]: the suite sanitized (plain: san_plain), once
	# per label
	san_run() {
		local leaks l n=0
		if san_plain "$1"; then
			while IFS= read -r l; do
				n=$((n + 1))
				run_suite "$1" "$l" ${2:+"$2.$n.tap"}
			done < <(host_labels "$1")
			return
		fi
		leaks=$(san_leaks "$1")
		while IFS= read -r l; do
			n=$((n + 1))
			ASAN_OPTIONS=$asan:detect_leaks=$leaks F2_BUILD=$san \
				run_suite "$1" "sanitized${l:+, $l}" ${2:+"$2.$n.tap"}
		done < <(host_labels "$1")
	}
	if [ "${F2_LANES:-2}" = 1 ]; then
		san_rest=("${san_bg[@]}" "${san_rest[@]}")
	elif [ ${#san_bg[@]} -gt 0 ]; then
		(
			for suite in "${san_bg[@]}"; do
				san_run "$suite" "$lane/san-$(echo "${suite#tests/}" | tr / -)"
			done
		) &
		lane_pids+=($!)
		for suite in "${san_bg[@]}"; do
			while IFS= read -r l; do bg_runs+=("$suite"); done < <(host_labels "$suite")
		done
	fi
	for suite in "${san_rest[@]}"; do
		san_run "$suite"
	done
	unset UBSAN_OPTIONS
fi
rm -f "$cache/suite.tap"
# ---- 5. the background lanes' results ---------------------------------------
if [ ${#lane_pids[@]} -gt 0 ]; then
	wait "${lane_pids[@]}"
	for f in "$lane"/*.tap; do
		[ -f "$f" ] || continue
		suite=$(sed -n '1s/^# suite[^:]*: //p' "$f")
		tee -a "$tap_log" <"$f"
		rc=$(sed -n 's/^# bats-exit: //p' "$f")
		count_suite "$suite" "$f" "${rc:-1}"
	done
	[ "$(ls "$lane" | wc -l)" -eq $((${#qemu_runs[@]} + ${#bg_runs[@]})) ] ||
		{ note "FAILED: a background lane lost suites"; failed=$((failed + 1)); }
fi
if [ -n "${san_logs:-}" ]; then
	for f in "$san_logs"/*; do
		[ -f "$f" ] || continue
		note "FAILED: sanitizer report $f:"
		head -n 30 "$f" | sed 's/^/    /'
		failed=$((failed + 1))
	done
fi

echo "suites: ${#suites[@]}; TAP log: $tap_log"
echo "$skipped skipped"
status=0
if [ $((passed + failed)) -eq 0 ]; then
	note "no tests ran"
	status=1
fi
[ "$failed" -eq 0 ] || status=1
echo "$passed passed, $failed failed"
exit $status
