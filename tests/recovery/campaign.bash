# SPDX-License-Identifier: GPL-2.0-or-later
# tests/recovery/campaign.bash - the seeded roll-forward campaign shared by
# tests/recovery/campaign.bats and bench/rf-campaign.  Each seed is one
# disk: the reference mkfs with the seed's features, guest/rfwork.c's
# general phase, a sync, its fsync phase, then the power cut
# (guest/rfmake.sh, one boot for a batch of seeds).  Copy A is rolled
# forward by Linux in the verify boot (guest/rfverify.sh), copy B by our
# fsck -y on the host, then mounted -o ro,norecovery; every path's type,
# mode, owner, inode number, link count, and for files size, md5 and user
# xattrs must be the same (directory times are not compared: the driver
# stamps a directory it adds an entry to with the mount time).  Both our
# fsck -f -n and the reference fsck --dry-run -f must find B clean, and
# no mount may log a complaint.
#
# Needs tests/lib/common.bash and kernel.bash loaded.
#
#   rfc_features SEED           the seed's feature set (a name)
#   rfc_make DIR SEED...        one make boot: DIR/SEED.img for each seed
#   rfc_host DIR SEED           our fsck -y on DIR/SEED.b.img, both checks
#   rfc_verify DIR SEED...      one verify boot: DIR/verify.out (appended)
#   rfc_judge DIR SEED          one result line ending ok, DIFF or KFAIL
#                               (Linux failed to mount its own image A:
#                               no judge; ours must still be clean);
#                               status 1 on DIFF
#   rfc_batch DIR SEED...       all of the above for a batch; lines on stdout

RFC_GUEST=$F2_TOP/tests/recovery/guest
RFC_SIZE=${RFC_SIZE:-160M}

# A feature set per seed, in turn.
rfc_features() {
	case $(($1 % 6)) in
	0) echo default ;;
	1) echo xattr-csum ;;
	2) echo quota ;;
	3) echo s2z2 ;;
	4) echo heap ;;
	5) echo full ;;
	esac
}

rfc_mkfs_opts() {
	case $(rfc_features "$1") in
	xattr-csum) echo "-O extra_attr,inode_checksum,flexible_inline_xattr" ;;
	quota) echo "-O quota" ;;
	s2z2) echo "-s 2 -z 2" ;;
	heap) echo "-a 1" ;;
	esac
}

# What the made images depend on (the suite's cache key).
rfc_hash() {
	{
		cat "$RFC_GUEST/rfmake.sh" "$RFC_GUEST/rfwork.c"
		declare -f rfc_features rfc_mkfs_opts
		echo "$RFC_SIZE $KERNEL_RELEASE $*"
		"$REF_MKFS" -V 2>&1 | head -n 1
	} | sha256sum | cut -c1-16
}

