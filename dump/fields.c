// SPDX-License-Identifier: GPL-2.0-or-later
/* fields.c - field tables of the superblock, checkpoint and inode. */
#include <stdio.h>
#include <string.h>
#include "f2/features.h"
#include "f2/sb.h"
#include "fields.h"

#define FLD(st, f, k) { #f, offsetof(st, f), sizeof(((st *)0)->f), k, 1, 0 }
#define ARR(st, f, k, shown) { #f, offsetof(st, f), sizeof(((st *)0)->f[0]), k, \
	sizeof(((st *)0)->f) / sizeof(((st *)0)->f[0]), shown }
#define END { NULL, 0, 0, 0, 0, 0 }

static const struct field sb_fields[] = {
	FLD(struct f2_super, magic, F_U),
	FLD(struct f2_super, major_ver, F_U),
	FLD(struct f2_super, minor_ver, F_U),
	FLD(struct f2_super, log_sectorsize, F_U),
	FLD(struct f2_super, log_sectors_per_block, F_U),
	FLD(struct f2_super, log_blocksize, F_U),
	FLD(struct f2_super, log_blocks_per_seg, F_U),
	FLD(struct f2_super, segs_per_sec, F_U),
	FLD(struct f2_super, secs_per_zone, F_U),
	FLD(struct f2_super, checksum_offset, F_U),
	FLD(struct f2_super, block_count, F_U),
	FLD(struct f2_super, section_count, F_U),
	FLD(struct f2_super, segment_count, F_U),
	FLD(struct f2_super, segment_count_ckpt, F_U),
	FLD(struct f2_super, segment_count_sit, F_U),
	FLD(struct f2_super, segment_count_nat, F_U),
	FLD(struct f2_super, segment_count_ssa, F_U),
	FLD(struct f2_super, segment_count_main, F_U),
	FLD(struct f2_super, segment0_blkaddr, F_U),
	FLD(struct f2_super, cp_blkaddr, F_U),
	FLD(struct f2_super, sit_blkaddr, F_U),
	FLD(struct f2_super, nat_blkaddr, F_U),
	FLD(struct f2_super, ssa_blkaddr, F_U),
	FLD(struct f2_super, main_blkaddr, F_U),
	FLD(struct f2_super, root_ino, F_U),
	FLD(struct f2_super, node_ino, F_U),
	FLD(struct f2_super, meta_ino, F_U),
	{ "uuid", offsetof(struct f2_super, uuid), 16, F_HEX, 1, 0 },
	{ "volum_name", offsetof(struct f2_super, volume_name), 2, F_UTF16, F2_MAX_VOLUME_NAME, 0 },
	FLD(struct f2_super, extension_count, F_U),
	FLD(struct f2_super, cp_payload, F_U),
	{ "version", offsetof(struct f2_super, version), F2_VERSION_LEN, F_STR, 1, 0 },
	{ "init_version", offsetof(struct f2_super, init_version), F2_VERSION_LEN, F_STR, 1, 0 },
	FLD(struct f2_super, feature, F_U),
	FLD(struct f2_super, encryption_level, F_U),
	ARR(struct f2_super, qf_ino, F_U, 0),
	FLD(struct f2_super, hot_ext_count, F_U),
	FLD(struct f2_super, s_encoding, F_U),
	FLD(struct f2_super, s_encoding_flags, F_U),
	FLD(struct f2_super, crc, F_U),
	END
};

