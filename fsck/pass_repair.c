// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_repair.c - phase 9: every structural repair the phases before it
 * recorded (repair.h), applied through the write engine and committed by
 * one checkpoint written last, so a crash at any write leaves the file
 * system as it was or as repaired.
 *
 * Order: the engine is opened on the writable device; before anything
 * allocates, its SIT entries and free-segment map are set to the blocks
 * the walk reached (so it never writes over a live block, and blocks
 * nothing reaches are freed) and its counters to the counts found; then
 * NAT entries, nodes and inode fields, directory entries, lost+found and
 * the names of the reconnected inodes, moved data blocks, orphans,
 * summary entries; then
 * the checkpoint (the FSCK and ERROR flags cleared).  Logs sharing a
 * segment move to fresh ones right after the SIT is set; the orphan list
 * is written from the entries pass_cp verified, less those still linked;
 * reserved NAT entries are reset, and user_block_count and the GC reserve
 * set, with the other NAT entries.
 * When an error is left that this version cannot repair, nothing is
 * written: a partial repair could lose what the walk could not see.
 * When the newest checkpoint pack is damaged and the older one was
 * checked, the repair builds on the older one (as the kernel would mount
 * it) and its checkpoint replaces the damaged pack.
 * The quota phase (pass_quota.c) runs after this one, on the repaired
 * file system, and rewrites the quota files with a checkpoint of its own.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "f2/bitmap.h"
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/repair.h"
#include "fsck.h"
#include "problem.h"

#define WORD(n, i)	((le32 *)(void *)(n))[i]

/* SIT entries whose valid map differs from the blocks the walk claimed. */
static int rebuild_sit(struct fsck_ctx *ctx, struct f2_engine *w)
{
	struct f2_fs *fs = ctx->fs;
	uint8_t map[F2_SIT_VBLOCK_MAP_SIZE];

	if (ctx->sit_blocks_bad)
		f2_engine_repair_sit_blocks(w);
	for (uint32_t segno = 0; segno < fs->main_segs; segno++) {
		uint64_t base = (uint64_t)segno * F2_BLKS_PER_SEG;
		int differ = 0, err;

		if (sbm_next(&ctx->sit_valid, base) >= base + F2_BLKS_PER_SEG &&
		    sbm_next(&ctx->blk_claimed, base) >= base + F2_BLKS_PER_SEG) {
			if (ctx->seg_type[segno] < F2_NR_CURSEG && !ctx->seg_vblocks[segno])
				continue;
			differ = 1;	/* an empty entry with a bad type or count */
		}
		memset(map, 0, sizeof(map));
		for (uint32_t b = 0; b < F2_BLKS_PER_SEG; b++) {
			int c = sbm_test(&ctx->blk_claimed, base + b);

			if (c)
				f2_set_bit_msb(map, b);
			if (c != sbm_test(&ctx->sit_valid, base + b))
				differ = 1;
		}
		if (!differ && ctx->seg_type[segno] < F2_NR_CURSEG &&
		    ctx->seg_vblocks[segno] == sbm_count(&ctx->sit_valid, base, F2_BLKS_PER_SEG))
			continue;
		err = f2_engine_repair_seg(w, segno, map, -1);
		if (err)
			return err;
	}
	return 0;
}

static int node_get(struct f2_engine *w, uint32_t nid, uint32_t ino, uint32_t ofs,
		    struct f2_node **n)
{
	return f2_engine_repair_node(w, nid, ino, ofs, n);
}

/* ---- directories ------------------------------------------------------- */
struct readd {
	uint8_t name[F2_NAME_LEN];
	uint32_t len, ino;
	uint8_t type;
};

struct dir_job {
	struct fsck_ctx *ctx;
	uint32_t dir;
	unsigned from;		/* the changes recorded from ctx->acts[from] on */
	struct readd *re;
	unsigned nre, cap;
	int err;
};

static uint32_t entry_slots(const struct f2_repair_slot *s)
{
	uint32_t len = f2_le16(s->de[s->slot].name_len), n = (len + F2_SLOT_LEN - 1) / F2_SLOT_LEN;

	if (!n || len > F2_NAME_LEN || s->slot + n > s->nr)
		n = 1;
	return n;
}

