# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lib/kernel.bash - run shell scripts against the real f2fs driver in
# a Linux kernel booted under qemu-system-x86_64 -accel tcg.  Nothing is
# ever mounted or loaded on the host.
#
# Load with:   load ../lib/common; load ../lib/kernel
#
#   kernel_setup          idempotent: apt-get download the newest Debian
#                         kernel of the series $F2_KERNEL (below), dpkg -x
#                         it under tests/.cache/kernel/<release>/, build
#                         the base initramfs (busybox + modules, xz ones
#                         decompressed + /init).  Returns 1 with
#                         $KERNEL_UNAVAILABLE set if it cannot.
#   kernel_require        kernel_setup, or bats `skip` when the kernel
#                         cannot be had (no network and nothing cached).
#   kernel_add_binary P   stage host program P (ELF or libtool wrapper)
#                         and its shared libraries for the next kernel_run;
#                         it runs in the guest as /bin/$(basename P).
#   kernel_run SCRIPT IMG...
#                         boot, attach each IMG as virtio disk /dev/vda,
#                         /dev/vdb, ..., run SCRIPT with busybox sh in the
#                         guest, power off.  Returns SCRIPT's exit status
#                         (125: no exit marker, e.g. a hang or a panic;
#                         124: host timeout).
#   kernel_output         SCRIPT's stdout+stderr of the last run
#   kernel_dmesg          the guest's dmesg at the end of the last run
#   report_of, report_manifest, expect_report  a tagged guest report
#   kernel_ran [LOG]      for setup(): setup_file's boot happened
#
# Which kernel: F2_KERNEL, a series: "6.1" (default; Debian 12's
# linux-image-6.1.0-N-amd64) or "6.12" (Debian 12's security suite:
# linux-image-6.12.N+deb12-amd64; modules are .ko.xz, virtio built in).
# After kernel_setup, KERNEL_SERIES holds the series, KERNEL_RELEASE the
# release (6.1.0-57-amd64, 6.12.118+deb12-amd64).
#
# Environment for kernel_run:
#   KERNEL_FILES="host:guest ..."  files or directories copied into the
#                         per-run initramfs (guest paths absolute)
#   KERNEL_ZONED=ZIMG     also attach ZIMG as a zoned NVMe namespace
#                         (/dev/nvme0n1, host-managed); zone size and
#                         capacity from KERNEL_ZONE_SIZE / KERNEL_ZONE_CAP
#                         (default 64M / same as the size)
#   KERNEL_ZONED2=ZIMG    with KERNEL_ZONED: a second zoned namespace
#                         (/dev/nvme0n2, same zone size, capacity
#                         KERNEL_ZONE_CAP2); the guest script waits for it
#   KERNEL_TIMEOUT        host-side limit in seconds (default 600), for a
#                         machine that boots a guest to its /init in
#                         KERNEL_BOOT_NOMINAL seconds (default 8); each run
#                         scales it by how much slower the last boot of
#                         this cache was (x1 to x4), so a busy machine
#                         does not turn a slow guest into a failure
#   KERNEL_MEM KERNEL_SMP guest memory (default 1G) and CPUs (default 1:
#                         the fixture build took 6% less CPU than with 2,
#                         and the suite keeps both host cores busy with
#                         several lanes anyway; one vCPU also avoids the
#                         cross-CPU text patching that an int3 oops in an
#                         early 6.12 boot under TCG points to)
#   KERNEL_NO_PVH=1       boot the bzImage, not the uncompressed kernel
#                         kernel_setup extracts from it (f2k_vmlinux)
#   KERNEL_RUN_DIR        where logs and the per-run initramfs go
#                         (default: a fresh directory under f2_tmp)
# After a run: $KERNEL_LOG (console: kernel, init markers, dmesg) and
# $KERNEL_OUT (the script's output, from the guest's second serial port).
#
# Inside the guest: busybox applets on PATH, /tmp is a tmpfs, /mnt exists,
# F2DISKS holds the number of virtio disks, staged binaries are in /bin
# with their libraries in /lib/x86_64-linux-gnu.