# rfc_make DIR SEED...: format, boot, work, cut.  The boot's logs are
# DIR/make.guest.log and DIR/make.console.log.
rfc_make() {
	local dir=$1 s status=0 full
	local -a disks=()
	shift
	: >"$dir/plan"
	for s in "$@"; do
		rm -f "$dir/$s.img"
		truncate -s "$RFC_SIZE" "$dir/$s.img" || return 1
		"$REF_MKFS" -f $(rfc_mkfs_opts "$s") "$dir/$s.img" </dev/null >"$dir/$s.mkfs.log" 2>&1 ||
			{ echo "FAIL reference mkfs for seed $s"; return 1; }
		full=-; [ "$(rfc_features "$s")" = full ] && full=full
		echo "$s $full" >>"$dir/plan"
		disks+=("$dir/$s.img")
	done
	${CC:-cc} -O2 -Wall -Wextra -o "$dir/rfwork" "$RFC_GUEST/rfwork.c" || return 1
	kernel_add_binary "$dir/rfwork" || return 1
	KERNEL_FILES="$dir/plan:/guest/plan" KERNEL_RUN_DIR=$dir/run \
		KERNEL_TIMEOUT=${RFC_MAKE_TIMEOUT:-$((30 + 6 * $#))} \
		kernel_run "$RFC_GUEST/rfmake.sh" "${disks[@]}" || status=$?
	cp "$KERNEL_OUT" "$dir/make.guest.log"
	cp "$KERNEL_LOG" "$dir/make.console.log"
	rm -rf "$dir/run"
	# the power cut leaves no exit marker: 125 with F2RF-CUT is success
	if ! grep -q '^F2RF-CUT' "$dir/make.guest.log" || grep -q '^F2RF-FAIL' "$dir/make.guest.log" ||
		[ "$status" != 125 ]; then
		echo "FAIL the make boot did not end in the power cut (status $status)"
		tail -n 20 "$dir/make.guest.log" "$dir/make.console.log"
		return 1
	fi
}

# rfc_host DIR SEED: copies A and B; our fsck -y recovers B, then our
# fsck -f -n and the reference fsck --dry-run -f check it (exit codes in
# DIR/SEED.{y,n,ref}.rc, output in .out).
rfc_host() {
	local dir=$1 s=$2 st
	cp --sparse=always "$dir/$s.img" "$dir/$s.a.img"
	cp --sparse=always "$dir/$s.img" "$dir/$s.b.img"
	st=0; "$FSCK" -y "$dir/$s.b.img" >"$dir/$s.y.out" 2>&1 || st=$?
	echo $st >"$dir/$s.y.rc"
	st=0; "$FSCK" -f -n "$dir/$s.b.img" >"$dir/$s.n.out" 2>&1 || st=$?
	echo $st >"$dir/$s.n.rc"
	rfc_ref "$dir/$s.b.img" "$dir/$s.ref"
}

# rfc_ref IMG OUT: the reference fsck --dry-run -f on a copy of IMG;
# OUT.out its output, OUT.rc 0 when it finds it clean.  With -f it says
# "Force to fix corruption" and, even on a fresh mkfs image, "Corrupted
# valid nat_bits": both lines are left out of the verdict.
rfc_ref() {
	local st=0
	cp --sparse=always "$1" "$2.img"
	"$REF_FSCK" --dry-run -f "$2.img" </dev/null >"$2.out" 2>&1 || st=$?
	grep -v '^Info: Force to fix corruption$\|^Info: Corrupted valid nat_bits in checkpoint$' \
		"$2.out" >"$2.vout"
	f2_ref_fsck_verdict "$2.vout" "$st" && st=0 || st=${st/#0/1}
	echo $st >"$2.rc"
	rm -f "$2.img" "$2.vout"
}

# rfc_peer DIR SEED: after the verify boot, the driver's own result (A,
# recovered and unmounted by Linux) checked by both fscks: a finding on
# B that A shares is the checker's, not our roll-forward's.
rfc_peer() {
	local dir=$1 s=$2 st=0
	"$FSCK" -f -n "$dir/$s.a.img" >"$dir/$s.an.out" 2>&1 || st=$?
	echo $st >"$dir/$s.an.rc"
	rfc_ref "$dir/$s.a.img" "$dir/$s.aref"
}

# rfc_verify DIR SEED...: one boot, A disks then B disks.
rfc_verify() {
	local dir=$1 s st=0
	local -a disks=()
	shift
	printf '%s\n' "$@" >"$dir/vplan"
	for s in "$@"; do disks+=("$dir/$s.a.img"); done
	for s in "$@"; do disks+=("$dir/$s.b.img"); done
	kernel_add_binary /usr/bin/getfattr || return 1
	KERNEL_FILES="$dir/vplan:/guest/plan" KERNEL_RUN_DIR=$dir/vrun \
		KERNEL_TIMEOUT=${RFC_VERIFY_TIMEOUT:-$((30 + 8 * $#))} \
		kernel_run "$RFC_GUEST/rfverify.sh" "${disks[@]}" >>"$dir/verify.err" 2>&1 || st=$?
	cat "$KERNEL_OUT" >>"$dir/verify.out"
	cat "$KERNEL_LOG" >>"$dir/verify.console.log"
	rm -rf "$dir/vrun"
	return $st
}

# rfc_kmsg DIR SEED TAGS: the kernel's complaints while mounting that
# seed's copies TAGS (e.g. ABN): f2fs, quota and oops lines, less the
# notices below (lines of TCG timing, such as a slow clocksource, are
# none of our business)
rfc_kmsg() {
	grep "^K [$3] $2 " "$1/verify.out" |
		grep -Ei 'f2fs|quota|warning|bug|call trace|oops|error|corrupt|rip:' |
		grep -Ev "$RFC_KMSG_OK"
}

# Kernel notices that are no complaint.
RFC_KMSG_OK='Mounted with checkpoint version|orphan cleanup on readonly fs|Disable nat_bits due to incorrect cp_ver|recover fsync data on readonly fs|checkpoint: version = |recover_inode: ino = |recover_(data|dentry): .*err = 0$'

# rfc_judge DIR SEED: prints "seed features files diffs ... verdict" and
# keeps the evidence in DIR/SEED.why; status 1 on any difference.
rfc_judge() {
	local dir=$1 s=$2 t files diffs rec bad=0 km
	local y n ref an aref verdict
	y=$(cat "$dir/$s.y.rc"); n=$(cat "$dir/$s.n.rc"); ref=$(cat "$dir/$s.ref.rc")
	: >"$dir/$s.why"
	for t in A B; do
		grep "^$t $s " "$dir/verify.out" | cut -d' ' -f3- >"$dir/$s.$t.list"
		grep -qx 'end' "$dir/$s.$t.list" || { echo "no listing $t" >>"$dir/$s.why"; bad=1; }
	done
	grep -qx "N $s end" "$dir/verify.out" || { echo "N: mount failed" >>"$dir/$s.why"; bad=1; }
	files=$(grep -vc '^end$' "$dir/$s.A.list" || true)
	# differing paths: lines of one side only, counted once per path
	diffs=$(diff "$dir/$s.A.list" "$dir/$s.B.list" | sed -n 's/^[<>] [^ ]* \([^ ]*\) .*/\1/p' |
		sort -u | wc -l)
	[ "$diffs" = 0 ] || { diff "$dir/$s.A.list" "$dir/$s.B.list" >>"$dir/$s.why"; bad=1; }
	case $y in 0|1) ;; *) echo "fsck -y exit $y" >>"$dir/$s.why"; bad=1 ;; esac
	[ "$n" = 0 ] || { echo "our fsck -f -n exit $n:"; cat "$dir/$s.n.out"; } >>"$dir/$s.why"
	[ "$ref" = 0 ] || { echo "reference fsck exit $ref:"; cat "$dir/$s.ref.out"; } >>"$dir/$s.why"
	[ "$n" = 0 ] || bad=1
	# the reference fsck is a peer with bugs of its own: a complaint
	# counts when it finds the driver's own result clean
	an=$(cat "$dir/$s.an.rc"); aref=$(cat "$dir/$s.aref.rc")
	[ "$ref" = 0 ] || [ "$aref" != 0 ] || bad=1
	[ "$an" = 0 ] || { echo "our fsck -f -n on A exit $an:"; cat "$dir/$s.an.out"; } >>"$dir/$s.why"
	km=$(rfc_kmsg "$dir" "$s" ABN | grep -c . || true)
	[ "$km" = 0 ] || rfc_kmsg "$dir" "$s" ABN >>"$dir/$s.why"
	[ "$km" = 0 ] || bad=1
	rec=$(grep -c '^roll-forward: recovered' "$dir/$s.y.out" || true)
	# Linux could not mount what it wrote itself (A): no judge for this
	# seed; ours still has to be clean and quiet
	verdict=ok
	[ $bad = 0 ] || verdict=DIFF
	if grep -qx 'mount-failed' "$dir/$s.A.list"; then
		verdict=KFAIL
		[ "$n" = 0 ] && [ "$ref" = 0 ] && [ "$y" -le 1 ] &&
			! rfc_kmsg "$dir" "$s" BN | grep -q . ||
			verdict=DIFF
	fi
	printf '%6s %-10s files=%-4s diffs=%-3s recovered=%-3s fsck-y=%s fsck-n=%s ref=%s kmsg=%s A:fsck-n=%s,ref=%s %s\n' \
		"$s" "$(rfc_features "$s")" "$files" "$diffs" "$rec" "$y" "$n" "$ref" "$km" "$an" "$aref" \
		"$verdict"
	[ $verdict != DIFF ]
}

# rfc_batch DIR SEED...: make, recover, verify, judge; status 1 when a
# seed differs, 2 when a boot failed.
rfc_batch() {
	local dir=$1 s rc=0
	shift
	rfc_make "$dir" "$@" >"$dir/make.err" 2>&1 || { cat "$dir/make.err"; return 2; }
	for s in "$@"; do rfc_host "$dir" "$s"; done
	rfc_verify "$dir" "$@" || { echo "FAIL the verify boot failed"; tail -n 30 "$dir/verify.err"; return 2; }
	for s in "$@"; do rfc_peer "$dir" "$s"; done
	for s in "$@"; do rfc_judge "$dir" "$s" || rc=1; done
	return $rc
}
