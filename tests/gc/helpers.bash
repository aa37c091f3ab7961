# SPDX-License-Identifier: GPL-2.0-or-later
# tests/gc/helpers.bash - shared by the gc.f2fs / defrag.f2fs suites.
GC=${GC:-$F2_BUILD/gc/gc.f2fs}
DEFRAG=${DEFRAG:-$F2_BUILD/gc/defrag.f2fs}
REF_DUMP=${REF_DUMP:-/sbin/dump.f2fs}

# gc_json IMG ARGS...: gc.f2fs -n --json ... IMG into $GC_JSON; status kept
gc_json() {
	local img=$1; shift
	GC_JSON=$(f2_tmp)/gc.$RANDOM.json
	GC_STATUS=0
	"$GC" -n --json --no-progress "$@" "$img" >"$GC_JSON" 2>"$GC_JSON.err" || GC_STATUS=$?
	jq -e . "$GC_JSON" >/dev/null || { echo "not JSON:"; cat "$GC_JSON" "$GC_JSON.err"; return 1; }
}

# jqv EXPR: evaluate EXPR on $GC_JSON (raw)
jqv() { jq -r "$1" "$GC_JSON"; }

# check_plan_consistent: the numbers of one report agree with each other
check_plan_consistent() {
	local n sum hb ha cur nsecs free fill
	n=$(jqv '.victims | length')
	[ "$n" -eq "$(jqv .predicted.sections_cleaned)" ] || { echo "victim count"; return 1; }
	sum=$(jqv '[.victims[].valid] | add // 0')
	[ "$sum" -eq "$(jqv .predicted.sit_valid_blocks)" ] || { echo "valid sum $sum"; return 1; }
	nsecs=$(jqv .geometry.sections)
	cur=$(jqv .before.current_sections)
	hb=$(jqv '.histogram.before | add')
	ha=$(jqv '.histogram.after | add')
	[ "$hb" -eq $((nsecs - cur)) ] && [ "$ha" -eq $((nsecs - cur)) ] ||
		{ echo "histogram sums $hb $ha, want $((nsecs - cur))"; return 1; }
	[ "$(jqv '.histogram.before[0]')" -eq "$(jqv .before.free_sections)" ] || { echo "hist free before"; return 1; }
	[ "$(jqv '.histogram.after[0]')" -eq "$(jqv .predicted.free_sections_after)" ] || { echo "hist free after"; return 1; }
	free=$(jqv .before.free_sections)
	# every victim freed, every section a log took no longer free
	fill=$(jqv .predicted.sections_filled)
	[ "$(jqv .predicted.free_sections_after)" -eq $((free + n - fill)) ] || { echo "free after"; return 1; }
	# the logs take no more sections than the moved blocks fill, plus
	# one per log rolled; SSR writes only blocks that were moved
	[ "$fill" -le $(( (sum + $(jqv .geometry.blocks_per_section) - 1) / $(jqv .geometry.blocks_per_section) + 6 )) ] ||
		{ echo "sections filled $fill"; return 1; }
	[ "$(jqv .predicted.ssr_blocks)" -le "$sum" ] || { echo "ssr blocks"; return 1; }
	# blocks are never written by a dry run's prediction beyond moved + nodes
	[ "$(jqv .predicted.blocks_written)" -ge "$(jqv .predicted.blocks_moved)" ]
}

# content_manifest DIR: "path type size md5" of DIR's tree, sorted, in the
# fixtures' manifest conventions ("." root, "-" for directory sizes and
# non-file md5s), to compare with columns 1, 2, 6 and 8 of NAME.manifest.
# Files over 1 GiB are not read: basic's sparse 8.5 GB file would take
# minutes; their size is still compared.  One md5sum for all files (a
# fork per file cost 85 s on basic's 3000).
content_manifest() {
	local -A sum=()
	local rec p t s
	# md5sum -z: NUL-terminated "HASH  PATH", names unescaped
	while IFS= read -r -d '' rec; do
		sum[${rec:34}]=${rec:0:32}
	done < <(cd "$1" && find . -type f -size -1073741825c -print0 | xargs -0 -r md5sum -z)
	(cd "$1" && find . -printf '%p\t%y\t%s\n') | while IFS=$'\t' read -r p t s; do
		case $t in
		f) printf '%s\tf\t%s\t%s\n' "$p" "$s" "${sum[$p]:-big}" ;;
		d) printf '%s\td\t-\t-\n' "$p" ;;
		*) printf '%s\t%s\t%s\t-\n' "$p" "$t" "$s" ;;
		esac
	done | LC_ALL=C sort
}

# ref_fsck_clean_after_crash IMG: as ref_fsck_clean, except that the line
# the reference prints when a checkpoint pack is half written or torn
# ("Invalid CP CRC offset: 0", "Invalid CP CRC: offset:..., crc:...": it
# then uses the other pack, as the kernel does) is not held against the
# image.
ref_fsck_clean_after_crash() {
	local img=$1 copy=$(f2_tmp)/refcrash.$RANDOM.img status=0
	cp --sparse=always "$img" "$copy" || return 1
	"$REF_FSCK" --dry-run "$copy" </dev/null >"$copy.out" 2>&1 || status=$?
	grep -v 'Invalid CP CRC' "$copy.out" >"$copy.flt"
	if ! f2_ref_fsck_verdict "$copy.flt" "$status"; then
		echo "reference fsck does not find $img clean (exit $status):"
		cat "$copy.out"
		return 1
	fi
	rm -f "$copy" "$copy.out" "$copy.flt"
}

# image_intact IMG NAME [crash]: the reference fsck and ours find IMG
# clean, and every file extracted by dump.f2fs has the size and md5 the
# kernel saw in fixture NAME (its manifest).  With "crash", a half-written
# checkpoint pack is expected (see ref_fsck_clean_after_crash).
image_intact() {
	local img=$1 name=$2 out=$(f2_tmp)/intact.$RANDOM
	if [ "${3:-}" = crash ]; then
		ref_fsck_clean_after_crash "$img" || return 1
	else
		ref_fsck_clean "$img" || return 1
	fi
	"$FSCK" -f -n "$img" >"$out.fsck" 2>&1 || { echo "our fsck:"; cat "$out.fsck"; return 1; }
	"$DUMP" --extract / --output "$out" "$img" >"$out.dump" 2>&1 ||
		{ echo "dump --extract failed:"; cat "$out.dump"; return 1; }
	content_manifest "$out" >"$out.got"
	awk -F'\t' -v OFS='\t' '{ print $1, $2, ($2 == "d" ? "-" : $6),
			($2 != "f" ? "-" : $6 > 1073741824 ? "big" : $8) }' \
		"$F2_FIXTURES/$name.manifest" | LC_ALL=C sort >"$out.want"
	diff "$out.want" "$out.got" || return 1
	rm -rf "$out"
}