KERNEL_CACHE=${KERNEL_CACHE:-${F2_TOP:?load ../lib/common first}/tests/.cache/kernel}
KERNEL_MODULES_WANTED="virtio_pci virtio_blk crc32_generic crc32c_generic
	lz4 lz4hc zstd lz4_compress lz4hc_compress zstd_compress quota_tree quota_v2 f2fs nvme loop"
KERNEL_UNAVAILABLE=

# The package-name pattern (an anchored ERE) and the release glob of the
# series in $F2_KERNEL.
f2k_series() {
	case ${F2_KERNEL:-6.1} in
	6.1) echo '^linux-image-6\.1\.0-[0-9]+-amd64$ 6.1.0-*-amd64' ;;
	6.12) echo '^linux-image-6\.12\.[0-9]+\+deb12-amd64$ 6.12.*+deb12-amd64' ;;
	*) return 1 ;;
	esac
}

f2k_note() { printf 'kernel.bash: %s\n' "$*" >&2; }

# The newest image package of the series apt knows (a real image package,
# not the meta package), with a download candidate.  The answer is kept in
# $KERNEL_CACHE/.pick-SERIES while it is newer than apt's package lists:
# the search costs a second of CPU, and every suite's tests ask.
f2k_pick_package() {
	local p pat pick=$KERNEL_CACHE/.pick-${F2_KERNEL:-6.1}
	if [ -s "$pick" ] && [ "$pick" -nt /var/lib/apt/lists ]; then
		read -r p <"$pick" && [ -n "$p" ] && { echo "$p"; return 0; }
	fi
	pat=$(f2k_series | cut -d' ' -f1) || return 1
	for p in $(apt-cache search --names-only "$pat" 2>/dev/null |
		awk '{print $1}' | sort -V -r); do
		if apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
			echo "$p" >"$pick.$$" && mv -f "$pick.$$" "$pick"
			echo "$p"
			return 0
		fi
	done
	return 1
}

# Newest release already unpacked and ready in the cache.
f2k_cached_release() {
	local d glob
	glob=$(f2k_series | cut -d' ' -f2) || return 1
	for d in $(ls -d "$KERNEL_CACHE"/$glob 2>/dev/null | sort -V -r); do
		[ -f "$d/.ready" ] && { basename "$d"; return 0; }
	done
	return 1
}

# Module name (with - and _ equivalent) -> path of the .ko or .ko.xz.
f2k_module_path() {
	local name=${1//-/_}
	awk -v n="$name" '{ b = $0; sub(/.*\//, "", b); sub(/\.ko(\.xz|\.zst|\.gz)?$/, "", b);
		gsub(/-/, "_", b); if (b == n) { print; exit } }' "$KERNEL_DIR/.modlist"
}

# One module's dependencies (depends= and softdep pre:), from its .modinfo.
f2k_module_deps() {
	local ko=$1
	f2k_cat_module "$ko" | tr '\0' '\n' | awk '
		/^depends=/ { s = substr($0, 9); gsub(/,/, " ", s); printf "%s ", s }
		/^softdep=/ { s = $0; if (sub(/.*pre: */, "", s)) { sub(/ post:.*/, "", s); printf "%s ", s } }'
	echo
}

f2k_cat_module() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.zst) zstd -dc "$1" ;;
	*.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac
}

