# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/campaign.bash - the random fault campaign (issue 25), shared by
# tests/fsck/campaign.bats (a short run) and bench/fault-campaign (a long
# one).  Needs tests/lib/common.bash, kernel.bash and fixtures.bash loaded
# and fixtures_build done (the volumes Linux wrote).
#
#   fc_run N SEED DIR   N faults from SEED (numbered from FC_FIRST, default
#                       1): plant, fsck -n, -y, -n again,
#                       the reference's --dry-run; then one boot mounts
#                       every volume -y left mountable (loop devices over
#                       one disk), reads every file, writes one, unmounts.
#                       DIR/table gets a line per fault, DIR/summary the
#                       counts (see fc_summary); returns 1 on a defect.
#
# A fault is one to three changes to one volume: a field (a member of
# inject.f2fs's tables: superblock, checkpoint, NAT, SIT, SSA, inode,
# direct or indirect node, dentry) set to 0, 1, its value +-1, all ones or
# a random word; or 1-8 random bytes written over such a structure's block
# (checksums are left as they fall).  Everything, the bytes too, comes
# from bash's RANDOM seeded with SEED, so a seed replays exactly.
#
# Verdicts per fault (the table's last column):
#   ok        -n exit 0 or 4; -y exit 0, 1 or 4; after -y exit 1 a second
#             -n is clean; a volume -y left (exit 0/1) mounts, reads every
#             file, takes a write, unmounts with no f2fs complaint, and
#             every file of the clean volume the fault did not touch is
#             still there (by content)
#   CRASH HANG BADEXIT LEFT UNMOUNT LOST DMESG   the defects
# "noticed": our -n or the reference found something; "repaired": noticed,
# -y exited 1 or 0 and the kernel then took the volume.

# the volumes (fixtures) faults go into; basic (3000 files) is slow to
# check and to read under TCG: bench/fault-campaign adds it
FC_IMAGES=${FC_IMAGES:-small allfeat casefold compress strict}
FC_AREAS="sb cp nat sit ssa inode node dent"

fc_rnd() { REPLY=$(( ((RANDOM << 15) | RANDOM) % $1 )); }

# fc_members AREA: "name maxidx" of each member inject.f2fs lists for AREA
# that takes a number (maxidx "-" for a scalar)
fc_members() {
	local a
	case $1 in
	sb|cp|nat|sit) a="--$1 0" ;;
	inode|node) a=--node ;;
	*) a="--$1" ;;
	esac
	# shellcheck disable=SC2086
	"$INJECT" $a -h 2>&1 | grep -v -- '--str' |
		sed -n 's/^  \([a-z_.]*\): .*--idx 0\.\.\([0-9]*\).*/\1 \2/p; t; s/^  \([a-z_.]*\): .*/\1 -/p'
}

