// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields.c - dump.f2fs's printers of the superblock, checkpoint, inode and
 * node footer, from the library's field tables (f2/fields.h).
 */
#include <stdio.h>
#include <string.h>
#include "f2/features.h"
#include "f2/fields.h"
#include "f2/sb.h"
#include "fields.h"

static const char *const curseg_names[] = {
	"CURSEG_HOT_DATA", "CURSEG_WARM_DATA", "CURSEG_COLD_DATA",
	"CURSEG_HOT_NODE", "CURSEG_WARM_NODE", "CURSEG_COLD_NODE",
};

void print_row(struct out *o, const struct f2_field *f, const void *base,
		      const char *prefix)
{
	const uint8_t *p = (const uint8_t *)base + f->off;
	const char *label = f2_field_label(f);
	unsigned n = f->used ? f->used : f->count;
	char name[64];

	switch (f->fmt) {
	case F2_FMT_UINT:
		for (unsigned i = 0; i < n; i++) {
			if (f->flags & F2_FLD_PERLOG)
				snprintf(name, sizeof(name), "%s%s[%s]", prefix, label,
					 curseg_names[i]);
			else if (f->count > 1)
				snprintf(name, sizeof(name), "%s%s[%u]", prefix, label, i);
			else
				snprintf(name, sizeof(name), "%s%s", prefix, label);
			out_u64(o, name, f2_field_get(f, base, i));
		}
		break;
	case F2_FMT_STR:
		out_str(o, label, (const char *)p, strnlen((const char *)p, f->width));
		break;
	case F2_FMT_HEX:
		out_hex(o, label, p, f->width);
		break;
	case F2_FMT_UTF16: {
		char u[F2_MAX_VOLUME_NAME * 4 + 1];

		f2_utf16le_to_utf8((const le16 *)p, f->width / 2, u, sizeof(u));
		out_str(o, label, u, strlen(u));
		break;
	}
	}
}

/* Every row of structure st but the raw and sparse ones and the inode's
 * extra attributes. */
static void print_rows(struct out *o, enum f2_struct_id st, const void *base)
{
	const struct f2_struct_desc *d = f2_struct_get(st);

	for (uint32_t i = 0; i < d->n; i++)
		if (!(d->fields[i].flags & (F2_FLD_RAW | F2_FLD_SPARSE | F2_FLD_EXTRA)))
			print_row(o, &d->fields[i], base, "");
}

/*
 * The kernel's records (f2/sb.h): in text one line each naming the set
 * ones; in JSON "stop_reasons" {name: count}, "errors" [name], and the raw
 * arrays s_stop_reason and s_errors.
 */
static void print_records(struct out *o, const struct f2_super *sb)
{
	char text[1024], key[32];

	if (!o->json) {
		f2_sb_stop_reasons_format(sb, text, sizeof(text));
		out_str(o, "stop_reasons", text, strlen(text));
		f2_sb_errors_format(sb, text, sizeof(text));
		out_str(o, "errors", text, strlen(text));
		return;
	}
	out_obj_begin(o, "stop_reasons", NULL);
	for (unsigned i = 0; i < F2_MAX_STOP_REASON; i++) {
		const char *name = f2_stop_reason_name(i);

		if (!sb->s_stop_reason[i])
			continue;
		if (!name)
			snprintf(key, sizeof(key), "reason_%u", i);
		out_u64(o, name ? name : key, sb->s_stop_reason[i]);
	}
	out_obj_end(o);
	out_arr_begin(o, "errors");
	for (unsigned b = 0; b < F2_MAX_ERRORS * 8; b++) {
		const char *name = f2_error_name(b);

		if (!f2_sb_error_set(sb, b))
			continue;
		if (!name)
			snprintf(key, sizeof(key), "error_%u", b);
		out_str(o, NULL, name ? name : key, strlen(name ? name : key));
	}
	out_arr_end(o);
	out_arr_begin(o, "s_stop_reason");
	for (unsigned i = 0; i < F2_MAX_STOP_REASON; i++)
		out_u64(o, NULL, sb->s_stop_reason[i]);
	out_arr_end(o);
	out_arr_begin(o, "s_errors");
	for (unsigned i = 0; i < F2_MAX_ERRORS; i++)
		out_u64(o, NULL, sb->s_errors[i]);
	out_arr_end(o);
}