static void clear_entry(struct f2_repair_slot *s)
{
	uint32_t n = entry_slots(s);

	for (uint32_t k = 0; k < n; k++)
		f2_clear_bit_lsb(s->bitmap, s->slot + k);
}

static int is_dots(const struct f2_repair_slot *s, int which)
{
	uint32_t len = f2_le16(s->de[s->slot].name_len);
	const uint8_t *nm = s->names[s->slot];

	return len == (uint32_t)which && nm[0] == '.' && (which == 1 || nm[1] == '.');
}

static int dir_slot(void *arg, struct f2_repair_slot *s)
{
	struct dir_job *j = arg;
	struct fsck_ctx *ctx = j->ctx;
	struct f2_dir_entry *de = &s->de[s->slot];
	int changed = 0;

	/* a removal wins over any other change recorded for the entry (a
	 * wrong hash is noted before the walk finds the entry must go), so a
	 * rehash cannot add it back */
	for (unsigned i = j->from; i < ctx->nacts; i++) {
		const struct rep_act *a = &ctx->acts[i];

		if (a->a != j->dir)
			continue;
		if ((a->kind == RA_DENT_DROP && a->d == s->bidx && a->c == s->slot) ||
		    (a->kind == RA_DENT_DROP_INO && f2_le32(de->ino) == a->b &&
		     !is_dots(s, 1) && !is_dots(s, 2))) {
			clear_entry(s);
			return 1;
		}
	}
	for (unsigned i = j->from; i < ctx->nacts; i++) {
		struct rep_act *a = &ctx->acts[i];
		int here = a->a == j->dir && a->d == s->bidx && a->c == s->slot;
		uint32_t n;

		if (a->a != j->dir)
			continue;
		switch (a->kind) {
		case RA_DENT_REHASH:
			if (!here)
				break;
			if (j->nre == j->cap) {
				unsigned cap = j->cap ? j->cap * 2 : 8;
				struct readd *r = realloc(j->re, cap * sizeof(*r));

				if (!r)
					return -ENOMEM;
				j->re = r;
				j->cap = cap;
			}
			n = entry_slots(s);
			j->re[j->nre].len = f2_le16(de->name_len);
			if (j->re[j->nre].len > F2_NAME_LEN || j->re[j->nre].len > n * F2_SLOT_LEN)
				j->re[j->nre].len = n * F2_SLOT_LEN;
			memcpy(j->re[j->nre].name, s->names[s->slot], j->re[j->nre].len);
			j->re[j->nre].ino = f2_le32(de->ino);
			j->re[j->nre].type = de->file_type;
			j->nre++;
			clear_entry(s);
			return 1;
		case RA_DENT_SETHASH:
			if (here && f2_le32(de->hash_code) != a->b) {
				f2_set_le32(de->hash_code, a->b);
				changed = 1;
			}
			break;
		case RA_DENT_BITS:
			if (here) {
				n = entry_slots(s);
				for (uint32_t k = 0; k < n; k++)
					f2_set_bit_lsb(s->bitmap, s->slot + k);
				changed = 1;
			}
			break;
		case RA_DENT_FTYPE:
			if (f2_le32(de->ino) == a->b && !is_dots(s, 1) && !is_dots(s, 2) &&
			    de->file_type != a->c) {
				de->file_type = (uint8_t)a->c;
				changed = 1;
			}
			break;
		case RA_DENT_DOT:
			if (is_dots(s, 1)) {
				a->d = 1;	/* found */
				if (f2_le32(de->ino) != j->dir) {
					f2_set_le32(de->ino, j->dir);
					changed = 1;
				}
			}
			break;
		case RA_DENT_DOTDOT:
			if (is_dots(s, 2)) {
				a->d = 1;
				if (f2_le32(de->ino) != a->b) {
					f2_set_le32(de->ino, a->b);
					changed = 1;
				}
			}
			break;
		}
	}
	return changed;
}

static int is_dir_act(uint8_t k)
{
	return k == RA_DENT_DROP || k == RA_DENT_DROP_INO || k == RA_DENT_REHASH ||
	       k == RA_DENT_SETHASH ||
	       k == RA_DENT_BITS || k == RA_DENT_FTYPE || k == RA_DENT_DOT || k == RA_DENT_DOTDOT;
}

