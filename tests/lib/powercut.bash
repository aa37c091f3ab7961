# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/powercut.bash - power-cut testing of any writer, without root:
# run it once over the recording I/O backend, then rebuild the device as
# it would be after a power cut at every point of its write log and judge
# each state.
#
# Load with:   load ../lib/common; load ../lib/powercut
#
#   powercut_run START_IMAGE CHECK_FN -- WRITER ARGS...
#
# 1. START_IMAGE is copied (sparse) to the device; the word @IMG in ARGS
#    stands for that copy.  WRITER ARGS runs once with F2_IO_RECORD set,
#    so every write, zero, discard and flush it makes through f2_io_open()
#    is logged (lib/io/record.c); it must exit with a status listed in
#    POWERCUT_WRITER_OK (default "0"; fsck -y: "1").  The device afterwards
#    is kept as $POWERCUT_FINAL.
# 2. With N records in the log (f2replay count), the prefixes checked are
#    every one of 0..N when N <= POWERCUT_ALL (300), else a deterministic
#    sample of at least POWERCUT_SAMPLE (200): 0..10, N-10..N, every
#    flush and every write that starts a new run (its offset is not where
#    the write before it ended) with the record before each, and evenly
#    spaced ones in between.  For every checked prefix K < N whose next
#    record is a write longer than T, the torn write of its first T bytes
#    is checked too, T taken in turn from POWERCUT_TORN ("512 2048": a
#    partial sector, a partial block): prefix K tears at the (K mod
#    count)-th size (POWERCUT_TORN_EACH=1: at every size, a state more
#    per prefix for little, as both leave a block half old, half new);
#    in a sampled log only at the prefixes
#    chosen for what they are (ends, flushes, run starts), not at the
#    evenly spaced ones, which fall inside runs of consecutive writes
#    (e.g. copied data) and whose torn writes tell nothing new.
# 3. A cursor image advances through the prefixes in order (f2replay
#    apply LOG CURSOR J:K, no fsync) and the torn bytes go onto it too
#    (f2replay apply LOG CURSOR K:K T; the next apply rewrites that record
#    whole, and the torn sizes go in ascending order); then
#        CHECK_FN IMAGE K T
#    is called (T is 0 when the last write is whole).  CHECK_FN returns 0
#    when the state is acceptable; what it prints is shown for failures.
#    IMAGE is the cursor itself, so CHECK_FN only reads it; one that runs
#    a writer on the state (e.g. fsck -y) first calls
#        powercut_private IMAGE
#    and works on the fresh sparse copy named in POWERCUT_IMG.  Copying
#    only when needed halves the processes of a state.  At the end the
#    cursor, every record applied, must equal the writer's device
#    (f2replay same): a check that wrote to it, or a write that missed the
#    log, fails the run.  A multi-device run keeps its cursor at the
#    device paths (POWERCUT_DEVS, below); its checks cannot write.  Files
#    CHECK_FN writes beside IMAGE stay until the next check overwrites
#    them: write them before reading them.  Everything lives in a scratch
#    directory removed at the end of the
#    run (POWERCUT_SCRATCH: a tmpfs, /dev/shm when it has 1 GiB free (a run
#    keeps a few sparse images there, ~100 MB at most in the suites), so
#    that a writer run on the state pays no fsync; else, or with
#    POWERCUT_NO_SHM set, under POWERCUT_DIR: gc.bats took 25 s there
#    against 5 s on /dev/shm on a loaded ext4 host).
# 4. powercut_run prints a line per failing state ("prefix K torn T: ..."
#    with the check's output, the first POWERCUT_SHOW (5) in full, 20 at
#    most) and a summary line; it returns 1 if any state failed or the writer did.
#    It leaves POWERCUT_RECORDS (N), POWERCUT_CHECKED (states checked)
#    and POWERCUT_FAILED set for the caller's own assertions.
#
# A multi-device volume (mkfs -c) names its other devices by path in its
# superblock, so its states are judged at the very paths the writer used:
#   powercut_run DEV0,DEV1,... CHECK_FN -- WRITER ARGS...
# runs the writer on those files in place (@IMG stands for DEV0; they hold
# the start volume, made at those paths), keeps copies of them as the
# start and the end (POWERCUT_START and POWERCUT_FINAL are then comma
# lists of copies, POWERCUT_DEVS the device list), and keeps the cursor
# at those paths: CHECK_FN DEV0 K T.  The writer's devices are joined
# under one log (f2_io_open_joined, a version-2 log); f2replay applies it
# to a comma list of images.  The summaries of the start and the end
# (powercut_commit_summary 0 and N) are taken before and after the writer;
# any other commit point's is rebuilt at the device paths, and the state
# being checked is then rebuilt there again (POWERCUT_AT).
#
# Variables CHECK_FN can use: POWERCUT_DIR (scratch, kept until the test
# ends), POWERCUT_START (the pristine start image), POWERCUT_FINAL,
# POWERCUT_LOG, POWERCUT_LIST (the log as f2replay list prints it: "index
# op off len" a line), POWERCUT_FLUSHES (the indexes of its flushes),
# POWERCUT_LAST_WRITE (of its last write), POWERCUT_SCRATCH (where the
# state is).  Other
# helpers: powercut_state K T OUT (a state replayed from the start),
# powercut_plan N (the prefixes checked, "K TORN" a line),
# powercut_commit_sum K (sets POWERCUT_SUM to the summary at commit
# point K without a subshell; powercut_commit_summary K prints it).
#
# Oracles provided here:
#   powercut_summary IMG          what the read path sees (tests/crash/
#                                 f2walk): prints the summary, returns 0
#                                 walked, 3 refused at open, 4 damaged
#   powercut_check_start_or_final IMG K T
#                                 the stock check for writers with one
#                                 commit at the end, or that never change
#                                 the tree: the volume opens, walks without
#                                 damage, passes POWERCUT_FSCK (below) and
#                                 shows the start's tree or the end's
#   powercut_check_committed IMG K T
#                                 for writers that checkpoint several
#                                 times: the volume opens,
#                                 walks without damage, and shows exactly
#                                 the tree of the last commit point at or
#                                 before K, or of the next one (the commit
#                                 may be under way); commit points are 0,
#                                 N, and every prefix that ends with a
#                                 flush.  With POWERCUT_FSCK set to a
#                                 command (e.g. "$FSCK -n -f"), that
#                                 command must also pass on IMG (exit 0,
#                                 or only findings in POWERCUT_FSCK_ALLOW,
#                                 see powercut_fsck_ok).
#
# How the writers plug in (tests/crash/<writer>.bats, one start image
# each, made by our mkfs and populated beforehand where that matters):
#   mkfs       tests/crash/mkfs.bats: powercut_run OLD check_mkfs --
#              "$MKFS" -f @IMG; a state must be the old volume intact,
#              refused at open, or the complete new volume.
#   populate   tests/crash/populate.bats: powercut_run IMG
#              powercut_check_start_or_final -- "$POPULATE" --root DIR @IMG
#              with POWERCUT_FSCK="$FSCK -n -f": every file there before,
#              or written and committed by the checkpoint, has its content.
#   fsck -y    tests/crash/fsck.bats: powercut_run DAMAGED
#              powercut_check_start_or_final -- "$FSCK" -y @IMG with
#              POWERCUT_WRITER_OK=1, POWERCUT_FSCK="$FSCK -n -f" and the
#              case's own problem codes added to POWERCUT_FSCK_ALLOW: every
#              state opens with the same tree, and fsck finds the original
#              problems or none.
#   gc         tests/crash/gc.bats: on a volume aged by tests/tools/f2age,
#              powercut_check_start_or_final -- "$GC" -m 2 -c 1 @IMG (gc
#              never changes the tree, so every state must show it whole,
#              whatever the checkpoints in between).
#   defrag     tests/crash/defrag.bats: as gc (a range move, --file).
#   fsck -p    tests/crash/fsck-preen.bats: as fsck -y, and a second -p
#              run on the state finishes the repair.
#   roll-forward  tests/recovery/recovery.bats: fsck -y on kernel-made
#              images with a chain; fsck -y run on each state must give
#              the recovered image (f2replay same), else its tree, clean.
#   mkfs --root   tests/crash/mkfs.bats: one log for mkfs and populate
#              (the recorder appends when its process opens the log again).
# A writer that does not take the device path as an argument can be
# wrapped in a small function that finds it in its own arguments.

