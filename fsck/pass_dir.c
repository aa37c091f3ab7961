// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_dir.c - dentries of one directory, called from the tree walk
 * (phase 5) for each directory block and for inline dentries.
 *
 * Checks each used slot: name length (non-zero, inside the block), the
 * bitmap bits of every slot the name covers, the hash of the name, the
 * hash bucket the block belongs to at its level, the file type, "." (the
 * directory itself) and ".." (kept for the walk to compare with the
 * parent), then hands every other entry to tree_dentry().
 * In a casefolded directory (utf8-12.1, f2/casefold.h) the hash is the
 * one the kernel stores (of the fold, or of the bytes of a name that
 * does not fold when the encoding is not strict); under the strict flag
 * a name that does not fold is one the kernel refuses; and a name the
 * kernel takes for an earlier one (or for "." or "..") is one it could
 * never have created.  Both are removed, their inodes left to the
 * unreachable pass (lost+found) unless named elsewhere.  A wrong hash is
 * rewritten in place when its bucket stays the same.  With an unknown
 * encoding, or encrypted, the names are not checked.
 */
#include <errno.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/casefold.h"
#include "f2/file.h"
#include "f2/hash.h"
#include "walk.h"
#include "problem.h"
#include "repair.h"

/* A wrong hash accepted for a fix: in a casefolded directory rewritten
 * in place when the entry's block stays right for it (inline, or the same
 * bucket); else the entry is removed and added again (the write engine
 * hashes and places it). */
static void rep_hash(struct walk *w, uint32_t slot, uint64_t bidx, int in_place, uint32_t hash)
{
	if (in_place && w->cf > 0)
		rep_add(w->ctx, PR_DENT_HASH, RA_DENT_SETHASH, w->ino, hash, slot, bidx);
	else
		rep_add(w->ctx, PR_DENT_HASH, RA_DENT_REHASH, w->ino, 0, slot, bidx);
}

static const char *cf_why(const uint8_t *name, uint32_t len)
{
	uint8_t buf[F2_CASEFOLD_BUF];
	int n = f2_utf8_casefold(name, len, buf, sizeof(buf));

	return n == -EILSEQ ? "not valid UTF-8" : n == 0 ? "folds to nothing" :
	       "folds to more than 254 bytes";
}

/*
 * A name of a casefolded directory: its hash in *want; 1 to check it, 0
 * not (the strict encoding refuses it and the fix was declined), -1 when
 * its removal was recorded.
 */
static int cf_name_ok(struct walk *w, const char *where, uint32_t slot, const uint8_t *name,
		      uint32_t len, uint64_t bidx, uint32_t *want)
{
	if (f2_dentry_hash_casefold(name, len, w->strict, want) >= 0)
		return 1;
	if (!fix_problem(w->ctx, PR_DENT_CF_INVALID,
			 "dir ino %u, %s slot %u, name \"%.*s\": %s, in a strict casefolded "
			 "directory", w->ino, where, slot, (int)len, name, cf_why(name, len)))
		return 0;
	rep_add(w->ctx, PR_DENT_CF_INVALID, RA_DENT_DROP, w->ino, 0, slot, bidx);
	return -1;
}

/* Is the name one the kernel takes for an earlier one?  1 when its
 * removal was recorded. */
static int cf_dup(struct walk *w, const char *where, uint32_t slot, const uint8_t *name,
		  uint32_t len, uint32_t ino, uint64_t bidx)
{
	int k = cf_names_find(&w->cfn, cf_names_key(name, len), name, len);
	const struct cf_name *c;

	if (k < 0)
		return 0;
	c = &w->cfn.v[k];
	if (!fix_problem(w->ctx, PR_DENT_CF_DUP,
			 "dir ino %u, %s slot %u, name \"%.*s\" (ino %u): the same name as "
			 "\"%.*s\" (ino %u) to the kernel", w->ino, where, slot, (int)len, name, ino,
			 (int)c->len, w->cfn.text + c->off, c->ino))
		return 0;
	rep_add(w->ctx, PR_DENT_CF_DUP, RA_DENT_DROP, w->ino, 0, slot, bidx);
	return 1;
}

/*
 * A name no lookup can reach and a path walk would misread: one holding
 * '/' or NUL, or "." or ".." anywhere but where the kernel makes them
 * (slots 0 and 1 of the first block, or of the inline area).
 */
static int illegal_name(const uint8_t *name, uint32_t len, uint64_t bidx, uint32_t slot)
{
	int first = bidx == 0 || bidx == UINT64_MAX;

	if (memchr(name, '/', len) || memchr(name, 0, len))
		return 1;
	if (len == 1 && name[0] == '.')
		return !(first && slot == 0);
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return !(first && slot == 1);
	return 0;
}

static void check_slots(struct walk *w, const uint8_t *bitmap, const struct f2_dir_entry *de,
			const uint8_t (*names)[F2_SLOT_LEN], uint32_t nr, uint64_t bidx)
{
	struct fsck_ctx *ctx = w->ctx;
	uint32_t level = 0;
	uint64_t bucket = 0, nb = 1;
	int placed = bidx != UINT64_MAX &&
		     !f2_dir_block_place(bidx, w->ir->node.i.i_dir_level, &level, &bucket, &nb);
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
		int kept;

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
		if (illegal_name(name, len, bidx, i)) {
			/* not followed: a file named only here is reconnected */
			if (fix_problem(ctx, PR_DENT_NAME_ILLEGAL,
					"dir ino %u, %s slot %u: name \"%.*s\" (%u bytes, ino %u)",
					w->ino, where, i, (int)len, name, len, ino))
				rep_add(ctx, PR_DENT_NAME_ILLEGAL, RA_DENT_DROP, w->ino, 0, i, bidx);
			goto next;
		}
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
			uint32_t want = 0;
			int check = w->cf >= 0;

			if (w->cf > 0) {
				int r = cf_name_ok(w, where, i, name, len, bidx, &want);

				if (r < 0)
					goto next;	/* removal recorded */
				check = r;
			} else if (check) {
				want = f2_dentry_hash(name, len);
			}
			if (check && want != hash) {
				if (fix_problem(ctx, PR_DENT_HASH,
						"dir ino %u, %s slot %u, name \"%.*s\": hash 0x%08x, "
						"expected 0x%08x", w->ino, where, i, (int)len, name,
						hash, want))
					rep_hash(w, i, bidx, !placed || want % nb == bucket, want);
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
			if (w->cf > 0 && cf_dup(w, where, i, name, len, ino, bidx))
				goto next;	/* removal recorded */
			kept = tree_dentry(w, ino, (uint8_t)ft, name, len);
			if (kept < 0)
				return;
			if (kept && w->cf > 0 && cf_names_add(&w->cfn, cf_names_key(name, len), name,
							   len, ino))
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