# modules.dep for the unpacked tree: the .deb ships none (depmod makes it
# at install time), so derive it from each wanted module's .modinfo.
f2k_write_modules_dep() {
	local mdir=$1 name ko dep queue seen=" " line
	find "$mdir/kernel" -name '*.ko*' | sed "s|^$mdir/||" | sort >"$KERNEL_DIR/.modlist"
	: >"$mdir/modules.dep.f2k"
	queue=$KERNEL_MODULES_WANTED
	while [ -n "${queue// /}" ]; do
		set -- $queue
		name=${1//-/_}; shift; queue="$*"
		case $seen in *" $name "*) continue ;; esac
		seen="$seen$name "
		ko=$(f2k_module_path "$name")
		if [ -z "$ko" ]; then
			# built in, or a softdep alias such as "crc32"
			continue
		fi
		line="$ko:"
		for dep in $(f2k_module_deps "$mdir/$ko"); do
			local dko
			dko=$(f2k_module_path "$dep")
			[ -n "$dko" ] && line="$line $dko"
			queue="$queue $dep"
		done
		echo "$line" >>"$mdir/modules.dep.f2k"
	done
}

# Load order: depth-first over modules.dep.f2k, dependencies first.
f2k_load_order() {
	awk -F: '
		{ deps[$1] = $2; order[++n] = $1 }
		function visit(m,   a, k, i) {
			if (m in done) return
			done[m] = 1
			k = split(deps[m], a, " ")
			for (i = 1; i <= k; i++) visit(a[i])
			print m
		}
		END { for (i = 1; i <= n; i++) visit(order[i]) }' "$1"
}

f2k_build_base_initramfs() {
	local rel=$1 root=$KERNEL_DIR/root stage=$KERNEL_DIR/stage ko base mdir
	mdir=$root/lib/modules/$rel
	rm -rf "$stage"
	mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,mnt,guest,lib/modules,lib/x86_64-linux-gnu,lib64,usr/bin,usr/sbin}
	cp /bin/busybox "$stage/bin/busybox" || return 1
	f2k_write_modules_dep "$mdir" || return 1
	: >"$stage/etc/f2-modules"
	for ko in $(f2k_load_order "$mdir/modules.dep.f2k"); do
		base=${ko##*/}; base=${base%.xz}; base=${base%.zst}; base=${base%.gz}
		f2k_cat_module "$mdir/$ko" >"$stage/lib/modules/$base" || return 1
		echo "${base%.ko}" >>"$stage/etc/f2-modules"
	done
	f2k_write_init >"$stage/init" && chmod 755 "$stage/init" || return 1
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -9) \
		>"$KERNEL_DIR/base.cpio.gz.tmp" &&
		mv "$KERNEL_DIR/base.cpio.gz.tmp" "$KERNEL_DIR/base.cpio.gz"
}

# The guest's /init.  Markers on the console (ttyS0): F2GUEST-BEGIN,
# F2GUEST-EXIT=<status>, then the dmesg between F2GUEST-DMESG-BEGIN/END.
# The script's own output goes to the second serial port (ttyS1).
f2k_write_init() {
	cat <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p"; }
while read -r m; do
	insmod /lib/modules/$m.ko 2>/dev/null ||
		grep -q "^$(echo "$m" | tr - _) " /proc/modules || echo "F2GUEST-INSMOD-FAILED=$m"
done </etc/f2-modules
export F2DISKS=$(arg f2disks) F2ZONED=$(arg f2zoned)
# wait (up to 20 s) for every disk the host attached
i=0
while [ $i -lt 200 ]; do
	n=$(ls -d /sys/block/vd* 2>/dev/null | wc -l)
	z=1; [ "$F2ZONED" = 1 ] && [ ! -b /dev/nvme0n1 ] && z=0
	[ "$n" -ge "${F2DISKS:-0}" ] && [ $z = 1 ] && break
	sleep 0.1; i=$((i + 1))
done
stty -F /dev/ttyS1 raw -echo 2>/dev/null
echo "F2GUEST-BEGIN uptime=$(cut -d' ' -f1 /proc/uptime) disks=$n"
cd /tmp
sh /guest/script.sh </dev/null >/dev/ttyS1 2>&1
echo "F2GUEST-EXIT=$?"
sync
echo F2GUEST-DMESG-BEGIN
dmesg
echo F2GUEST-DMESG-END
poweroff -f
EOF
}