# fc_paths IMG OUT: "ino path" of every name reachable from the root
fc_paths() {
	local img=$1 queue=("3 .") item ino path c t n
	: >"$2"
	while [ ${#queue[@]} -gt 0 ]; do
		item=${queue[0]}; queue=("${queue[@]:1}")
		ino=${item%% *} path=${item#* }
		while read -r c t n; do
			echo "$c $path/$n" >>"$2"
			if [ "$t" = 2 ]; then queue+=("$c $path/$n"); fi
		done < <("$DUMP" -i "$ino" "$img" 2>/dev/null |
			sed -n 's/^dentry ino \([0-9]*\) type \([0-9]*\) .* name \(.*\)$/\1 \2 \3/p' |
			awk '$3 != "." && $3 != ".."')
	done
	return 0
}

# fc_prepare IMG DIR: the targets of IMG (DIR/IMG.*): inodes, other
# nodes (nid ino blkaddr), and the md5 list of its files (dump.f2fs)
fc_prepare() {
	local name=$1 img=$F2_FIXTURES/$1.img d=$2
	"$DUMP" -n 0~-1 "$img" 2>/dev/null |
		sed -n 's/^nid: *\([0-9]*\)[[:space:]]*ino: *\([0-9]*\)[[:space:]]*offset: *\([0-9]*\)[[:space:]]*blkaddr: *\([0-9]*\).*/\1 \2 \3 \4/p' |
		awk '$4 != 0' >"$d/$name.nodes"
	awk '$1 == $2 && $3 == 0' "$d/$name.nodes" >"$d/$name.inodes"
	awk '$3 != 0' "$d/$name.nodes" >"$d/$name.others"
	rm -rf "$d/x" && mkdir -p "$d/x"
	"$DUMP" --extract / --output "$d/x" --no-owners --xattrs=none "$img" >/dev/null 2>&1 || return 1
	(cd "$d/x" && find . -type f -print0 | xargs -0 -r md5sum) | sed 's/^\([0-9a-f]*\)  /\1 /' |
		LC_ALL=C sort -k2 >"$d/$name.sums"
	rm -rf "$d/x"
	fc_paths "$img" "$d/$name.paths"
}

# fc_line FILE: a random line of FILE into REPLY
fc_line() {
	local n
	n=$(wc -l <"$1")
	[ "$n" -gt 0 ] || { REPLY=; return 1; }
	fc_rnd "$n"
	REPLY=$(sed -n "$((REPLY + 1))p" "$1")
}

# fc_target AREA NAME DIR: the inject.f2fs selector of one random instance
# of AREA on volume NAME (FC_SEL), and the inode it touches (FC_INO, 0 for
# none in particular)
fc_target() {
	local area=$1 name=$2 d=$3 nid ino ofs blk
	FC_INO=0
	case $area in
	sb) fc_rnd 3; FC_SEL="--sb $REPLY" ;;
	cp) fc_rnd 3; FC_SEL="--cp $REPLY" ;;
	nat) fc_line "$d/$name.nodes"; read -r nid ino ofs blk <<<"$REPLY"
	     FC_SEL="--nat 0 --nid $nid"; FC_INO=$ino ;;
	sit) fc_line "$d/$name.nodes"; read -r nid ino ofs blk <<<"$REPLY"
	     FC_SEL="--sit 0 --blk $blk" ;;
	ssa) fc_line "$d/$name.nodes"; read -r nid ino ofs blk <<<"$REPLY"
	     FC_SEL="--ssa --blk $blk"; FC_INO=$ino ;;
	inode) fc_line "$d/$name.inodes"; read -r nid ino ofs blk <<<"$REPLY"
	       FC_SEL="--node --nid $nid"; FC_INO=$ino ;;
	node) fc_line "$d/$name.others" || fc_line "$d/$name.inodes"
	      read -r nid ino ofs blk <<<"$REPLY"
	      FC_SEL="--node --nid $nid"; FC_INO=$ino ;;
	dent) fc_line "$d/$name.inodes"; read -r nid ino ofs blk <<<"$REPLY"
	      FC_SEL="--dent --nid $nid"; FC_INO=$ino ;;
	esac
}

# fc_nat_touched NODES NID OFF N: the owners of the NAT entries bytes
# OFF..OFF+N-1 of NID's NAT block overlap (9-byte entries, 455 a block),
# by NODES (nid ino ofs blkaddr lines), added to FC_TOUCHED
fc_nat_touched() {
	local first=$(( $2 - $2 % 455 + $3 / 9 )) last=$(( $2 - $2 % 455 + ($3 + $4 - 1) / 9 ))
	FC_TOUCHED="$FC_TOUCHED $(awk -v a="$first" -v b="$last" '$1 >= a && $1 <= b { printf "%s ", $2 }' "$1")"
	FC_TOUCHED=${FC_TOUCHED% }
}