/* Every change of directory dir recorded from ctx->acts[from] on, in one
 * pass over it.  A change is applied once: the slots a change names by
 * position may hold other entries after it (an entry added back for its
 * new hash goes to the first free slots). */
static int fix_dir(struct fsck_ctx *ctx, struct f2_engine *w, uint32_t dir, unsigned from)
{
	struct dir_job j = { ctx, dir, from, NULL, 0, 0, 0 };
	int err;

	for (unsigned i = from; i < ctx->nacts; i++)
		if (ctx->acts[i].a == dir && (ctx->acts[i].kind == RA_DENT_DOT ||
					      ctx->acts[i].kind == RA_DENT_DOTDOT))
			ctx->acts[i].d = 0;
	err = f2_engine_repair_dir_iter(w, dir, dir_slot, &j);
	/* "." and ".." first, so they take the first two slots the pass freed
	 * before any entry removed for a new hash is added back */
	for (unsigned i = from; i < ctx->nacts && !err; i++) {
		const struct rep_act *a = &ctx->acts[i];

		if (a->a != dir || a->d)
			continue;
		if (a->kind == RA_DENT_DOT)
			err = f2_engine_repair_dir_add(w, dir, (const uint8_t *)".", 1, dir, F2_FT_DIR);
		else if (a->kind == RA_DENT_DOTDOT)
			err = f2_engine_repair_dir_add(w, dir, (const uint8_t *)"..", 2, a->b,
						    F2_FT_DIR);
	}
	for (unsigned i = 0; i < j.nre && !err; i++)
		err = f2_engine_repair_dir_add(w, dir, j.re[i].name, j.re[i].len, j.re[i].ino,
					    j.re[i].type);
	free(j.re);
	return err;
}

/* ---- lost+found -------------------------------------------------------- */
static int reconnect(struct fsck_ctx *ctx, struct f2_engine *w)
{
	uint32_t root = f2_le32(ctx->fs->sb.root_ino), lf = ctx->lf_ino, ndirs = 0;
	struct f2_node *n;
	int err = 0;

	if (!ctx->reconnected)
		return 0;
	if (!lf) {
		struct f2_wattr a;
		time_t now = time(NULL);

		memset(&a, 0, sizeof(a));
		a.mode = S_IFDIR | 0700;
		a.atime = a.mtime = a.ctime = a.crtime = (uint64_t)now;
		err = f2_engine_create(w, root, "lost+found", 10, &a, &lf);
		if (err)
			return err;
	}
	for (unsigned i = 0; i < ctx->nacts && !err; i++) {
		const struct rep_act *a = &ctx->acts[i];
		char name[16];
		uint32_t ino;
		unsigned from;
		int len;

		if (a->kind != RA_RECONNECT)
			continue;
		len = snprintf(name, sizeof(name), "#%u", a->a);
		err = f2_engine_repair_dir_add(w, lf, (const uint8_t *)name, (size_t)len, a->a,
					    (uint8_t)a->c);
		if (!err)
			err = node_get(w, a->a, a->a, 0, &n);
		if (err)
			break;
		f2_set_le32(n->i.i_pino, lf);
		f2_set_le32(n->i.i_namelen, (uint32_t)len);
		memset(n->i.i_name, 0, sizeof(n->i.i_name));
		memcpy(n->i.i_name, name, (size_t)len);
		if (a->c == F2_FT_DIR) {
			ndirs++;
			if (ctx->lf_ino)
				continue;	/* the walk counted it under lost+found */
			ino = a->a;	/* rep_add may move ctx->acts, and a with it */
			from = ctx->nacts;	/* the new ".." alone: the rest is done */
			err = rep_add(ctx, 0, RA_DENT_DOTDOT, ino, lf, 0, 0);
			if (!err)
				err = fix_dir(ctx, w, ino, from);
		}
	}
	if (!err && !ctx->lf_ino && ndirs) {
		err = node_get(w, lf, lf, 0, &n);
		if (!err)
			f2_set_le32(n->i.i_links, f2_le32(n->i.i_links) + ndirs);
	}
	return err;
}

/* A new empty root directory in place of a damaged one (its NAT entry
 * cleared above): 0755, owned by root, made now. */