# f2k_vmlinux BZIMAGE OUT: the uncompressed kernel inside BZIMAGE, if it
# can enter through PVH (an ELF note of type 0x12, CONFIG_PVH): QEMU then
# loads it directly, and the guest skips decompressing itself under TCG
# (3 s of a boot).  The payload is found by the boot header (setup_sects
# at 0x1f1, payload_offset and payload_length at 0x248) and ends with the
# 4-byte uncompressed size, which the decompressors do not take.
f2k_vmlinux() {
	local bz=$1 out=$2 sects off len start magic
	sects=$(od -An -tu1 -j $((0x1f1)) -N1 "$bz" | tr -d ' ') || return 1
	read -r off len < <(od -An -tu4 -j $((0x248)) -N8 "$bz") || return 1
	[ -n "$len" ] && [ "$len" -gt 4 ] || return 1
	[ "${sects:-0}" -ne 0 ] || sects=4
	start=$(( (sects + 1) * 512 + off ))
	magic=$(od -An -tx1 -j "$start" -N4 "$bz" | tr -d ' \n')
	tail -c +$((start + 1)) "$bz" | head -c $((len - 4)) | case $magic in
		fd377a58) xz -dc ;;
		28b52ffd) zstd -qdc ;;
		1f8b*) gzip -dc ;;
		*) false ;;
		esac >"$out.tmp" 2>/dev/null &&
	readelf -n "$out.tmp" 2>/dev/null | grep -q 'note type: (0x00000012)' &&
	mv "$out.tmp" "$out" || { rm -f "$out.tmp"; return 1; }
}