# fc_plant IMG NAME DIR: one change; appends its description to FC_DESC
fc_plant() {
	local img=$1 name=$2 d=$3 area mb members old new idx= out blk off n
	fc_rnd 8; area=$(echo $FC_AREAS | cut -d' ' -f$((REPLY + 1)))
	fc_target "$area" "$name" "$d"
	[ "$FC_INO" = 0 ] || FC_TOUCHED="$FC_TOUCHED $FC_INO"
	local filt='^addr '	# an inode's members, or a node's footer and addresses
	[ "$area" = node ] && [ "${FC_SEL##* }" != "$FC_INO" ] && filt='^i_'
	mapfile -t members < <(fc_members "$area" | grep -v "$filt")
	fc_rnd ${#members[@]}; read -r mb n <<<"${members[$REPLY]}"
	if [ "$n" != - ]; then
		fc_rnd $((n + 1)); idx="--idx $REPLY"
	fi
	# shellcheck disable=SC2086
	out=$("$INJECT" $FC_SEL --mb "$mb" $idx --val 0 --dry-run "$img" 2>&1) || true
	blk=$(echo "$out" | sed -n 's/.*block \([0-9]*\) not written.*/\1/p' | head -n 1)
	old=$(echo "$out" | sed -n 's/.*: \([0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' | head -n 1)
	fc_rnd 2
	if [ "$REPLY" = 0 ] && [ -n "$blk" ]; then	# random bytes over the block
		fc_rnd 8; n=$((REPLY + 1))
		fc_rnd $((4096 - n)); off=$REPLY
		local hex= k
		for ((k = 0; k < n; k++)); do fc_rnd 256; hex+=$(printf '\\x%02x' "$REPLY"); done
		printf "$hex" | dd of="$img" bs=1 seek=$((blk * 4096 + off)) conv=notrunc status=none
		# bytes over a NAT block touch every entry they overlap, not only
		# the one the block was chosen by
		[ "$area" != nat ] || fc_nat_touched "$d/$name.nodes" "${FC_SEL##* }" "$off" "$n"
		FC_DESC="$FC_DESC; $n bytes at $blk+$off ($area $FC_SEL)"
		return 0
	fi
	[ -n "$old" ] || { FC_DESC="$FC_DESC; ($area $mb: not settable)"; return 0; }
	fc_rnd 6
	case $REPLY in
	0) new=0 ;; 1) new=1 ;; 2) new=$((old + 1)) ;; 3) new=$(( old > 0 ? old - 1 : 2 )) ;;
	4) new=4294967295 ;; 5) fc_rnd 4294967296; new=$REPLY ;;
	esac
	# shellcheck disable=SC2086
	"$INJECT" $FC_SEL --mb "$mb" $idx --val "$new" "$img" >/dev/null 2>&1 || true
	FC_DESC="$FC_DESC; $area $FC_SEL $mb $idx $old->$new"
}

# fc_timed SECS OUT CMD...: CMD with a time limit; REPLY its exit (124: hang)
fc_timed() {
	local secs=$1 out=$2
	shift 2
	REPLY=0
	timeout -k 5 "$secs" "$@" </dev/null >"$out" 2>&1 || REPLY=$?
}

# fc_ref IMG OUT: the reference fsck --dry-run on a copy of IMG; REPLY
# "clean", "found" (it reports trouble) or "hang"
fc_ref() {
	cp --sparse=always "$1" "$1.ref"
	fc_timed 120 "$2" "$REF_FSCK" --dry-run "$1.ref"
	rm -f "$1.ref"
	if [ "$REPLY" = 124 ]; then REPLY=hang
	elif f2_ref_fsck_verdict "$2" "$REPLY"; then REPLY=clean
	else REPLY=found
	fi
}