# The tools run as themselves, not through libtool wrappers: f2_unwrap
# (tests/lib/common.bash), which also sets F2REPLAY and F2WALK.
POWERCUT_ALL=${POWERCUT_ALL:-300}
POWERCUT_SAMPLE=${POWERCUT_SAMPLE:-200}
POWERCUT_TORN=${POWERCUT_TORN:-512 2048}
POWERCUT_SHOW=${POWERCUT_SHOW:-5}

powercut_summary() {
	"$F2WALK" "$1"
}

# The prefixes to check, "K TORN" a line in order: all (TORN 1), or the
# sample described above, where TORN is 1 except for the evenly spaced
# prefixes (0: whole last write only).
powercut_prefixes() {
	local n=$1
	if [ "$n" -le "$POWERCUT_ALL" ]; then
		seq 0 "$n" | sed 's/$/ 1/'
		return
	fi
	{
		seq 0 10
		seq $((n - 10)) "$n"
		# flushes and the writes that start a new run (not where the
		# write before ended): the record and the one before it
		awk '$2 == "flush" || $2 != "write" || $3 != end { print $1 - 1; print $1 }
			{ end = $2 == "write" ? $3 + $4 : -1 }' "$POWERCUT_LIST"
	} | sed 's/$/ 1/'
	awk -v n="$n" -v k="$POWERCUT_SAMPLE" 'BEGIN {
		for (i = 0; i <= k; i++) printf "%d 0\n", int(i * n / k) }'
}