void print_sb(struct out *o, const struct f2_super *sb)
{
	const struct f2_field *path, *segs;
	char feats[512];
	char name[64];
	uint32_t k;

	out_obj_begin(o, "superblock", "Super block");
	print_rows(o, F2_ST_SUPER, sb);
	f2_features_format(f2_le32(sb->feature), feats, sizeof(feats));
	out_str(o, "features", feats, strlen(feats));
	print_records(o, sb);
	path = f2_field_find(F2_ST_SUPER, "devs.path[0]", &k);
	segs = f2_field_find(F2_ST_SUPER, "devs.total_segments[0]", &k);
	for (k = 0; k < path->count; k++) {
		const char *s = (const char *)sb + f2_field_offset(path, k);

		if (!s[0])
			break;
		snprintf(name, sizeof(name), "devs[%u].path", k);
		out_str(o, name, s, strnlen(s, path->width));
		snprintf(name, sizeof(name), "devs[%u].total_segments", k);
		out_u64(o, name, f2_field_get(segs, sb, k));
	}
	out_obj_end(o);
}

static const struct { uint32_t bit; const char *name; } cp_flag_names[] = {
	{ F2_CP_RESIZEFS, "resizefs" }, { F2_CP_DISABLED_QUICK, "disabled_quick" },
	{ F2_CP_DISABLED, "disabled" }, { F2_CP_QUOTA_NEED_FSCK, "quota_need_fsck" },
	{ F2_CP_LARGE_NAT_BITMAP, "large_nat_bitmap" }, { F2_CP_NOCRC_RECOVERY, "allow_nocrc" },
	{ F2_CP_TRIMMED, "trimmed" }, { F2_CP_NAT_BITS, "nat_bits" },
	{ F2_CP_CRC_RECOVERY, "crc_recovery_flag" }, { F2_CP_FASTBOOT, "fastboot" },
	{ F2_CP_FSCK, "fsck" }, { F2_CP_ERROR, "error" },
	{ F2_CP_COMPACT_SUM, "compacted_summary" }, { F2_CP_ORPHAN_PRESENT, "orphan_inodes" },
	{ F2_CP_UMOUNT, "unmount" },
};

/* One journal entry: an object in JSON, "name[i].key" lines in text. */
static void journal_entry(struct out *o, const char *name, uint32_t i, const char *k1,
			  uint64_t v1, const char *k2, uint64_t v2, const char *k3, uint64_t v3)
{
	const char *k[3] = { k1, k2, k3 };
	uint64_t v[3] = { v1, v2, v3 };
	char key[64];

	out_obj_begin(o, NULL, NULL);
	for (int j = 0; j < 3; j++) {
		if (o->json) {
			out_u64(o, k[j], v[j]);
		} else {
			snprintf(key, sizeof(key), "%s[%u].%s", name, i, k[j]);
			out_u64(o, key, v[j]);
		}
	}
	out_obj_end(o);
}

static int print_orphan(void *ctx, uint32_t ino)
{
	struct out *o = ctx;

	if (o->json)
		out_u64(o, NULL, ino);
	else
		out_u64(o, "orphan_ino", ino);
	return 0;
}

void cp_flags_string(uint32_t fl, char *flags, size_t n)
{
	flags[0] = 0;
	for (size_t i = 0; i < sizeof(cp_flag_names) / sizeof(cp_flag_names[0]); i++)
		if (fl & cp_flag_names[i].bit) {
			if (flags[0])
				strncat(flags, " ", n - strlen(flags) - 1);
			strncat(flags, cp_flag_names[i].name, n - strlen(flags) - 1);
		}
}

