# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fsck/lib.sh - helpers for the corruption cases' make.sh scripts.
# Each tests/fsck/NNN-name/make.sh is run as `make.sh IMG` with this file
# sourced first; it builds a clean image at IMG and injects one fault.
#
#   base IMG [mkfs options]  reference mkfs.f2fs on a 256 MiB sparse IMG,
#                            then reference sload.f2fs of the standard tree
#                            (cached: tests/.cache/fsck-base)
#   inj IMG ARGS...          inject.f2fs ARGS IMG: one member by its
#                            kernel name, the checksum over it redone
#                            (but for the checksum itself)
#   inj_val IMG ARGS...      the member's current value (a dry run)
#   inj_add IMG N ARGS...    the member += N
#   seg_blk IMG SEG          first block of main-area segment SEG
#   field IMG get|set ...    tests/tools/f2field, for what inject.f2fs
#                            cannot name (orphan blocks, quota records,
#                            raw offsets, finding fields)
#   ino_of IMG /path         inode number of a path (no dots in names but
#                            the last one)
#   val IMG FIELD            the current value of FIELD
#   addto IMG FIELD N        FIELD += N
#   cp_disabled IMG BLK      the newest checkpoint as the kernel writes it
#                            when it disables checkpointing, having
#                            rewritten SIT block BLK; prints the free
#                            segments of that block
#   cf_base IMG ENC [EXTRA]  our mkfs.f2fs -C ENC (utf8, utf8:strict) on a
#                            256 MiB IMG with the tree of cf_tree (EXTRA:
#                            more names for /cf, printf formats), then
#                            /cf and /cfblk made casefolded directories
#                            the way the kernel keeps them (f2field
#                            casefold: flag and folded hashes)
#   zero_area IMG AREA       cp, nat, sit or ssa zeroed whole (both copies)
#   zero_sb IMG              both superblock blocks (0 and 1) zeroed
#   zero_nat_share IMG PCT SEED  PCT% of the NAT blocks in use zeroed
#   stale_cp IMG [CMD...]    three more checkpoints by our sload, then the
#                            checkpoint area as it was before written back
#                            (CMD, when given, runs just before that)
set -eu
F2FIELD=${F2FIELD:?}
INJECT=${INJECT:?}
REF_MKFS=${REF_MKFS:-/sbin/mkfs.f2fs}
REF_SLOAD=${REF_SLOAD:-/sbin/sload.f2fs}

# The standard tree: small and inline files, a hard link, a symlink, a
# 5 MB file (full data segments), a 12 MB file (indirect nodes), a
# directory of 300 files (two dentry blocks), nested directories.
std_tree() {
	local d=$1 i
	rm -rf "$d" && mkdir -p "$d/d1/d2" "$d/many" "$d/empty"
	echo hello >"$d/small"
	seq 1 200 >"$d/d1/d2/mid"
	seq 1 900000 | head -c 5000000 >"$d/d1/big"
	seq 1 2000000 | head -c 12000000 >"$d/huge"
	ln "$d/small" "$d/many/hard"
	ln -s small "$d/link"
	for i in $(seq 1 300); do echo "$i" >"$d/many/f$i"; done
}

base() {
	local img=$1 tree cache= key
	shift
	# The clean images are kept in tests/.cache/fsck-base (when F2_TOP is
	# set), by this file, the reference tools and the options: every
	# case and suite makes the same few, and sload takes a second each.
	if [ -n "${F2_TOP:-}" ] && [ -z "${F2_NO_BASE_CACHE:-}" ]; then
		key=$( { cat "${BASH_SOURCE[0]}"; stat -L -c '%n %s %Y' "$REF_MKFS" "$REF_SLOAD"
			echo "$*"; } | md5sum | cut -c1-16)
		cache=$F2_TOP/tests/.cache/fsck-base/$key.img
		if [ -f "$cache" ]; then
			rm -f "$img" && cp --sparse=always "$cache" "$img"
			return
		fi
	fi
	tree=$(dirname "$img")/tree.$$
	std_tree "$tree"
	rm -f "$img" && truncate -s 256M "$img"
	"$REF_MKFS" -q -f "$@" "$img" >/dev/null
	# sload 1.15 exits 1 even when it succeeds: judge by fsck later
	"$REF_SLOAD" -f "$tree" "$img" >/dev/null 2>&1 || true
	rm -rf "$tree"
	if [ -n "$cache" ] && mkdir -p "${cache%/*}"; then
		# a copy then a rename: suites in other lanes may read it now
		cp --sparse=always "$img" "$cache.$$" && mv -f "$cache.$$" "$cache"
	fi
}