# The same, one line per prefix (TORN 1 wins), in order.
powercut_plan() {
	powercut_prefixes "$1" | awk -v n="$1" '$1 >= 0 && $1 <= n' | sort -n -k1,1 -k2,2r |
		awk 'NR == 1 || $1 != last { print; last = $1 }'
}

# powercut_names BASE: "BASE.0,BASE.1,..." for the devices of the run
# (BASE itself for one device).
powercut_names() {
	local i out=
	if [ "$POWERCUT_NDEVS" -eq 1 ]; then
		echo "$1"
		return
	fi
	for ((i = 0; i < POWERCUT_NDEVS; i++)); do
		out+=${out:+,}$1.$i
	done
	echo "$out"
}

# powercut_copy SRCS DSTS: fresh sparse copies, pairwise (comma lists).
powercut_copy() {
	local -a src dst
	local i
	IFS=, read -ra src <<<"$1"
	IFS=, read -ra dst <<<"$2"
	# (cp truncates an existing destination: no rm)
	for i in "${!src[@]}"; do
		cp --sparse=always "${src[i]}" "${dst[i]}" || return 1
	done
}

# powercut_state K T OUT: the device after prefix K (and T bytes of K+1),
# replayed from the start image (the commit-point summaries use it); OUT
# is a comma list of the device paths for a multi-device run.
powercut_state() {
	local k=$1 t=$2 out=$3
	powercut_copy "$POWERCUT_START" "$out" || return 1
	"$F2REPLAY" apply "$POWERCUT_LOG" "$out" "$k" $([ "$t" -gt 0 ] && echo "$t") >/dev/null
}