kernel_setup() {
	local pkg rel dl tmp lockfd
	KERNEL_UNAVAILABLE=
	if ! f2k_series >/dev/null; then
		echo "kernel.bash: F2_KERNEL=$F2_KERNEL is not a known series (6.1, 6.12)" >&2
		return 1
	fi
	if [ -n "${KERNEL_RELEASE:-}" ] && [ "${KERNEL_SERIES:-}" = "${F2_KERNEL:-6.1}" ] &&
		[ -f "$KERNEL_CACHE/$KERNEL_RELEASE/.ready" ]; then
		return 0
	fi
	mkdir -p "$KERNEL_CACHE" || return 1
	exec {lockfd}>"$KERNEL_CACHE/.lock"
	flock "$lockfd"
	pkg=$(f2k_pick_package)
	if [ -z "$pkg" ]; then
		apt-get update -qq >/dev/null 2>&1
		pkg=$(f2k_pick_package)
	fi
	rel=
	if [ -n "$pkg" ]; then
		rel=${pkg#linux-image-}
		if [ ! -f "$KERNEL_CACHE/$rel/.ready" ]; then
			dl=$KERNEL_CACHE/dl
			rm -rf "$dl" && mkdir -p "$dl"
			f2k_note "downloading $pkg"
			if (cd "$dl" && apt-get download -qq "$pkg" >download.log 2>&1); then
				tmp=$KERNEL_CACHE/$rel.tmp
				rm -rf "$tmp" && mkdir -p "$tmp/root"
				if dpkg -x "$dl"/"$pkg"_*.deb "$tmp/root"; then
					rm -rf "$KERNEL_CACHE/$rel" && mv "$tmp" "$KERNEL_CACHE/$rel"
				else
					f2k_note "dpkg -x of $pkg failed"
					rel=
				fi
			else
				f2k_note "apt-get download $pkg failed: $(tail -n 2 "$dl/download.log")"
				rel=
			fi
			rm -rf "$dl"
		fi
	fi
	# offline: fall back to what an earlier run left
	[ -n "$rel" ] || rel=$(f2k_cached_release || true)
	if [ -z "$rel" ] || [ ! -d "$KERNEL_CACHE/$rel/root" ]; then
		KERNEL_UNAVAILABLE="no Linux ${F2_KERNEL:-6.1} image ($(f2k_series | cut -d' ' -f2)) could be downloaded and none is cached"
		flock -u "$lockfd"; exec {lockfd}>&-
		return 1
	fi
	KERNEL_DIR=$KERNEL_CACHE/$rel
	# .ready holds the module list the initramfs was built with: a changed
	# list rebuilds it
	if [ "$(cat "$KERNEL_DIR/.ready" 2>/dev/null)" != "$(echo $KERNEL_MODULES_WANTED)" ]; then
		if ! f2k_build_base_initramfs "$rel"; then
			KERNEL_UNAVAILABLE="building the initramfs for $rel failed"
			flock -u "$lockfd"; exec {lockfd}>&-
			return 1
		fi
		echo $KERNEL_MODULES_WANTED >"$KERNEL_DIR/.ready"
	fi
	KERNEL_VMLINUZ=$KERNEL_DIR/root/boot/vmlinuz-$rel
	# the PVH entry when the kernel has one (tried once: .pvh-tried)
	if [ ! -f "$KERNEL_DIR/vmlinux" ] && [ ! -f "$KERNEL_DIR/.pvh-tried" ]; then
		f2k_vmlinux "$KERNEL_VMLINUZ" "$KERNEL_DIR/vmlinux" ||
			f2k_note "no PVH entry in $rel: booting the bzImage"
		: >"$KERNEL_DIR/.pvh-tried"
	fi
	[ -f "$KERNEL_DIR/vmlinux" ] && [ -z "${KERNEL_NO_PVH:-}" ] && KERNEL_VMLINUZ=$KERNEL_DIR/vmlinux
	flock -u "$lockfd"; exec {lockfd}>&-
	KERNEL_RELEASE=$rel
	KERNEL_SERIES=${F2_KERNEL:-6.1}
	KERNEL_BASE_INITRD=$KERNEL_DIR/base.cpio.gz
	export KERNEL_RELEASE KERNEL_SERIES KERNEL_DIR KERNEL_VMLINUZ KERNEL_BASE_INITRD
}

# For bats: skip (never pass) when the kernel cannot be had at all; any
# other setup failure is a failure.
kernel_require() {
	kernel_setup && return 0
	if [ -n "$KERNEL_UNAVAILABLE" ] && command -v skip >/dev/null; then
		skip "kernel unavailable: $KERNEL_UNAVAILABLE"
	fi
	echo "kernel_setup failed: ${KERNEL_UNAVAILABLE:-unknown reason}" >&2
	return 1
}

# Sets KERNEL_STAGE in the calling shell (never call it in $(...): the
# staging area must outlive the call, to collect every kernel_add_binary).
f2k_stage_dir() {
	: "${KERNEL_STAGE:=$(mktemp -d "$(f2_tmp)/kstage.XXXXXX")}"
	mkdir -p "$KERNEL_STAGE/bin" "$KERNEL_STAGE/lib/x86_64-linux-gnu" "$KERNEL_STAGE/lib64"
}

# kernel_add_binary PATH [NAME]: PATH as /bin/NAME (default: its own
# name) in the guest; a libtool wrapper is replaced by the real ELF in
# .libs/, and its libraries are found with `libtool --mode=execute ldd`.
kernel_add_binary() {
	local prog=$1 elf name stage lib
	local -a ldd=(ldd)
	name=$(basename "$prog")
	elf=$prog
	if [ "$(head -c 4 "$prog" 2>/dev/null)" != $'\x7fELF' ]; then
		elf=$(dirname "$prog")/.libs/$name
		[ -f "$elf" ] || { echo "kernel_add_binary: $prog is not an ELF program" >&2; return 1; }
		[ -x "${F2_BUILD:-}/libtool" ] && ldd=("$F2_BUILD/libtool" --mode=execute ldd)
	fi
	f2k_stage_dir
	stage=$KERNEL_STAGE
	cp "$elf" "$stage/bin/${2:-$name}" || return 1
	for lib in $("${ldd[@]}" "$prog" | awk '/=> \// { print $3 } /^[[:space:]]*\/[^ ]*ld-linux/ { print $1 }'); do
		case $lib in
		*/ld-linux*) cp -L "$lib" "$stage/lib64/$(basename "$lib")" || return 1 ;;
		*) cp -L "$lib" "$stage/lib/x86_64-linux-gnu/$(basename "$lib")" || return 1 ;;
		esac
	done
}