# fc_case I SEED DIR: fault I (its own seed, derived from SEED); appends
# "I image verdict n y n2 ref | description" to DIR/table and, when -y
# left a volume to mount, its path to DIR/mount.list
fc_case() {
	local i=$1 seed=$2 d=$3 name img k nf n y n2=- ref=- refpre=- verdict=ok
	RANDOM=$((seed * 7919 + i))
	fc_rnd "$(echo $FC_IMAGES | wc -w)"; name=$(echo $FC_IMAGES | cut -d' ' -f$((REPLY + 1)))
	img=$d/v$i.img
	cp --sparse=always "$F2_FIXTURES/$name.img" "$img"
	FC_DESC= FC_TOUCHED=
	fc_rnd 3; nf=$((REPLY + 1))
	for k in $(seq 1 $nf); do fc_plant "$img" "$name" "$d"; done
	fc_timed 120 "$d/v$i.n" "$FSCK" -f -n "$img"; n=$REPLY
	# did the reference notice what ours did not?  (asked only then)
	if [ "$n" = 0 ]; then fc_ref "$img" "$d/v$i.refpre"; refpre=$REPLY; fi
	fc_timed 300 "$d/v$i.y" "$FSCK" -f -y "$img"; y=$REPLY
	case $n in 0|4) ;; 124) verdict=HANG ;; *) [ "$n" -ge 128 ] && verdict=CRASH || verdict=BADEXIT ;; esac
	case $y in 0|1|4|5) ;; 124) verdict=HANG ;; *) [ "$y" -ge 128 ] && verdict=CRASH || verdict=BADEXIT ;; esac
	if grep -q 'Sanitizer\|runtime error' "$d/v$i.n" "$d/v$i.y"; then verdict=CRASH; fi
	if [ "$verdict" = ok ] && { [ "$y" = 0 ] || [ "$y" = 1 ]; }; then
		fc_timed 120 "$d/v$i.n2" "$FSCK" -f -n "$img"; n2=$REPLY
		fc_ref "$img" "$d/v$i.ref"; ref=$REPLY
		[ "$n2" = 0 ] || verdict=LEFT
		[ "$verdict" != ok ] || echo "$i $name $img" >>"$d/mount.list"
	fi
	echo "$i $name $verdict n=$n y=$y n2=$n2 refpre=$refpre ref=$ref touched=${FC_TOUCHED# } |$FC_DESC" >>"$d/table"
	[ "$verdict" = ok ] || [ "$verdict" = LEFT ] || rm -f "$img"
}

# fc_pack DISK OFFSET IMG: IMG's data extents copied into DISK at OFFSET
# (a volume is mostly holes: only what it holds is read and written)
fc_pack() {
	python3 - "$@" <<'PY'
import os, sys
disk, off, img = sys.argv[1], int(sys.argv[2]), sys.argv[3]
src = os.open(img, os.O_RDONLY)
dst = os.open(disk, os.O_WRONLY | os.O_CREAT, 0o644)
end = os.fstat(src).st_size
pos = 0
while pos < end:
    try:
        pos = os.lseek(src, pos, os.SEEK_DATA)
    except OSError:
        break
    hole = os.lseek(src, pos, os.SEEK_HOLE)
    while pos < hole:
        n = min(hole - pos, 1 << 20)
        os.pwrite(dst, os.pread(src, n, pos), off + pos)
        pos += n
os.ftruncate(dst, max(os.fstat(dst).st_size, off + end))
PY
}

# fc_boot DIR: one boot over every volume of DIR/mount.list; DIR/guest.out
fc_boot() {
	local d=$1 id name img off=0 size rc=0
	rm -f "$d/disk.img"
	: >"$d/vols"
	while read -r id name img; do
		fc_pack "$d/disk.img" "$off" "$img" || return 1
		echo "$id $off" >>"$d/vols"
		size=$(stat -c %s "$img")
		off=$(( (off + size + 1048575) / 1048576 * 1048576 ))
	done <"$d/mount.list"
	[ -s "$d/vols" ] || { echo DONE >"$d/guest.out"; return 0; }
	KERNEL_FILES="$d/vols:/guest/vols" KERNEL_TIMEOUT=${FC_BOOT_TIMEOUT:-900} \
		kernel_run "$F2_TOP/tests/fsck/guest/campaign-mount.sh" "$d/disk.img" || rc=$?
	kernel_output >"$d/guest.out"
	rm -f "$d/disk.img"
	[ "$rc" -eq 0 ] && grep -q '^DONE' "$d/guest.out"
}

