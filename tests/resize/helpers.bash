# SPDX-License-Identifier: GPL-2.0-or-later
# tests/resize/helpers.bash - shared by the resize.f2fs suites.
RESIZE=${RESIZE:-$F2_BUILD/resize/resize.f2fs}
REF_RESIZE=${REF_RESIZE:-/sbin/resize.f2fs}

# rs_json IMG ARGS...: resize.f2fs --json ARGS IMG into $RS_JSON (stdout)
# and $RS_JSON.err; the exit status in RS_STATUS.
rs_json() {
	local img=$1; shift
	RS_JSON=$(f2_tmp)/rs.$RANDOM.json
	RS_STATUS=0
	"$RESIZE" --json "$@" "$img" >"$RS_JSON" 2>"$RS_JSON.err" </dev/null || RS_STATUS=$?
	jq -e . "$RS_JSON" >/dev/null || { echo "not JSON (exit $RS_STATUS):"; cat "$RS_JSON" "$RS_JSON.err"; return 1; }
}
rsv() { jq -r "$1" "$RS_JSON"; }

# sb_field IMG NAME: one superblock field (the primary copy, else the backup)
sb_field() {
	{ "$F2SB" "$1" 2>/dev/null || "$F2SB" --backup "$1"; } | sed -n "s/^$2=//p"
}

# sectors_at PCT SIZE_BYTES: PCT percent of SIZE in 512-byte sectors
sectors_at() { echo $(( $2 / 512 * $1 / 100 )); }

# both_fsck_clean IMG: our fsck -n -f exits 0 and the reference finds it clean
both_fsck_clean() {
	local out status=0
	out=$("$FSCK" -n -f "$1" 2>&1) || status=$?
	if [ $status -ne 0 ]; then
		echo "our fsck (exit $status):"; echo "$out"; return 1
	fi
	ref_fsck_clean "$1"
}

# rs_between START OUT ARGS...: OUT is START resized by resize.f2fs ARGS
# (recorded) up to the state between its two commits: a shrink stopped
# before its first superblock write, a grow just after its last one (the
# superblock written, not yet the checkpoint for the larger area).
rs_between() {
	local start=$1 out=$2 log k kind
	shift 2
	log=$out.log
	cp --sparse=always "$start" "$out.run" || return 1
	F2_IO_RECORD=$log "$RESIZE" --json "$@" "$out.run" >"$out.json" </dev/null || return 1
	kind=$(jq -r .kind "$out.json")
	"$F2REPLAY" list "$log" >"$out.list" || return 1
	case $kind in
	shrink)	k=$(awk '$2 == "write" && $3 == 1024 && $4 == 512 { print $1 - 1; exit }' "$out.list") ;;
	grow)	k=$(awk '$2 == "write" && $3 == 5120 && $4 == 512 { k = $1 + 1 } END { print k }' "$out.list") ;;
	*)	echo "rs_between: resize.f2fs did $kind" >&2; return 1 ;;
	esac
	[ -n "$k" ] || { echo "rs_between: no superblock write in the log" >&2; return 1; }
	cp --sparse=always "$start" "$out" || return 1
	"$F2REPLAY" apply "$log" "$out" "$k" || return 1
	rm -f "$out.run" "$log"
}

# nodes_to_the_end IMG: defrag.f2fs moves the first 5 segments of the main
# area (the kernel's node logs: every inode of a fixture) to the right of
# segment 110, so that a shrink has node blocks to move back
nodes_to_the_end() {
	local main
	main=$(sb_field "$1" main_blkaddr)
	"$DEFRAG" -s "$main" -l $((5 * 512)) -t $((main + 110 * 512)) "$1" >/dev/null
}