# Boot speed: the guest's uptime when /init reached the script, of the
# last boot of any series, kept in $KERNEL_CACHE/.boot-uptime.
f2k_record_boot() {
	local up
	up=$(sed -n 's/.*F2GUEST-BEGIN uptime=\([0-9.]*\).*/\1/p' "$1" | tail -n 1)
	[ -n "$up" ] && echo "$up" >"$KERNEL_CACHE/.boot-uptime.$$" &&
		mv "$KERNEL_CACHE/.boot-uptime.$$" "$KERNEL_CACHE/.boot-uptime"
	return 0
}

# f2k_scaled_timeout SECONDS: SECONDS times the slowdown of the last boot
# against KERNEL_BOOT_NOMINAL, between 1 and 4
f2k_scaled_timeout() {
	local up
	up=$(cat "$KERNEL_CACHE/.boot-uptime" 2>/dev/null)
	awk -v t="$1" -v up="${up:-0}" -v nom="${KERNEL_BOOT_NOMINAL:-8}" 'BEGIN {
		f = up / nom; if (f < 1) f = 1; if (f > 4) f = 4
		printf "%d", t * f }'
}

# f2k_run_initrd STAGE DIR: DIR/initrd.gz, the base initramfs and STAGE
f2k_run_initrd() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) \
		>"$2/run.cpio.gz" && cat "$KERNEL_BASE_INITRD" "$2/run.cpio.gz" >"$2/initrd.gz"
}