inj() {
	local img=$1
	shift
	"$INJECT" "$@" "$img" >/dev/null
}
inj_val() {
	local img=$1 out
	shift
	out=$("$INJECT" --dry-run "$@" --val 0 "$img") || return 1
	# "Info: inject MEMBER of WHERE: OLD (0xOLD) -> 0 (0x0)"
	sed -n 's/.*: \([0-9][0-9]*\) (0x[0-9a-f]*) -> .*/\1/p' <<<"$out" | head -n 1
}
inj_add() {
	local img=$1 n=$2 v
	shift 2
	v=$(inj_val "$img" "$@") && [ -n "$v" ] || return 1
	inj "$img" "$@" --val $(( v + n ))
}
seg_blk() { echo $(( $(val "$1" sb.main_blkaddr) + $2 * 512 )); }
field() { "$F2FIELD" "$@"; }
val() { "$F2FIELD" "$1" get "$2" | cut -d' ' -f3; }
off() { "$F2FIELD" "$1" get "$2" | cut -d' ' -f1; }
addto() { "$F2FIELD" "$1" set "$2" $(( $(val "$1" "$2") + $3 )); }

# cp_disabled IMG BLK: CP_DISABLED set in the newest pack (mount -o
# checkpoint=disable), the other pack made the checkpoint before it
# (version one less), and SIT block BLK written by the newest one as the
# kernel writes a SIT block: into the other SIT copy, its version bit
# flipped (the bitmap opens the cp head's sit_nat_version_bitmap at byte
# 192: cp_payload 0).  Prints the segments of BLK with no valid block
# that are not current: the bound fsck allows when the newest pack's SIT
# journal is empty, as on the base.
cp_disabled() {
	local img=$1 blk=$2 at sit half byte bit s n=0 main cur=" " head
	field "$img" set cpo.checkpoint_ver $(( $(val "$img" cp.checkpoint_ver) - 1 ))
	field "$img" fixcrc cpo
	# its last block repeats the head
	head=$(( $(off "$img" cpo.checkpoint_ver) / 4096 ))
	dd if="$img" of="$img" bs=4096 skip="$head" count=1 conv=notrunc status=none \
		seek=$(( head + $(val "$img" cpo.cp_pack_total_block_count) - 1 ))
	for s in 0 1 2; do
		cur="$cur$(val "$img" "cp.cur_node_segno[$s]") $(val "$img" "cp.cur_data_segno[$s]") "
	done
	main=$(val "$img" sb.segment_count_main)
	for (( s = blk * 55; s < main && s < (blk + 1) * 55; s++ )); do
		if (( ($(val "$img" "sit.$s.vblocks") & 0x3ff) == 0 )) && [[ $cur != *" $s "* ]]; then
			n=$(( n + 1 ))
		fi
	done
	at=$(( $(off "$img" cp.checkpoint_ver) + 192 + blk / 8 ))
	sit=$(val "$img" sb.sit_blkaddr)
	half=$(( $(val "$img" sb.segment_count_sit) / 2 * 512 ))
	byte=$(od -An -tu1 -j "$at" -N1 "$img")
	bit=$(( (byte >> (7 - blk % 8)) & 1 ))
	dd if="$img" of="$img" bs=4096 skip=$(( sit + bit * half + blk )) \
		seek=$(( sit + (1 - bit) * half + blk )) count=1 conv=notrunc status=none
	field "$img" setoff "$at" 1 $(( byte ^ (0x80 >> (blk % 8)) ))
	field "$img" set cp.ckpt_flags $(( $(val "$img" cp.ckpt_flags) | 0x1000 ))
	field "$img" fixcrc cp
	echo "$n"
}

ino_of() {
	local img=$1 path=$2 ino=3 c
	local IFS=/
	for c in $path; do
		[ -n "$c" ] || continue
		ino=$(val "$img" "dent.$ino.$c.ino")
	done
	echo "$ino"
}

# Names of a casefolded directory, as printf formats: no two fold alike,
# and none is one where the reference fsck (f2fs-tools 1.15) and the
# kernel disagree (a fold of 255 bytes or more, or of nothing, or to a
# dot name: f2fs-tools hashes those folded).
CF_NAMES=(
	'HeLLo.TXT' 'r\303\251sum\303\251' 'nai\314\210ve' 'stra\303\237e'
	'\316\243\316\221\316\243' '\317\202final' '\304\260stanbul' '\304\261\304\261'
	'\320\237\320\240\320\230\320\222\320\225\320\242' '\344\270\255\346\226\207'
	'\355\225\234\352\265\255\354\226\264' '\360\237\230\200'
	'\360\237\245\262' '\352\237\207' 'zero\342\200\213width' 'soft\302\255hyphen'
	'a\200stray'
)

