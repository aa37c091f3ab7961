# SPDX-License-Identifier: GPL-2.0-or-later
# tests/recovery/images.bash - the kernel-written power-cut images of
# tests/recovery, one per scenario of guest/make.sh, made in one QEMU boot
# and cached in tests/.cache/recovery/<hash>/ (hash of the guest script,
# the guest helper, the kernel release and the reference mkfs version).
#
#   rf_images_build     sets RF_IMAGES (the cache directory) or returns 1
#                       with RF_ERROR set
#   RF_SCENARIOS        the scenarios, in disk order

RF_SCENARIOS="newfile append midwrite newdir many truncate unlinked inline indirect xattr dirs xnode changes"
RF_GUEST=$F2_TOP/tests/recovery/guest
RF_CACHE=$F2_TOP/tests/.cache/recovery/linux-${F2_KERNEL:-6.1}

# Extra reference mkfs options of a scenario.
rf_mkfs_opts() {
	case $1 in
	changes) echo "-O extra_attr,compression" ;;
	esac
}

rf_hash() {
	{
		cat "$RF_GUEST/make.sh" "$RF_GUEST/fsyncw.c"
		declare -f rf_mkfs_opts
		echo "$KERNEL_RELEASE"
		"$REF_MKFS" -V 2>&1 | head -n 1
	} | sha256sum | cut -c1-16
}

# rf_make DIR: format, boot, cut.
rf_make() {
	local dir=$1 s status=0
	local -a disks=()
	for s in $RF_SCENARIOS; do
		truncate -s 256M "$dir/$s.img" || return 1
		"$REF_MKFS" -f $(rf_mkfs_opts "$s") "$dir/$s.img" </dev/null >"$dir/$s.mkfs.log" 2>&1 ||
			{ echo "FAIL reference mkfs for $s"; return 1; }
		disks+=("$dir/$s.img")
	done
	${CC:-cc} -O2 -Wall -Wextra -o "$dir/fsyncw" "$RF_GUEST/fsyncw.c" || return 1
	kernel_add_binary "$dir/fsyncw" || return 1
	kernel_add_binary /usr/bin/setfattr || return 1
	kernel_add_binary /usr/bin/chattr || return 1
	KERNEL_RUN_DIR=$dir/run KERNEL_TIMEOUT=900 kernel_run "$RF_GUEST/make.sh" "${disks[@]}" ||
		status=$?
	cp "$KERNEL_OUT" "$dir/guest.log"
	cp "$KERNEL_LOG" "$dir/console.log"
	rm -rf "$dir/run"
	# the power cut leaves no exit marker: 125 with F2RF-CUT is success
	if ! grep -q '^F2RF-CUT' "$dir/guest.log" || grep -q '^F2RF-FAIL' "$dir/guest.log"; then
		echo "FAIL the guest did not reach the power cut (status $status)"
		cat "$dir/guest.log"
		tail -n 30 "$dir/console.log"
		return 1
	fi
	if [ "$status" != 125 ]; then
		echo "FAIL the guest exited normally ($status): no power cut"
		return 1
	fi
}

# rf_make_twice DIR FAILLOG: rf_make, and once more when a guest program
# died (a setfattr segfault in base_xnode spoilt one CI build under TCG):
# the first build's log is kept in FAILLOG and named in DIR/retried
rf_make_twice() {
	rf_make "$1" >"$1/build.log" 2>&1 && return 0
	cp "$1/build.log" "$2"
	find "$1" -mindepth 1 -delete
	rf_make "$1" >"$1/build.log" 2>&1 || return 1
	echo "$2" >"$1/retried"
}

rf_images_build() {
	local hash dir tmp lockfd rc=0
	RF_ERROR=
	kernel_setup || { RF_ERROR="kernel unavailable: $KERNEL_UNAVAILABLE"; return 1; }
	hash=$(rf_hash)
	dir=$RF_CACHE/$hash
	if [ ! -f "$dir/.ready" ]; then
		mkdir -p "$RF_CACHE" || return 1
		exec {lockfd}>"$RF_CACHE/.lock"
		flock "$lockfd"
		if [ ! -f "$dir/.ready" ]; then
			tmp=$RF_CACHE/.build.$hash.$$
			rm -rf "$RF_CACHE"/.build.* "$dir"
			mkdir -p "$tmp"
			if rf_make_twice "$tmp" "$RF_CACHE/.failed-build.$hash.log"; then
				mv "$tmp" "$dir" && : >"$dir/.ready" || rc=1
			else
				RF_ERROR="building the recovery images failed: $(tail -n 40 "$tmp/build.log")"
				rm -rf "$tmp"
				rc=1
			fi
		fi
		flock -u "$lockfd"; exec {lockfd}>&-
	fi
	[ "$rc" = 0 ] || return 1
	RF_IMAGES=$dir
	export RF_IMAGES
}
