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
