// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_dir.c - dentries of one directory, called from the tree walk
 * (phase 5) for each directory block and for inline dentries.
 *
 * Checks each used slot: name length (non-zero, inside the block), the
 * bitmap bits of every slot the name covers, the hash of the name
 * (unless the directory is casefolded: the fold is not done here), the
 * hash bucket the block belongs to at its level, the file type, "." (the
 * directory itself) and ".." (kept for the walk to compare with the
 * parent), then hands every other entry to tree_dentry().
 */
#include <string.h>
#include "f2/bitmap.h"
#include "f2/hash.h"
#include "walk.h"
#include "problem.h"
#include "repair.h"

#define HALF_DEPTH	(F2_MAX_DIR_HASH_DEPTH / 2)

static uint64_t nbuckets(uint32_t level, uint32_t dir_level)
{
	return level + dir_level < HALF_DEPTH ? 1ull << (level + dir_level)
					      : 1ull << (HALF_DEPTH - 1);
}

static uint32_t bucket_blocks(uint32_t level)
{
	return level < HALF_DEPTH ? 2 : 4;
}

/* Level and bucket of directory block bidx; 0 or -1 past the last level. */
static int place(uint64_t bidx, uint32_t dir_level, uint32_t *level, uint64_t *bucket,
		 uint64_t *nb)
{
	uint64_t start = 0;

	for (uint32_t l = 0; l < F2_MAX_DIR_HASH_DEPTH; l++) {
		uint64_t n = nbuckets(l, dir_level), len = n * bucket_blocks(l);

		if (bidx < start + len) {
			*level = l;
			*bucket = (bidx - start) / bucket_blocks(l);
			*nb = n;
			return 0;
		}
		start += len;
	}
	return -1;
}

static void check_slots(struct walk *w, const uint8_t *bitmap, const struct f2_dir_entry *de,
			const uint8_t (*names)[F2_SLOT_LEN], uint32_t nr, uint64_t bidx)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t level = 0;
	uint64_t bucket = 0, nb = 1;
	int placed = bidx != UINT64_MAX &&
		     !place(bidx, w->ir->node.i.i_dir_level, &level, &bucket, &nb);
	char where[64];

	if (bidx == UINT64_MAX)
		snprintf(where, sizeof(where), "inline");
	else
		snprintf(where, sizeof(where), "block %llu", (unsigned long long)bidx);
	if (placed && level + 1 > w->levels)
		w->levels = level + 1;
	for (uint32_t i = 0; i < nr;) {
		const struct f2_dir_entry *d = &de[i];
		uint32_t len, slots, ino, hash;
		const uint8_t *name = names[i];

		if (!f2_test_bit_lsb(bitmap, i)) {
			i++;
			continue;
		}
		len = f2_le16(d->name_len);
		ino = f2_le32(d->ino);
		slots = (len + F2_SLOT_LEN - 1) / F2_SLOT_LEN;
		if (!len || len > F2_NAME_LEN || i + slots > nr) {
			if (fix_problem(ctx, PR_DENT_NAMELEN,
					"dir ino %u, %s slot %u: name_len %u (ino %u)", w->ino, where,
					i, len, ino))
				rep_add(ctx, PR_DENT_NAMELEN, RA_DENT_DROP, w->ino, 0, i, bidx);
			i++;
			continue;
		}
		for (uint32_t k = 1; k < slots; k++)
			if (!f2_test_bit_lsb(bitmap, i + k)) {
				if (fix_problem(ctx, PR_DENT_BITMAP,
						"dir ino %u, %s slot %u: name \"%.*s\" spans %u slots, "
						"slot %u is free in the bitmap", w->ino, where, i,
						(int)len, name, slots, i + k))
					rep_add(ctx, PR_DENT_BITMAP, RA_DENT_BITS, w->ino, 0, i, bidx);
				break;
			}
		hash = f2_le32(d->hash_code);
		if (len == 1 && name[0] == '.') {
			w->have_dot = 1;
			if (ino != w->ino &&
			    fix_problem(ctx, PR_DENT_DOT, "dir ino %u: \".\" is ino %u", w->ino, ino))
				rep_add(ctx, PR_DENT_DOT, RA_DENT_DOT, w->ino, 0, 0, 0);
		} else if (len == 2 && name[0] == '.' && name[1] == '.') {
			w->have_dotdot = 1;
			w->dotdot = ino;
		} else {
			/* the kernel's lookup compares all 32 bits */
			int ft = d->file_type;

			if (w->hash_ok && f2_dentry_hash(name, len) != hash) {
				if (fix_problem(ctx, PR_DENT_HASH,
						"dir ino %u, %s slot %u, name \"%.*s\": hash 0x%08x, "
						"expected 0x%08x", w->ino, where, i, (int)len, name,
						hash, f2_dentry_hash(name, len)))
					rep_add(ctx, PR_DENT_HASH, RA_DENT_REHASH, w->ino, 0, i, bidx);
			} else if (placed && hash % nb != bucket) {
				if (fix_problem(ctx, PR_DENT_BUCKET,
						"dir ino %u, %s (level %u bucket %llu), name \"%.*s\": "
						"hash 0x%08x belongs in bucket %llu", w->ino, where,
						level, (unsigned long long)bucket, (int)len, name, hash,
						(unsigned long long)(hash % nb)))
					rep_add(ctx, PR_DENT_BUCKET, RA_DENT_REHASH, w->ino, 0, i,
						bidx);
			}
			w->bidx = bidx;
			w->slot = i;
			if (ft == F2_FT_UNKNOWN || ft >= F2_FT_MAX) {
				/* fixed: the inode's walk then sets the type from its mode */
				if (!fix_problem(ctx, PR_DENT_FTYPE,
						 "dir ino %u, name \"%.*s\": file type %u invalid",
						 w->ino, (int)len, name, d->file_type))
					goto next;
				rep_add(ctx, PR_DENT_FTYPE, RA_NOTE, 0, 0, 0, 0);
				ft = F2_FT_UNKNOWN;
			}
			if (tree_dentry(w, ino, (uint8_t)ft, name, len) < 0)
				return;
		}
next:
		i += slots;
	}
}

void dir_check_block(struct walk *w, const uint8_t *blk, uint64_t bidx)
{
	const struct f2_dentry_block *db = (const void *)blk;

	check_slots(w, db->dentry_bitmap, db->dentry, (const uint8_t (*)[F2_SLOT_LEN])db->filename,
		    F2_NR_DENTRY_IN_BLOCK, bidx);
}

void dir_check_inline(struct walk *w)
{
	uint32_t bytes = w->ir->inline_bytes;
	uint32_t nr = bytes * 8 / ((sizeof(struct f2_dir_entry) + F2_SLOT_LEN) * 8 + 1);
	uint32_t bitmap = (nr + 7) / 8;
	uint32_t reserved = bytes - (uint32_t)((sizeof(struct f2_dir_entry) + F2_SLOT_LEN) * nr) -
			    bitmap;
	const uint8_t *area = f2_inline_data(w->ir);
	const uint8_t *de = area + bitmap + reserved;

	check_slots(w, area, (const struct f2_dir_entry *)de,
		    (const uint8_t (*)[F2_SLOT_LEN])(de + nr * sizeof(struct f2_dir_entry)), nr,
		    UINT64_MAX);
}