# Where the states are made and judged: a fresh directory on /dev/shm
# when it is a tmpfs with 1 GiB free (no fsync cost for writers run on a
# state; nothing there outlives powercut_run), else under POWERCUT_DIR.
powercut_scratch() {
	local avail
	if [ -z "${POWERCUT_NO_SHM:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
		[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		avail=$(df -P -k /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
		if [ "${avail:-0}" -ge $((1024 * 1024)) ]; then
			mktemp -d /dev/shm/f2powercut.XXXXXX && return 0
		fi
	fi
	mkdir -p "$POWERCUT_DIR/scratch" && echo "$POWERCUT_DIR/scratch"
}

# powercut_private IMG: for a CHECK_FN that writes to its state: a fresh
# sparse copy of IMG (the shared cursor) in POWERCUT_IMG.  Not for a
# multi-device state, which must stay at the device paths.
powercut_private() {
	if [ -n "$POWERCUT_DEVS" ]; then
		echo "powercut_private: a multi-device state cannot be copied" >&2
		return 1
	fi
	POWERCUT_IMG=$POWERCUT_SCRATCH/state
	powercut_copy "$1" "$POWERCUT_IMG"
}

# Every state of the run (step 2 and 3 above): the cursor is in
# POWERCUT_SCRATCH, or at the device paths of a multi-device run.
# POWERCUT_AT ("K T") is the state it holds.
powercut_states() {
	local check=$1 n=$POWERCUT_RECORDS k t at=0 rc=0 shown=0 i op off len
	local cursor=${POWERCUT_DEVS:-$POWERCUT_SCRATCH/cursor}
	local -a ops=() lens=() sizes finals curs
	read -ra sizes < <(tr ' ' '\n' <<<"$POWERCUT_TORN" | sed '/^$/d' | sort -n | tr '\n' ' ')
	local tears=${sizes[*]}
	POWERCUT_FLUSHES=() POWERCUT_LAST_WRITE=0
	while read -r i op off len; do
		ops[i]=$op lens[i]=$len
		[ "$op" = flush ] && POWERCUT_FLUSHES+=("$i")
		[ "$op" = write ] && POWERCUT_LAST_WRITE=$i
	done <"$POWERCUT_LIST"
	powercut_copy "$POWERCUT_START" "$cursor" || return 1
	while read -r k torn; do
		"$F2REPLAY" apply "$POWERCUT_LOG" "$cursor" "$at:$k" >/dev/null ||
			{ echo "powercut: cannot replay records $at..$k" >&2; return 1; }
		at=$k
		# the torn sizes of prefix K (step 2)
		[ -n "${POWERCUT_TORN_EACH:-}" ] || [ ${#sizes[@]} -le 1 ] ||
			tears=${sizes[k % ${#sizes[@]}]}
		for t in 0 $tears; do
			if [ "$t" -gt 0 ]; then
				[ "$torn" = 1 ] && [ "$k" -lt "$n" ] && [ "${ops[k + 1]}" = write ] &&
					[ "${lens[k + 1]}" -gt "$t" ] || continue
				"$F2REPLAY" apply "$POWERCUT_LOG" "$cursor" "$k:$k" "$t" >/dev/null ||
					{ echo "powercut: cannot replay prefix $k torn $t" >&2; return 1; }
			fi
			POWERCUT_AT="$k $t"
			POWERCUT_CHECKED=$((POWERCUT_CHECKED + 1))
			if ! "$check" "${cursor%%,*}" "$k" "$t" </dev/null >"$POWERCUT_DIR/check.out" 2>&1; then
				POWERCUT_FAILED=$((POWERCUT_FAILED + 1))
				rc=1
				if [ $shown -lt "$POWERCUT_SHOW" ]; then
					echo "prefix $k torn $t: FAILED:"
					sed 's/^/    /' "$POWERCUT_DIR/check.out" | head -n 40
					shown=$((shown + 1))
				elif [ "$POWERCUT_FAILED" -le 20 ]; then
					echo "prefix $k torn $t: FAILED"
				fi
			fi
		done
	done < <(powercut_plan "$n")
	# every record applied: the writer's devices, unless a check wrote to
	# the cursor or the writer wrote past the I/O layer
	IFS=, read -ra finals <<<"$POWERCUT_FINAL"
	IFS=, read -ra curs <<<"$cursor"
	for i in "${!curs[@]}"; do
		[ "$at" -eq "$n" ] &&
			"$F2REPLAY" same "${curs[i]}" "${finals[i]}" >"$POWERCUT_DIR/same.out" 2>&1 && continue
		echo "powercut: ${curs[i]} after all $n records is not the writer's device" \
			"${finals[i]} (a check wrote to its state, or a write missed the log):"
		cat "$POWERCUT_DIR/same.out"
		rc=1
	done
	return $rc
}

powercut_run() {
	local start=$1 check=$2 n arg rc=0 status dev0
	local -a cmd=()
	# bats traps DEBUG in every function a test calls (set -T) to keep a
	# stack trace: over thousands of states that bookkeeping cost more than
	# the tools.  The functions called from here run without it (the
	# option comes back on return); a failing state reports itself.
	local -
	set +T
	shift 2
	[ "${1:-}" = -- ] || { echo "powercut_run: usage: START CHECK_FN -- WRITER ARGS..." >&2; return 2; }
	shift
	require_prog "$F2REPLAY" "$F2WALK" || return 1
	POWERCUT_DIR=$(f2_tmp)/powercut.$$.$RANDOM
	mkdir -p "$POWERCUT_DIR"
	POWERCUT_NDEVS=$(tr , '\n' <<<"$start" | wc -l)
	POWERCUT_DEVS=
	POWERCUT_START=$(powercut_names "$POWERCUT_DIR/start")
	POWERCUT_FINAL=$(powercut_names "$POWERCUT_DIR/final")
	POWERCUT_LOG=$POWERCUT_DIR/log
	POWERCUT_LIST=$POWERCUT_DIR/list
	POWERCUT_RECORDS=0 POWERCUT_CHECKED=0 POWERCUT_FAILED=0
	powercut_copy "$start" "$POWERCUT_START" || return 1
	if [ "$POWERCUT_NDEVS" -gt 1 ]; then
		# in place: the superblock names the devices by path
		POWERCUT_DEVS=$start
		dev0=${start%%,*}
		powercut_summary "$dev0" >"$POWERCUT_DIR/commit.0" 2>&1 || true
	else
		dev0=$POWERCUT_FINAL
		powercut_copy "$start" "$dev0" || return 1
	fi
	for arg in "$@"; do
		[ "$arg" = @IMG ] && arg=$dev0
		cmd+=("$arg")
	done
	status=0
	F2_IO_RECORD=$POWERCUT_LOG "${cmd[@]}" </dev/null >"$POWERCUT_DIR/writer.out" 2>&1 || status=$?
	case " ${POWERCUT_WRITER_OK:-0} " in
	*" $status "*) ;;
	*)	echo "powercut: the writer failed (exit $status): ${cmd[*]}" >&2
		cat "$POWERCUT_DIR/writer.out" >&2
		return 1 ;;
	esac
	n=$("$F2REPLAY" count "$POWERCUT_LOG") || return 1
	"$F2REPLAY" list "$POWERCUT_LOG" >"$POWERCUT_LIST" || return 1
	POWERCUT_RECORDS=$n
	if [ "$n" -eq 0 ]; then
		echo "powercut: the writer wrote nothing through the I/O layer (is F2_IO_RECORD honoured?)" >&2
		return 1
	fi
	if [ -n "$POWERCUT_DEVS" ]; then
		powercut_copy "$POWERCUT_DEVS" "$POWERCUT_FINAL" || return 1
		powercut_summary "$dev0" >"$POWERCUT_DIR/commit.$n" 2>&1 || true
	fi
	POWERCUT_SCRATCH=$(powercut_scratch) || return 1
	POWERCUT_AT=
	powercut_states "$check" || rc=$?
	POWERCUT_AT=
	rm -rf "$POWERCUT_SCRATCH"
	echo "powercut: $n records, $POWERCUT_CHECKED states checked, $POWERCUT_FAILED failed"
	return $rc
}

# ---- the stock check for checkpointing writers ------------------------------

# The summary at commit point K, computed once per run: in POWERCUT_SUM
# (powercut_commit_sum, no subshell: the checks call it on every state)
# or printed (powercut_commit_summary).
powercut_commit_sum() {
	local k=$1 f=$POWERCUT_DIR/commit.$1
	local img=${POWERCUT_DEVS:-$POWERCUT_DIR/commit.img}
	if [ "${POWERCUT_SUMS_OF:-}" != "$POWERCUT_DIR" ]; then
		POWERCUT_SUMS_OF=$POWERCUT_DIR
		declare -gA POWERCUT_SUMS=()
	fi
	if [ -z "${POWERCUT_SUMS[$k]+set}" ]; then
		if [ ! -f "$f" ]; then
			powercut_state "$k" 0 "$img" || return 1
			powercut_summary "${img%%,*}" >"$f.tmp" 2>&1 || true
			[ -n "$POWERCUT_DEVS" ] || rm -f "$img"
			mv "$f.tmp" "$f"
			# at the device paths, that replaced the state being
			# checked: put it back
			if [ -n "$POWERCUT_DEVS" ] && [ -n "${POWERCUT_AT:-}" ]; then
				powercut_state $POWERCUT_AT "$POWERCUT_DEVS" || return 1
			fi
		fi
		POWERCUT_SUMS[$k]=$(<"$f")
	fi
	POWERCUT_SUM=${POWERCUT_SUMS[$k]}
}

powercut_commit_summary() {
	powercut_commit_sum "$1" || return 1
	printf '%s\n' "$POWERCUT_SUM"
}

# POWERCUT_FSCK on IMG: exit 0, or findings that are all in
# POWERCUT_FSCK_ALLOW (problem codes as fsck prints them at the start of a
# line, "0x020002 NAME: ..."), and no crash.  The default allows only
# CP_NEWER_PACK_BAD: a power cut inside a checkpoint write leaves the newer
# pack torn by design (the older one is the committed state); fsck is right
# to report it, and the volume is consistent.
POWERCUT_FSCK_ALLOW=${POWERCUT_FSCK_ALLOW:-0x020002}
powercut_fsck_ok() {
	local img=$1 out=${POWERCUT_DIR:-${BATS_TEST_TMPDIR:-/tmp}}/fsck.$BASHPID status=0 all
	POWERCUT_FSCK_OUT=$out	# for a caller's further look at the report
	$POWERCUT_FSCK "$img" >"$out" 2>&1 || status=$?
	[ $status -eq 0 ] && return 0
	if [ $status -lt 128 ]; then
		f2_codes "$out"
		all=$REPLY
		# $POWERCUT_FSCK_ALLOW unquoted: a list
		# shellcheck disable=SC2086
		f2_codes "$out" $POWERCUT_FSCK_ALLOW
		[ -n "$all" ] && [ -z "$REPLY" ] && return 0
	fi
	echo "$POWERCUT_FSCK finds the volume inconsistent (exit $status):"
	head -n 30 "$out"
	return 1
}

# The checks both stock checks share: the volume opens and walks without
# damage (f2walk exit 0), POWERCUT_FSCK passes; the summary in POWERCUT_GOT.
powercut_volume_ok() {
	local img=$1 status=0
	POWERCUT_GOT=$(powercut_summary "$img" 2>&1) || status=$?
	if [ $status -ne 0 ]; then
		echo "the read path does not take the volume (f2walk exit $status):"
		echo "$POWERCUT_GOT"
		return 1
	fi
	if [ -n "${POWERCUT_FSCK:-}" ] && ! powercut_fsck_ok "$img"; then
		return 1
	fi
}

# Writers with one commit (populate, roll-forward) or that never change
# the tree (gc, defrag): every state shows the start's tree or the end's.
powercut_check_start_or_final() {
	local img=$1
	powercut_volume_ok "$img" || return 1
	powercut_commit_sum 0 && [ "$POWERCUT_GOT" = "$POWERCUT_SUM" ] && return 0
	powercut_commit_sum "$POWERCUT_RECORDS" && [ "$POWERCUT_GOT" = "$POWERCUT_SUM" ] && return 0
	echo "the tree is neither the start's nor the end's; diff against the end's:"
	diff <(powercut_commit_summary "$POWERCUT_RECORDS") <(echo "$POWERCUT_GOT") | head -n 20
	return 1
}

# mkfs over a device: the old volume (commit point 0), refused at open
# (f2walk exit 3), or the new volume, judged by powercut_check_start_or_final
# with POWERCUT_FSCK; before mkfs's last write (the backup superblock,
# after the primary) fsck may only find the backup superblock missing
# (SB_BACKUP_BAD).  Sets POWERCUT_NEW=1 when the state is the new volume
# (a caller adds its own checks of it), else empty.
powercut_check_mkfs() {
	local got status=0 last allow=
	POWERCUT_NEW=
	got=$(powercut_summary "$1" 2>&1) || status=$?
	[ $status -eq 3 ] && return 0
	[ $status -eq 0 ] && powercut_commit_sum 0 && [ "$got" = "$POWERCUT_SUM" ] && return 0
	[ "$2" -lt "$POWERCUT_LAST_WRITE" ] && allow=0x010002
	POWERCUT_NEW=1
	POWERCUT_FSCK_ALLOW=$allow powercut_check_start_or_final "$1"
}

# The last run covered its log: every prefix, or a sample of 200 or more.
powercut_covered() {
	if [ "$POWERCUT_RECORDS" -le "$POWERCUT_ALL" ]; then
		[ "$POWERCUT_CHECKED" -gt "$POWERCUT_RECORDS" ]
	else
		[ "$POWERCUT_CHECKED" -ge 200 ]
	fi
}

# Writers that checkpoint several times: the tree of the commit point
# before K or after it.  The trees at the commit points themselves are
# only checked to open, walk and pass fsck: a test that knows what they
# should hold compares them itself (powercut_commit_summary K).
powercut_check_committed() {
	local img=$1 k=$2 prev=0 next=$POWERCUT_RECORDS got f
	powercut_volume_ok "$img" || return 1
	got=$POWERCUT_GOT
	for f in "${POWERCUT_FLUSHES[@]}"; do
		if [ "$f" -le "$k" ]; then
			prev=$f
		else
			next=$f
			break
		fi
	done
	powercut_commit_sum "$prev" && [ "$got" = "$POWERCUT_SUM" ] && return 0
	powercut_commit_sum "$next" && [ "$got" = "$POWERCUT_SUM" ] && return 0
	echo "the tree is neither that of commit point $prev nor of $next; diff against $prev:"
	diff <(powercut_commit_summary "$prev") <(echo "$got") | head -n 20
	return 1
}
