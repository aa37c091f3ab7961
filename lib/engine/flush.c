// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/flush.c - the engine's write-out of a changed table (NAT or SIT) at a
 * checkpoint: the entries changed since the last checkpoint, and those the
 * last checkpoint's journal held, go in key order either into the new
 * journal (when they all fit) or into the table's other copy of each
 * block, whose version bit then flips. What differs between the two
 * tables (entry layout, encoding, block address) is a struct eng_flush_ops.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "internal.h"

/* Both journals and both table blocks are plain arrays of entries; a
 * journal slot is the le32 key followed by the table's on-disk entry. */
_Static_assert(offsetof(struct f2_journal, nat.entries) ==
	       offsetof(struct f2_journal, sit.entries), "journal entries");
_Static_assert(sizeof(struct f2_nat_journal_entry) == 4 + sizeof(struct f2_nat_entry) &&
	       offsetof(struct f2_nat_journal_entry, ne) == 4, "NAT journal slot");
_Static_assert(sizeof(struct f2_sit_journal_entry) == 4 + sizeof(struct f2_sit_entry) &&
	       offsetof(struct f2_sit_journal_entry, se) == 4, "SIT journal slot");
_Static_assert(offsetof(struct f2_nat_block, entries) == 0 &&
	       offsetof(struct f2_sit_block, entries) == 0, "table blocks");
_Static_assert(sizeof(((struct eng_nat *)0)->nid) == 4 && sizeof(((struct eng_sit *)0)->segno) == 4 &&
	       sizeof(((struct eng_nat *)0)->dirty) == 1 && sizeof(((struct eng_sit *)0)->dirty) == 1,
	       "engine entry keys and flags");

struct keyed {
	uint32_t key;
	void *e;
};

static int cmp_keyed(const void *a, const void *b)
{
	uint32_t x = ((const struct keyed *)a)->key, y = ((const struct keyed *)b)->key;

	return x < y ? -1 : x > y;
}

/* The uint8_t flag at byte off of an engine entry. */
static uint8_t *flag(void *e, size_t off)
{
	return (uint8_t *)e + off;
}

/* Written: no longer dirty; in_journal says where it now lives. */
static void written(const struct eng_flush_ops *ops, void *e, int in_journal)
{
	*flag(e, ops->dirty_off) = 0;
	*flag(e, ops->journal_off) = (uint8_t)in_journal;
}

/* v[0..n) grouped by table block, in block order (a counting sort: a
 * rebuild flushes an entry for every node); the order within a block
 * does not matter to to_blocks(). */
static int by_block(struct keyed **v, size_t n, uint32_t per_block)
{
	uint32_t nb = 0;
	size_t *at;
	struct keyed *out;

	for (size_t i = 0; i < n; i++)
		if ((*v)[i].key / per_block >= nb)
			nb = (*v)[i].key / per_block + 1;
	at = calloc((size_t)nb + 1, sizeof(*at));
	out = malloc((n ? n : 1) * sizeof(*out));
	if (!at || !out) {
		free(at);
		free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		at[(*v)[i].key / per_block + 1]++;
	for (uint32_t b = 0; b < nb; b++)
		at[b + 1] += at[b];
	for (size_t i = 0; i < n; i++)
		out[at[(*v)[i].key / per_block]++] = (*v)[i];
	free(at);
	free(*v);
	*v = out;
	return 0;
}

/* The pending entries of m (dirty or in the journal); sorted by key when
 * they are few (for the journal), else grouped by block. */
static int pending(const struct f2_map *m, const struct eng_flush_ops *ops, size_t few,
		   struct keyed **out, size_t *count)
{
	struct keyed *v = malloc((m->n ? m->n : 1) * sizeof(*v));
	size_t n = 0, pos = 0;
	void **slot;

	if (!v)
		return -ENOMEM;
	while ((slot = f2_map_next(m, &pos, NULL))) {
		void *e = *slot;

		if (*flag(e, ops->dirty_off) || *flag(e, ops->journal_off)) {
			memcpy(&v[n].key, (const uint8_t *)e + ops->key_off, sizeof(v[n].key));
			v[n++].e = e;
		}
	}
	*out = v;
	*count = n;
	if (n > few) {
		int err = by_block(out, n, ops->per_block);

		if (err)
			free(v);
		return err;
	}
	qsort(v, n, sizeof(*v), cmp_keyed);
	return 0;
}

static void to_journal(const struct eng_flush_ops *ops, const struct keyed *v, size_t n,
		       struct f2_journal *j)
{
	uint8_t *slot = (uint8_t *)j->nat.entries;

	for (size_t i = 0; i < n; i++, slot += 4 + ops->entry_size) {
		le32 key = f2_cpu_to_le32(v[i].key);

		memcpy(slot, &key, sizeof(key));
		ops->encode(v[i].e, slot + 4);
		written(ops, v[i].e, 1);
	}
	f2_set_le16(j->n_nats, (uint16_t)n);	/* n_sits shares it */
}

/* Rewrite the blocks holding v[0..n) into their other copies. */
static int to_blocks(struct f2_engine *w, const struct eng_flush_ops *ops, uint8_t *bitmap,
		     const struct keyed *v, size_t n)
{
	struct f2_fs *fs = w->fs;
	uint8_t *blk = malloc(F2_BLKSIZE);
	int err = 0;

	if (!blk)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err;) {
		uint32_t b = v[i].key / ops->per_block;
		int bit = f2_test_bit_msb(bitmap, b);

		err = f2_fs_read_block(fs, ops->addr(w, b, bit), blk);
		if (err) {
			err = eng_fail(w, err, "%s block %u: %s", ops->name, b, fs->why);
			break;
		}
		for (; i < n && v[i].key / ops->per_block == b; i++) {
			ops->encode(v[i].e, blk + (v[i].key % ops->per_block) * ops->entry_size);
			written(ops, v[i].e, 0);
		}
		if (ops->block_done)
			ops->block_done(w, b, blk);
		err = f2_io_write_block(fs->io, ops->addr(w, b, !bit), blk);
		if (err)
			err = eng_fail(w, err, "%s block %u: write failed", ops->name, b);
		if (bit)
			f2_clear_bit_msb(bitmap, b);
		else
			f2_set_bit_msb(bitmap, b);
	}
	free(blk);
	return err;
}

int eng_table_flush(struct f2_engine *w, const struct f2_map *m, const struct eng_flush_ops *ops,
		   uint8_t *bitmap, size_t journal_max, struct f2_journal *j)
{
	struct keyed *v;
	size_t n;
	int err = pending(m, ops, journal_max, &v, &n);

	if (err)
		return err;
	memset(j, 0, sizeof(*j));
	if (n <= journal_max)
		to_journal(ops, v, n, j);
	else
		err = to_blocks(w, ops, bitmap, v, n);
	free(v);
	return err;
}