static const struct field cp_fields[] = {
	FLD(struct f2_checkpoint, checkpoint_ver, F_U),
	FLD(struct f2_checkpoint, user_block_count, F_U),
	FLD(struct f2_checkpoint, valid_block_count, F_U),
	FLD(struct f2_checkpoint, rsvd_segment_count, F_U),
	FLD(struct f2_checkpoint, overprov_segment_count, F_U),
	FLD(struct f2_checkpoint, free_segment_count, F_U),
	ARR(struct f2_checkpoint, cur_node_segno, F_U, 3),
	ARR(struct f2_checkpoint, cur_node_blkoff, F_U, 3),
	ARR(struct f2_checkpoint, cur_data_segno, F_U, 3),
	ARR(struct f2_checkpoint, cur_data_blkoff, F_U, 3),
	FLD(struct f2_checkpoint, ckpt_flags, F_U),
	FLD(struct f2_checkpoint, cp_pack_total_block_count, F_U),
	FLD(struct f2_checkpoint, cp_pack_start_sum, F_U),
	FLD(struct f2_checkpoint, valid_node_count, F_U),
	FLD(struct f2_checkpoint, valid_inode_count, F_U),
	FLD(struct f2_checkpoint, next_free_nid, F_U),
	FLD(struct f2_checkpoint, sit_ver_bitmap_bytesize, F_U),
	FLD(struct f2_checkpoint, nat_ver_bitmap_bytesize, F_U),
	FLD(struct f2_checkpoint, checksum_offset, F_U),
	FLD(struct f2_checkpoint, elapsed_time, F_U),
	END
};

static const struct field inode_fields[] = {
	FLD(struct f2_inode, i_mode, F_U),
	FLD(struct f2_inode, i_advise, F_U),
	FLD(struct f2_inode, i_uid, F_U),
	FLD(struct f2_inode, i_gid, F_U),
	FLD(struct f2_inode, i_links, F_U),
	FLD(struct f2_inode, i_size, F_U),
	FLD(struct f2_inode, i_blocks, F_U),
	FLD(struct f2_inode, i_atime, F_U),
	FLD(struct f2_inode, i_atime_nsec, F_U),
	FLD(struct f2_inode, i_ctime, F_U),
	FLD(struct f2_inode, i_ctime_nsec, F_U),
	FLD(struct f2_inode, i_mtime, F_U),
	FLD(struct f2_inode, i_mtime_nsec, F_U),
	FLD(struct f2_inode, i_generation, F_U),
	FLD(struct f2_inode, i_current_depth, F_U),
	FLD(struct f2_inode, i_xattr_nid, F_U),
	FLD(struct f2_inode, i_flags, F_U),
	FLD(struct f2_inode, i_inline, F_U),
	FLD(struct f2_inode, i_pino, F_U),
	FLD(struct f2_inode, i_dir_level, F_U),
	FLD(struct f2_inode, i_namelen, F_U),
	END
};

/* Extra attributes: printed only when inside i_extra_isize. */
static const struct field extra_fields[] = {
	FLD(struct f2_inode, i_extra_isize, F_U),
	FLD(struct f2_inode, i_inline_xattr_size, F_U),
	FLD(struct f2_inode, i_projid, F_U),
	FLD(struct f2_inode, i_inode_checksum, F_U),
	FLD(struct f2_inode, i_crtime, F_U),
	FLD(struct f2_inode, i_crtime_nsec, F_U),
	FLD(struct f2_inode, i_compr_blocks, F_U),
	FLD(struct f2_inode, i_compress_algorithm, F_U),
	FLD(struct f2_inode, i_log_cluster_size, F_U),
	FLD(struct f2_inode, i_compress_flag, F_U),
	END
};