# cf_tree DIR [EXTRA...]: /cf (inline: the names above, a subdirectory)
# and /cfblk (two dentry blocks of level 0: 250 names and the above)
cf_tree() {
	local d=$1 n i
	shift
	rm -rf "$d" && mkdir -p "$d/cf/SubDir" "$d/cfblk"
	echo sub >"$d/cf/SubDir/file"
	for n in "${CF_NAMES[@]}" "$@"; do
		# shellcheck disable=SC2059
		printf "$n\n" >"$d/cf/$(printf "$n")"
	done
	for n in "${CF_NAMES[@]}"; do
		# shellcheck disable=SC2059
		printf "$n\n" >"$d/cfblk/$(printf "$n")"
	done
	for i in $(seq 1 250); do echo "$i" >"$d/cfblk/File$i"; done
}

cf_base() {
	local img=$1 enc=$2 tree
	shift 2
	tree=$(dirname "$img")/cftree.$$
	cf_tree "$tree" "$@"
	rm -f "$img" && truncate -s 256M "$img"
	"${MKFS:?}" -q -f -C "$enc" --root "$tree" "$img" >/dev/null
	rm -rf "$tree"
	field "$img" casefold "$(ino_of "$img" /cf)"
	field "$img" casefold "$(ino_of "$img" /cfblk)"
}

# zero_area IMG cp|nat|sit|ssa: the whole area zeroed (both checkpoint
# packs, both NAT or SIT copies), as a bad flash block or a misdirected
# write leaves it (the rescue cases, 110 on)
zero_area() {
	local img=$1 start count
	case $2 in
	cp) start=$(val "$img" sb.cp_blkaddr); count=$(( $(val "$img" sb.segment_count_ckpt) * 512 )) ;;
	nat) start=$(val "$img" sb.nat_blkaddr); count=$(( $(val "$img" sb.segment_count_nat) * 512 )) ;;
	sit) start=$(val "$img" sb.sit_blkaddr); count=$(( $(val "$img" sb.segment_count_sit) * 512 )) ;;
	ssa) start=$(val "$img" sb.ssa_blkaddr); count=$(( $(val "$img" sb.segment_count_ssa) * 512 )) ;;
	*) return 1 ;;
	esac
	dd if=/dev/zero of="$img" bs=4096 seek="$start" count="$count" conv=notrunc status=none
}

zero_sb() {
	dd if=/dev/zero of="$1" bs=4096 count=2 conv=notrunc status=none
}

# zero_nat_share IMG PCT SEED: PCT percent (at least one) of the NAT
# blocks that hold entries in either copy zeroed in both copies, chosen
# at random from SEED; prints the NAT block indexes zeroed
zero_nat_share() {
	local img=$1 pct=$2 seed=$3 nat half b n
	local -a used=()
	nat=$(val "$img" sb.nat_blkaddr)
	half=$(( $(val "$img" sb.segment_count_nat) / 2 * 512 ))
	# NAT block b of copy c is at segment pair b / 512, segment c; in use:
	# a byte not zero in either copy (one process: two dd a block cost
	# 100 s on a 1 GiB fixture)
	mapfile -t used < <(python3 -c '
import sys
img, nat, half = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(img, "rb") as f:
    for b in range(half):
        a0 = nat + (b // 512) * 1024 + b % 512
        for a in (a0, a0 + 512):
            f.seek(a * 4096)
            if any(f.read(4096)):
                print(b)
                break
' "$img" "$nat" "$half")
	n=$(( ${#used[@]} * pct / 100 )); [ "$n" -ge 1 ] || n=1
	for b in $(printf '%s\n' "${used[@]}" | shuf -n "$n" --random-source=<(yes "$seed")); do
		local a0=$(( nat + (b / 512) * 1024 + b % 512 ))
		dd if=/dev/zero of="$img" bs=4096 seek="$a0" count=1 conv=notrunc status=none
		dd if=/dev/zero of="$img" bs=4096 seek=$(( a0 + 512 )) count=1 conv=notrunc status=none
		echo "$b"
	done
}

# stale_cp IMG [CMD...]: the checkpoint area saved, three more checkpoints
# written by our sload (a directory newI each: a file and a source tree
# of 7I small ones), CMD run, the saved area written back: both packs
# valid, the newest three versions behind the nodes its NAT reaches
stale_cp() {
	local img=$1 src=$1.stale cp n i j
	shift
	cp=$(val "$img" sb.cp_blkaddr)
	n=$(( $(val "$img" sb.segment_count_ckpt) * 512 ))
	dd if="$img" of="$src.cp" bs=4096 skip="$cp" count="$n" status=none
	for i in 1 2 3; do
		rm -rf "$src" && mkdir -p "$src/new$i/sub"
		seq 1 $((i * 20000)) >"$src/new$i/f"
		for ((j = 1; j <= i * 7; j++)); do echo "$i $j" >"$src/new$i/sub/g$j"; done
		"${SLOAD:?}" -q -f "$src" "$img" >/dev/null
	done
	rm -rf "$src"
	[ $# -eq 0 ] || "$@"
	dd if="$src.cp" of="$img" bs=4096 seek="$cp" conv=notrunc status=none
	rm -f "$src.cp"
}