void print_cp(struct out *o, struct f2_fs *fs)
{
	char name[64], flags[256];

	out_obj_begin(o, "checkpoint", "Checkpoint");
	out_u64(o, "pack", (uint64_t)fs->cp_pack + 1);
	print_rows(o, F2_ST_CHECKPOINT, fs->cp);
	cp_flags_string(fs->cp_flags, flags, sizeof(flags));
	out_str(o, "checkpoint_state", flags, strlen(flags));
	for (int p = 0; p < 2; p++) {
		snprintf(name, sizeof(name), "pack%d_valid", p + 1);
		out_u64(o, name, (uint64_t)fs->packs[p].valid);
		snprintf(name, sizeof(name), "pack%d_version", p + 1);
		out_u64(o, name, fs->packs[p].version);
	}
	out_u64(o, "nat_journal_entries", fs->nat_journal_n);
	out_u64(o, "sit_journal_entries", fs->sit_journal_n);
	out_arr_begin(o, "nat_journal");
	for (uint32_t i = 0; i < fs->nat_journal_n; i++) {
		const struct f2_nat_journal_entry *e = &fs->nat_journal.nat.entries[i];

		journal_entry(o, "nat_journal", i, "nid", f2_le32(e->nid), "ino", f2_le32(e->ne.ino),
			      "blkaddr", f2_le32(e->ne.block_addr));
	}
	out_arr_end(o);
	out_arr_begin(o, "sit_journal");
	for (uint32_t i = 0; i < fs->sit_journal_n; i++) {
		const struct f2_sit_journal_entry *e = &fs->sit_journal.sit.entries[i];
		uint16_t v = f2_le16(e->se.vblocks);

		journal_entry(o, "sit_journal", i, "segno", f2_le32(e->segno), "vblocks",
			      v & F2_SIT_VBLOCKS_MASK, "type", v >> F2_SIT_VBLOCKS_SHIFT);
	}
	out_arr_end(o);
	out_u64(o, "orphan_blocks", fs->orphan_blocks);
	out_arr_begin(o, "orphans");
	if (f2_cp_orphans(fs, print_orphan, o))
		fprintf(stderr, "dump.f2fs: %s\n", fs->why);
	out_arr_end(o);
	out_obj_end(o);
}

/* The non-zero elements of a sparse array from element first on. */
static void print_sparse(struct out *o, const struct f2_field *f, const void *base,
			 uint32_t first)
{
	char name[64];

	out_arr_begin(o, f->name);
	for (uint32_t k = first; k < f->count; k++) {
		uint64_t a = f2_field_get(f, base, k);

		if (!a)
			continue;
		if (o->json) {
			out_obj_begin(o, NULL, NULL);
			out_u64(o, "index", k);
			out_u64(o, "addr", a);
			out_obj_end(o);
		} else {
			snprintf(name, sizeof(name), "%s[0x%x]", f2_field_label(f), k);
			out_u64(o, name, a);
		}
	}
	out_arr_end(o);
}

void print_inode(struct out *o, const struct f2_node *n)
{
	const struct f2_struct_desc *d = f2_struct_get(F2_ST_INODE);
	const struct f2_inode *i = &n->i;
	uint32_t extra = (i->i_inline & F2_EXTRA_ATTR) ? f2_le16(i->i_extra_isize) : 0;
	uint32_t nlen = f2_le32(i->i_namelen);

	if (extra > F2_EXTRA_ISIZE || extra % 4)
		extra = 0;
	for (uint32_t k = 0; k < d->n; k++) {
		const struct f2_field *f = &d->fields[k];

		if (f->flags & F2_FLD_SPARSE)
			print_sparse(o, f, i, extra / 4);
		else if (f->flags & F2_FLD_EXTRA) {
			if (f->off + f->width <= offsetof(struct f2_inode, i_extra_isize) + extra)
				print_row(o, f, i, "");
		} else if (f->off == offsetof(struct f2_inode, i_name))
			out_str(o, f->name, (const char *)i + f->off,
				nlen < f->width ? nlen : f->width);
		else if (!(f->flags & F2_FLD_RAW))
			print_row(o, f, i, "");
	}
}

void print_footer(struct out *o, const struct f2_node *n)
{
	const struct f2_struct_desc *d = f2_struct_get(F2_ST_NODE_FOOTER);

	for (uint32_t k = 0; k < d->n; k++) {
		print_row(o, &d->fields[k], &n->footer, "footer.");
		/* the node offset, from flag, after ino as f2fs-tools shows it */
		if (d->fields[k].off == offsetof(struct f2_node_footer, ino))
			out_u64(o, "footer.offset", f2_node_ofs(n));
	}
}