static int new_root(struct f2_engine *w, uint32_t root)
{
	struct f2_wattr a;
	time_t now = time(NULL);

	memset(&a, 0, sizeof(a));
	a.mode = S_IFDIR | 0755;
	a.atime = a.mtime = a.ctime = a.crtime = (uint64_t)now;
	return f2_engine_repair_root(w, root, &a);
}

static int apply(struct fsck_ctx *ctx, struct f2_engine *w)
{
	struct f2_fs *fs = f2_engine_fs(w);
	struct f2_node *n;
	int err = 0;

	for (unsigned i = 0; i < ctx->nacts && !err; i++)
		if (ctx->acts[i].kind == RA_NAT_BITS)
			err = f2_engine_repair_nat_bits(w);
	if (!err)
		err = rebuild_sit(ctx, w);
	/* logs off shared segments, onto free ones the walk found empty */
	for (unsigned i = 0; i < ctx->nacts && !err; i++)
		if (ctx->acts[i].kind == RA_CURSEG_MOVE)
			err = f2_engine_repair_curseg_move(w, (int)ctx->acts[i].a);
	if (!err)
		err = f2_engine_repair_cursegs(w);
	if (err)
		return err;
	f2_engine_repair_counts(w, ctx->blocks_found, (uint32_t)ctx->nodes_found,
			     (uint32_t)ctx->inodes_found);
	/* NAT entries, user_block_count */
	for (unsigned i = 0; i < ctx->nacts && !err; i++) {
		const struct rep_act *a = &ctx->acts[i];
		struct f2_nat_info ni;

		if (a->kind == RA_USER_BLOCKS) {
			f2_engine_repair_user_blocks(w, a->d);
		} else if (a->kind == RA_CP_RESERVE) {
			f2_engine_repair_reserve(w, a->a, a->b);
		} else if (a->kind == RA_NAT_RESERVED) {
			err = f2_engine_repair_nat_reserved(w, a->a);
		} else if (a->kind == RA_NAT_MOVE) {
			err = f2_engine_repair_nat(w, a->a, a->b, a->c);
		} else if (a->kind == RA_NAT_CLEAR) {
			err = f2_engine_repair_nat(w, a->a, 0, F2_NULL_ADDR);
		} else if (a->kind == RA_NAT_INO) {
			err = f2_nat_lookup(fs, a->a, &ni);
			if (!err)
				err = f2_engine_repair_nat(w, a->a, a->b, ni.blkaddr);
		}
	}
	for (unsigned i = 0; i < ctx->nacts && !err; i++)
		if (ctx->acts[i].kind == RA_ROOT_NEW)
			err = new_root(w, ctx->acts[i].a);
	/* nodes and inode fields */
	for (unsigned i = 0; i < ctx->nacts && !err; i++) {
		const struct rep_act *a = &ctx->acts[i];

		switch (a->kind) {
		case RA_NODE_REWRITE:
			err = node_get(w, a->a, a->b, (uint32_t)a->d, &n);
			break;
		case RA_NODE_WORD:
			err = node_get(w, a->a, a->b, (uint32_t)a->d, &n);
			if (!err)
				WORD(n, a->c) = f2_cpu_to_le32(0);
			/* the inode's extent may name what was cut off */
			if (!err)
				err = node_get(w, a->b, a->b, 0, &n);
			if (!err)
				memset(&n->i.i_ext, 0, sizeof(n->i.i_ext));
			break;
		case RA_NODE_SET:
			err = node_get(w, a->a, a->b, (uint32_t)a->d, &n);
			if (!err)
				WORD(n, a->c) = f2_cpu_to_le32((uint32_t)(a->d >> 32));
			break;
		case RA_INODE_LINKS:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le32(n->i.i_links, a->b);
			break;
		case RA_INODE_BLOCKS:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le64(n->i.i_blocks, a->d);
			break;
		case RA_INODE_COMPR_BLOCKS:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le64(n->i.i_compr_blocks, a->d);
			break;
		case RA_INODE_NAMELEN:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err && f2_le32(n->i.i_namelen) > F2_NAME_LEN)
				f2_set_le32(n->i.i_namelen, F2_NAME_LEN);
			break;
		case RA_INODE_DEPTH:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le32(n->i.i_current_depth, a->b);
			break;
		case RA_INODE_EXT:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				memset(&n->i.i_ext, 0, sizeof(n->i.i_ext));
			break;
		case RA_INODE_SIZE:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le64(n->i.i_size, a->d);
			break;
		case RA_INODE_EXTRA:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err) {
				n->i.i_inline |= F2_EXTRA_ATTR;
				f2_set_le16(n->i.i_extra_isize, (uint16_t)a->b);
				f2_set_le16(n->i.i_inline_xattr_size, (uint16_t)a->c);
			}
			break;
		case RA_INODE_FLAGS:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le32(n->i.i_flags, f2_le32(n->i.i_flags) & ~a->b);
			break;
		case RA_INODE_MODE:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le16(n->i.i_mode, (uint16_t)a->b);
			break;
		case RA_INODE_PINO:
			err = node_get(w, a->a, a->a, 0, &n);
			if (!err)
				f2_set_le32(n->i.i_pino, a->b);
			break;
		}
	}
	/* directory entries, one pass per directory */
	for (unsigned i = 0; i < ctx->nacts && !err; i++) {
		uint32_t dir = ctx->acts[i].a;
		int first = 1;

		if (!is_dir_act(ctx->acts[i].kind))
			continue;
		for (unsigned k = 0; k < i && first; k++)
			if (is_dir_act(ctx->acts[k].kind) && ctx->acts[k].a == dir)
				first = 0;
		if (first)
			err = fix_dir(ctx, w, dir, 0);
	}
	if (!err)
		err = reconnect(ctx, w);
	for (unsigned i = 0; i < ctx->nacts && !err; i++) {
		const struct rep_act *a = &ctx->acts[i];

		if (a->kind == RA_DATA_MOVE)
			err = f2_engine_repair_move(w, a->a, a->d, (int)a->c);
		else if (a->kind == RA_ORPHAN_DEL)
			err = f2_engine_orphan_del(w, a->a);
	}
	/* summary entries and types: after every move (an entry of a block
	 * moved away no longer matters) */
	for (unsigned i = 0; i < ctx->nacts && !err; i++) {
		const struct rep_act *a = &ctx->acts[i];

		if (a->kind == RA_SUM_SET)
			err = f2_engine_repair_sum(w, a->a, a->b, (uint16_t)a->c, (uint8_t)a->d);
		else if (a->kind == RA_SUM_TYPE)
			err = f2_engine_repair_sum_type(w, a->a, (int)a->b);
	}
	if (err)
		return err;
	f2_engine_cp_flags(w, 0, F2_CP_FSCK | F2_CP_ERROR);
	return f2_engine_checkpoint(w);
}

