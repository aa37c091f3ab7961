#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/roroot.bats - fsck at boot: systemd runs `fsck -a` on a root
# file system the initramfs has mounted read-only.  In one boot (QEMU,
# guest/roroot.sh) three volumes made by our mkfs --root are mounted -o ro
# and our fsck.f2fs runs -n, then -a twice, on the mounted device:
#   clean   exit 0 every time, nothing written;
#   safe    valid_inode_count one too high (-p fixes it), with CP_FSCK
#           set as the kernel leaves it when it meets an inconsistency (so
#           -a checks in full): -n 4; -a repairs it through the device
#           beside the kernel, exit 3 (corrected, reboot) with the REBOOT
#           line; the second -a (the next boot) exit 0: no reboot loop;
#   unsafe  the root's i_links one too high (-p does not fix it) and the
#           same counter and flag: -n and -a 4, nothing written at all.
# Each is then unmounted, mounted read-write (the reboot), every file
# read back with the md5 it was made with, one written; the kernel says
# nothing of it past its usual notes.  On the host afterwards our fsck
# -f -n finds clean and safe clean, and unsafe still damaged (exit 4).
load ../lib/common
load ../lib/kernel

F2FIELD=${F2FIELD:-$F2_BUILD/tests/tools/f2field}
export F2FIELD

# The driver's notes at a mount that are no complaint; on unsafe, the
# checkpoint the test planted with its crc redone left nat_bits stale
# (fsck wrote nothing there to rebuild them).
ROROOT_OK='Found nat_bits|Mounted with checkpoint|Using encoding|recover fsync data'
ROROOT_OK_UNSAFE='Disable nat_bits due to incorrect cp_ver'

# dmesg_of DEV ro|rw: the driver's lines about DEV after the guest's
# marker "roroot: DEV ro|rw", up to the next marker
dmesg_of() {
	kernel_dmesg | awk -v m="roroot: $1 $2" '
		index($0, "roroot: ") { on = index($0, m) > 0; next }
		on' | grep "F2FS-fs ($1)" || true
}

@test "fsck at boot: on a root mounted read-only, -a repairs only what is safe (exit 3, reboot), leaves the rest (exit 4), the kernel mounts each read-write with no complaint" {
	kernel_require
	require_prog "$MKFS" "$FSCK" "$INJECT" "$F2FIELD"
	local d=$BATS_TEST_TMPDIR roles=(clean safe unsafe) i r dev rc ok want got step
	mkdir -p "$d/tree/d1/d2"
	echo hello >"$d/tree/hello"
	seq 1 20000 >"$d/tree/seq"
	seq 1 300 >"$d/tree/d1/d2/mid"
	(cd "$d/tree" && find . -type f -print0 | xargs -0 md5sum) |
		sed 's/^\([0-9a-f]*\)  /\1 /' | LC_ALL=C sort -k2 >"$d/want"
	for r in "${roles[@]}"; do
		truncate -s 64M "$d/$r.img"
		"$MKFS" -q -f --root "$d/tree" "$d/$r.img" >/dev/null || return 1
	done
	(
		. "$F2_TOP/tests/fsck/lib.sh"
		for r in safe unsafe; do
			inj_add "$d/$r.img" 1 --cp 0 --mb valid_inode_count
			inj "$d/$r.img" --cp 0 --mb ckpt_flags \
				--val $(($(inj_val "$d/$r.img" --cp 0 --mb ckpt_flags) | 0x10))
		done
		inj_add "$d/unsafe.img" 1 --node --nid 3 --mb i_links
	) >/dev/null || return 1
	kernel_add_binary "$FSCK"
	rc=0; kernel_run "$BATS_TEST_DIRNAME/guest/roroot.sh" \
		"$d/clean.img" "$d/safe.img" "$d/unsafe.img" || rc=$?
	kernel_output >"$d/out"
	cat "$d/out"
	echo "boot: ${KERNEL_WALL:-?} s"
	[ "$rc" -eq 0 ] && grep -q '^DONE' "$d/out" || { echo "guest status $rc"; return 1; }
	for i in "${!roles[@]}"; do
		r=${roles[$i]} dev=vd$(printf "\\x$(printf %x $((97 + i)))")
		# expected: fsck -n, -a, the second -a, written
		case $r in
		clean) want="0 0 0 0 0" ;;
		safe) want="4 3 1 0 1" ;;
		unsafe) want="4 4 0 4 0" ;;
		esac
		got="$(sed -n "s/^$dev fsck-n rc=//p" "$d/out") $(sed -n "s/^$dev fsck-a rc=\([0-9]*\) reboot=\([0-9]*\)/\1 \2/p" "$d/out")"
		got="$got $(sed -n "s/^$dev fsck-a2 rc=//p" "$d/out") $(sed -n "s/^$dev written=//p" "$d/out")"
		echo "$r ($dev): fsck -n, -a, REBOOT lines, -a again, written: $got (want $want)"
		[ "$got" = "$want" ] || return 1
		for step in mount-ro read-ro umount-ro mount-rw write umount-rw; do
			grep -q "^$dev $step rc=0" "$d/out" || { echo "$r: $step failed"; return 1; }
		done
		sed -n "s/^$dev md5 //p" "$d/out" | grep -v ' ./new$' | LC_ALL=C sort -k2 |
			diff "$d/want" - || { echo "$r: files differ"; return 1; }
		echo "$r: the driver at the read-only mount:"
		dmesg_of "$dev" ro
		echo "$r: at the read-write mount:"
		dmesg_of "$dev" rw
		ok=$ROROOT_OK
		[ "$r" != unsafe ] || ok="$ok|$ROROOT_OK_UNSAFE"
		if dmesg_of "$dev" rw | grep -Ev "$ok"; then
			echo "$r: the kernel complained at the read-write mount"; return 1
		fi
		rc=0; "$FSCK" -f -n "$d/$r.img" >"$d/after" 2>&1 || rc=$?
		cat "$d/after"
		case $r in
		unsafe) [ "$rc" -eq 4 ] && grep -q '^0x050002 INODE_LINKS' "$d/after" ;;
		*) [ "$rc" -eq 0 ] ;;
		esac || { echo "$r: fsck -f -n after the boot: exit $rc"; return 1; }
	done
}