# fc_judge DIR: the kernel's verdict on each mounted volume, folded into
# DIR/table (a verdict of ok becomes UNMOUNT, DMESG or LOST)
fc_judge() {
	local d=$1 id name img v lost benign
	benign='Found nat_bits|Mounted with checkpoint|Using encoding|recover fsync data|Disable nat_bits'
	while read -r id name img; do
		v=ok
		if ! grep -q "^V $id mount rc=0" "$d/guest.out"; then v=UNMOUNT
		elif ! grep -q "^V $id write rc=0" "$d/guest.out" ||
		     ! grep -q "^V $id umount rc=0" "$d/guest.out"; then v=UNMOUNT
		elif grep "^V $id dmesg " "$d/guest.out" | grep -Eqv "$benign"; then v=DMESG
		fi
		if [ "$v" = ok ]; then
			lost=$(fc_lost "$d" "$id" "$name")
			[ -z "$lost" ] || v="LOST($lost)"
		fi
		# (awk, not sed: a LOST verdict holds the paths, slashes and all)
		awk -v id="$id" -v name="$name" -v v="$v" -v k="${v%%(*}" '
			$1 == id && $2 == name {
				if (v != "ok") $3 = v
				sub(/ [|]/, " kernel=" k " |")
			} { print }' "$d/table" >"$d/table.new" && mv "$d/table.new" "$d/table"
	done <"$d/mount.list"
}

# fc_lost DIR ID NAME: paths of the clean volume whose content the kernel
# no longer finds anywhere, but for files the fault touched (their inode,
# node, NAT entry or name)
fc_lost() {
	local d=$1 id=$2 name=$3 touched
	touched=$(sed -n "s/^$id $name .* touched=\([0-9 ]*\) |.*/\1/p" "$d/table")
	# (C locale: a name the fault left in invalid UTF-8 still matches .*)
	LC_ALL=C sed -n "s/^V $id md5 \([0-9a-f]*\) .*/\1/p" "$d/guest.out" | LC_ALL=C sort -u >"$d/got"
	awk -v t=" $touched " 'FILENAME == ARGV[1] { got[$1] = 1; next }
		FILENAME == ARGV[2] { p = $2; for (i = 3; i <= NF; i++) p = p " " $i; ino[p] = $1; next }
		!($1 in got) { if (index(t, " " ino[$2] " ") == 0) printf "%s ", $2 }' \
		"$d/got" "$d/$name.paths" "$d/$name.sums"
}

# fc_summary DIR: counts; DIR/summary; returns 1 on a defect
fc_summary() {
	local d=$1 total noticed repaired defects
	total=$(wc -l <"$d/table")
	noticed=$(grep -Ec ' n=4 | refpre=found ' "$d/table" || true)
	repaired=$(grep -E ' n=4 | refpre=found ' "$d/table" | grep -E ' y=[01] ' |
		grep ' n2=0 ' | grep ' ref=clean ' | grep -c ' kernel=ok ' || true)
	defects=$(awk '$3 != "ok"' "$d/table" | wc -l)
	{
		echo "faults $total"
		for v in CRASH HANG BADEXIT LEFT UNMOUNT DMESG LOST; do
			echo "$v $(awk -v v="$v" 'index($3, v) == 1' "$d/table" | wc -l)"
		done
		echo "noticed $noticed"
		echo "repaired $repaired"
		echo "reference-still-finds $(grep -c ' ref=found ' "$d/table" || true)"
	} >"$d/summary"
	[ "$defects" -eq 0 ]
}

# fc_run N SEED DIR: see the top of this file
fc_run() {
	local n=$1 seed=$2 d=$3 name i
	mkdir -p "$d"
	: >"$d/table"; : >"$d/mount.list"
	for name in $FC_IMAGES; do
		fc_prepare "$name" "$d" || { echo "fc_run: cannot list $name" >&2; return 1; }
	done
	for i in $(seq "${FC_FIRST:-1}" $((${FC_FIRST:-1} + n - 1))); do
		fc_case "$i" "$seed" "$d"
		[ -t 2 ] && printf '\rfault %d' "$i" >&2
	done
	[ -t 2 ] && echo >&2
	fc_boot "$d" || { echo "fc_run: the boot failed" >&2; return 1; }
	fc_judge "$d"
	fc_summary "$d"
}