int pass_repair(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = NULL;
	struct f2_engine *w = NULL;
	int err;

	if (!ctx->nacts)
		return 0;
	if (ctx->errors_left || !ctx->rw) {
		/* (under -n nothing is written, and each finding said so) */
		if (ctx->opts.mode != MODE_NO && !ctx->probe)
			fprintf(ctx->out, "structural repairs not written: %s\n",
				ctx->errors_left ? "errors this version cannot repair are left"
						 : "the device is not open for writing");
		for (unsigned i = 0; i < ctx->nacts; i++)
			if (ctx->acts[i].code) {
				ctx->errors_left++;
				ctx->acts[i].code = 0;
			}
		return 0;
	}
	err = f2_fs_open_io(ctx->rw, NULL, &fs);
	if (!err)
		err = f2_engine_open(fs, &(struct f2_engine_opts){ .orphans_given = 1, .repairing = 1 }, &w);
	/* the orphan list as verified (pass_cp); those still linked go below */
	for (unsigned i = 0; i < ctx->orphans && !err; i++)
		err = f2_engine_orphan_add(w, ctx->orphan_inos[i]);
	if (!err)
		err = apply(ctx, w);
	if (err)
		fprintf(ctx->out, "structural repair failed: %s: %s\n", f2_strerror(err),
			w ? f2_engine_why(w) : fs ? fs->why : "");
	for (unsigned i = 0; i < ctx->nacts; i++)
		if (ctx->acts[i].code)
			problem_fixed(ctx, ctx->acts[i].code, !err);
	f2_engine_close(w);
	if (fs)
		f2_fs_close(fs);
	return 0;
}