static uint64_t get_u(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

void print_fields(struct out *o, const struct field *t, const void *base, size_t limit)
{
	const uint8_t *b = base;
	char name[64];

	for (; t->name; t++) {
		unsigned n = t->shown ? t->shown : t->count;

		if ((size_t)t->off + (size_t)t->size * (t->kind == F_U ? n : 1) > limit)
			continue;
		switch (t->kind) {
		case F_U:
			for (unsigned i = 0; i < n; i++) {
				if (t->count > 1)
					snprintf(name, sizeof(name), "%s[%u]", t->name, i);
				else
					snprintf(name, sizeof(name), "%s", t->name);
				out_u64(o, name, get_u(b + t->off + (size_t)i * t->size, t->size));
			}
			break;
		case F_STR:
			out_str(o, t->name, (const char *)b + t->off,
				strnlen((const char *)b + t->off, t->size));
			break;
		case F_HEX:
			out_hex(o, t->name, b + t->off, t->size);
			break;
		case F_UTF16: {
			char u[F2_MAX_VOLUME_NAME * 4 + 1];

			f2_utf16le_to_utf8((const le16 *)(b + t->off), t->count, u, sizeof(u));
			out_str(o, t->name, u, strlen(u));
			break;
		}
		}
	}
}

void print_sb(struct out *o, const struct f2_super *sb)
{
	char feats[512];
	char name[64];

	out_obj_begin(o, "superblock", "Super block");
	print_fields(o, sb_fields, sb, sizeof(*sb));
	f2_features_format(f2_le32(sb->feature), feats, sizeof(feats));
	out_str(o, "features", feats, strlen(feats));
	for (int i = 0; i < F2_MAX_DEVICES && sb->devs[i].path[0]; i++) {
		snprintf(name, sizeof(name), "devs[%d].path", i);
		out_str(o, name, (const char *)sb->devs[i].path,
			strnlen((const char *)sb->devs[i].path, F2_MAX_PATH_LEN));
		snprintf(name, sizeof(name), "devs[%d].total_segments", i);
		out_u64(o, name, f2_le32(sb->devs[i].total_segments));
	}
	out_obj_end(o);
}

static const char *const curseg_names[] = {
	"CURSEG_HOT_DATA", "CURSEG_WARM_DATA", "CURSEG_COLD_DATA",
	"CURSEG_HOT_NODE", "CURSEG_WARM_NODE", "CURSEG_COLD_NODE",
};

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
	print_fields(o, cp_fields, fs->cp, F2_BLKSIZE);
	for (int i = 0; i < F2_NR_CURSEG; i++) {
		snprintf(name, sizeof(name), "alloc_type[%s]", curseg_names[i]);
		out_u64(o, name, fs->cp->alloc_type[i]);
	}
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

void print_inode(struct out *o, const struct f2_node *n)
{
	const struct f2_inode *i = &n->i;
	uint32_t extra = (i->i_inline & F2_EXTRA_ATTR) ? f2_le16(i->i_extra_isize) : 0;
	uint32_t nlen = f2_le32(i->i_namelen);
	char name[64];

	if (extra > F2_EXTRA_ISIZE || extra % 4)
		extra = 0;
	print_fields(o, inode_fields, i, sizeof(*i));
	out_str(o, "i_name", (const char *)i->i_name, nlen < F2_NAME_LEN ? nlen : F2_NAME_LEN);
	out_u64(o, "i_ext.fofs", f2_le32(i->i_ext.fofs));
	out_u64(o, "i_ext.blkaddr", f2_le32(i->i_ext.blk));
	out_u64(o, "i_ext.len", f2_le32(i->i_ext.len));
	if (extra)
		print_fields(o, extra_fields, i, offsetof(struct f2_inode, i_extra_isize) + extra);
	out_arr_begin(o, "i_addr");
	for (uint32_t k = extra / 4; k < F2_ADDRS_PER_INODE; k++) {
		uint32_t a = f2_le32(i->i_addr[k]);

		if (!a)
			continue;
		if (o->json) {
			out_obj_begin(o, NULL, NULL);
			out_u64(o, "index", k);
			out_u64(o, "addr", a);
			out_obj_end(o);
		} else {
			snprintf(name, sizeof(name), "i_addr[0x%x]", k);
			out_u64(o, name, a);
		}
	}
	out_arr_end(o);
	for (int k = 0; k < F2_NIDS_PER_INODE; k++) {
		snprintf(name, sizeof(name), "i_nid[%d]", k);
		out_u64(o, name, f2_le32(i->i_nid[k]));
	}
}

void print_footer(struct out *o, const struct f2_node *n)
{
	out_u64(o, "footer.nid", f2_le32(n->footer.nid));
	out_u64(o, "footer.ino", f2_le32(n->footer.ino));
	out_u64(o, "footer.offset", f2_node_ofs(n));
	out_u64(o, "footer.flag", f2_le32(n->footer.flag));
	out_u64(o, "footer.cp_ver", f2_le64(n->footer.cp_ver));
	out_u64(o, "footer.next_blkaddr", f2_le32(n->footer.next_blkaddr));
}