# kernel_run SCRIPT IMG...
kernel_run() {
	local script=$1 img pair hp gp dir rc=0 n=0 t0 t1 zoned=0 zs zc
	local -a drives=()
	shift
	kernel_setup || { echo "kernel unavailable: $KERNEL_UNAVAILABLE" >&2; return 1; }
	[ -f "$script" ] || { echo "kernel_run: no script $script" >&2; return 1; }
	dir=${KERNEL_RUN_DIR:-$(mktemp -d "$(f2_tmp)/krun.XXXXXX")}
	mkdir -p "$dir"
	KERNEL_LOG=$dir/console.log
	KERNEL_OUT=$dir/guest.out
	export KERNEL_LOG KERNEL_OUT
	: >"$KERNEL_LOG"; : >"$KERNEL_OUT"

	# per-run initramfs: the script, KERNEL_FILES, staged binaries
	local stage
	f2k_stage_dir
	stage=$KERNEL_STAGE
	mkdir -p "$stage/guest"
	cp "$script" "$stage/guest/script.sh" || return 1
	for pair in ${KERNEL_FILES:-}; do
		hp=${pair%%:*}; gp=${pair#*:}
		mkdir -p "$stage$(dirname "$gp")"
		cp -a "$hp" "$stage$gp" || return 1
	done
	f2k_run_initrd "$stage" "$dir" || return 1

	for img in "$@"; do
		drives+=(-drive "file=$img,if=virtio,format=raw,cache=unsafe")
		n=$((n + 1))
	done
	if [ -n "${KERNEL_ZONED:-}" ]; then
		zs=${KERNEL_ZONE_SIZE:-64M}; zc=${KERNEL_ZONE_CAP:-$zs}
		drives+=(-device nvme,id=nvme0,serial=f2zns
			-drive "file=$KERNEL_ZONED,id=zns0,format=raw,if=none,cache=unsafe"
			-device "nvme-ns,drive=zns0,bus=nvme0,nsid=1,zoned=true,zoned.zone_size=$zs,zoned.zone_capacity=$zc")
		zoned=1
		if [ -n "${KERNEL_ZONED2:-}" ]; then
			drives+=(-drive "file=$KERNEL_ZONED2,id=zns1,format=raw,if=none,cache=unsafe"
				-device "nvme-ns,drive=zns1,bus=nvme0,nsid=2,zoned=true,zoned.zone_size=$zs,zoned.zone_capacity=${KERNEL_ZONE_CAP2:-$zs}")
		fi
	fi

	local limit try
	limit=$(f2k_scaled_timeout "${KERNEL_TIMEOUT:-600}")
	t0=$(date +%s.%N)
	# a guest that dies before /init starts the script (an early boot
	# oops under TCG, seen about once in a hundred boots on a loaded
	# host) has touched no disk: it boots once more
	for try in 1 2; do
		rc=0
		: >"$KERNEL_LOG"; : >"$KERNEL_OUT"
		timeout -k 10 "$limit" qemu-system-x86_64 -accel tcg -cpu max \
			-m "${KERNEL_MEM:-1G}" -smp "${KERNEL_SMP:-1}" \
			-nographic -no-reboot -nodefaults -monitor none \
			-serial "file:$KERNEL_LOG" -serial "file:$KERNEL_OUT" \
			-kernel "$KERNEL_VMLINUZ" -initrd "$dir/initrd.gz" \
			-append "console=ttyS0 quiet loglevel=4 no_timer_check panic=-1 oops=panic f2disks=$n f2zoned=$zoned" \
			"${drives[@]}" </dev/null >"$dir/qemu.out" 2>&1 || rc=$?
		# (once in some hundred boots the guest found no /guest/script.sh
		# in its initramfs, not explained yet: that boot is kept and
		# retried too)
		if grep -q F2GUEST-BEGIN "$KERNEL_LOG" &&
		   ! grep -q "can't open '/guest/script.sh'" "$KERNEL_OUT"; then
			break
		fi
		[ $try = 1 ] || break
		cp "$KERNEL_LOG" "$dir/console.failed-boot.log"
		cp "$KERNEL_OUT" "$dir/guest.failed-boot.out"
		cp "$dir/initrd.gz" "$dir/initrd.failed-boot.gz"
		f2k_run_initrd "$stage" "$dir"
		echo "kernel_run: the guest died before its script ($(grep -m 1 -E 'Oops|panic|can.t open' "$KERNEL_LOG" "$KERNEL_OUT" | tr -d '\r')): booting again" >&2
	done
	t1=$(date +%s.%N)
	KERNEL_WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	# every boot's wall time, for tests/run.sh's summary of QEMU time
	printf '%s %s %s %s\n' "$KERNEL_SERIES" "$KERNEL_WALL" "${BATS_TEST_FILENAME:-?}" \
		"$(basename "$script")" >>"$KERNEL_CACHE/.boot-log"
	sed -i 's/\r$//' "$KERNEL_LOG" "$KERNEL_OUT"
	f2k_record_boot "$KERNEL_LOG"
	# a fresh staging area for the next run
	rm -rf "$stage"; KERNEL_STAGE=

	local status
	status=$(sed -n 's/.*F2GUEST-EXIT=\([0-9]*\).*/\1/p' "$KERNEL_LOG" | tail -n 1)
	if [ -n "$status" ]; then
		return "$status"
	fi
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "kernel_run: guest timed out after $limit s (KERNEL_TIMEOUT ${KERNEL_TIMEOUT:-600} scaled by the last boot's speed)" >&2
		rc=124
	else
		echo "kernel_run: guest ended without an exit marker (qemu exit $rc)" >&2
		rc=125
	fi
	echo "--- qemu:" >&2; tail -n 20 "$dir/qemu.out" >&2
	echo "--- console tail ($KERNEL_LOG):" >&2; tail -n 60 "$KERNEL_LOG" >&2
	echo "--- script output tail ($KERNEL_OUT):" >&2; tail -n 20 "$KERNEL_OUT" >&2
	return "$rc"
}

# kernel_expect LINE...: each LINE is a whole line of the guest's report
# that the suite saved as $BATS_FILE_TMPDIR/report; else the report is
# shown (its first 120 lines), with the tail of the messages in
# $BATS_FILE_TMPDIR/dmesg matching REPORT_DMESG (an ERE, default f2fs)
# when the suite saved one, and the status is 1
kernel_expect() {
	local l r=$BATS_FILE_TMPDIR/report
	for l in "$@"; do
		grep -qxF -- "$l" "$r" && continue
		echo "guest did not report '$l'; report:"
		sed 's/^/  /' "$r" | head -n 120
		if [ -f "$BATS_FILE_TMPDIR/dmesg" ]; then
			echo "dmesg (${REPORT_DMESG:-f2fs}):"
			grep -Ei "${REPORT_DMESG:-f2fs}" "$BATS_FILE_TMPDIR/dmesg" | tail -n 20 | sed 's/^/  /'
		fi
		return 1
	done
}

kernel_output() { cat "${KERNEL_OUT:?no kernel_run yet}"; }

# kernel_ran [LOG]: the suite's setup_file booted the guest (it leaves
# $BATS_FILE_TMPDIR/run/status); else says so, shows LOG (the host-side
# build's log, if given) and the status is 1
kernel_ran() {
	[ -f "$BATS_FILE_TMPDIR/run/status" ] && return 0
	echo "the kernel run did not happen"
	[ -z "${1:-}" ] || cat "$1" 2>/dev/null
	return 1
}

# The report a suite saved as $BATS_FILE_TMPDIR/report from a guest that
# prefixes each line with the tag of the image it speaks of:
#   report_of TAG         TAG's lines, the tag taken off
#   report_manifest TAG   the lines between "TAG MANIFEST-BEGIN" and
#                         "TAG MANIFEST-END" (tests/engine/manifest.sh)
#   expect_report TAG LINE...  each LINE is one of TAG's; else TAG's
#                         lines but manifests, and the tail of the
#                         messages in $BATS_FILE_TMPDIR/dmesg matching
#                         REPORT_DMESG (an ERE, default f2fs), are shown
#                         and the status is 1
report_of() { sed -n "s/^$1 //p" "$BATS_FILE_TMPDIR/report"; }
report_manifest() {
	sed -n "/^$1 MANIFEST-BEGIN\$/,/^$1 MANIFEST-END\$/p" "$BATS_FILE_TMPDIR/report" |
		sed '1d;$d'
}
expect_report() {
	local tag=$1 want
	shift
	for want in "$@"; do
		report_of "$tag" | grep -qx -- "$want" && continue
		echo "$tag: the guest did not report '$want'; its lines:"
		report_of "$tag" | grep -v '^\./\|^    \|^MANIFEST\|^XATTRS' | head -n 60 | sed 's/^/  /'
		if [ -f "$BATS_FILE_TMPDIR/dmesg" ]; then
			echo "dmesg (${REPORT_DMESG:-f2fs}):"
			grep -Ei "${REPORT_DMESG:-f2fs}" "$BATS_FILE_TMPDIR/dmesg" | tail -n 20 | sed 's/^/  /'
		fi
		return 1
	done
}

kernel_dmesg() {
	sed -n '/^F2GUEST-DMESG-BEGIN$/,/^F2GUEST-DMESG-END$/{/^F2GUEST-DMESG-/d;p}' \
		"${KERNEL_LOG:?no kernel_run yet}"
}
