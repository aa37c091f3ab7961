// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * engine/nat.c - the engine's node manager: NAT entries (changed ones kept in
 * a map, written to the NAT journal or to the other NAT copy at a
 * checkpoint), free-nid allocation, the cache of node and directory
 * blocks and its write-back into the logs (data first, then nodes, with
 * footers and inode checksums set at write time).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/cp_pack.h"
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/node.h"
#include "internal.h"

#define BATCH	256	/* blocks per write when they are contiguous */

int eng_nat_get(struct f2_engine *w, uint32_t nid, struct eng_nat **out)
{
	if (nid == 0)
		return eng_fail(w, F2_ERANGE, "nid 0 is reserved");
	return eng_nat_get_any(w, nid, out);
}

/* A zeroed entry from the current slab. */
static struct eng_nat *nat_alloc(struct f2_engine *w)
{
	struct eng_nat_slab *s = w->nat_slab;

	if (!s || s->used == ENG_NAT_SLAB) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return NULL;
		s->next = w->nat_slab;
		w->nat_slab = s;
	}
	return &s->e[s->used++];
}

void eng_nat_free_all(struct f2_engine *w)
{
	while (w->nat_slab) {
		struct eng_nat_slab *s = w->nat_slab;

		w->nat_slab = s->next;
		free(s);
	}
	f2_map_free(&w->nat);
}

int eng_nat_get_any(struct f2_engine *w, uint32_t nid, struct eng_nat **out)
{
	struct eng_nat *e = f2_pmap_get(&w->nat, nid);
	struct f2_nat_info ni;
	int err;

	if (e) {
		*out = e;
		return 0;
	}
	if (nid >= w->fs->max_nid)
		return eng_fail(w, F2_ERANGE, "nid %u beyond the NAT (max %u)", nid,
			       w->fs->max_nid);
	err = f2_nat_lookup(w->fs, nid, &ni);
	if (err)
		return eng_fail(w, err, "nid %u: %s", nid, w->fs->why);
	e = nat_alloc(w);
	if (!e)
		return -ENOMEM;
	e->nid = nid;
	e->ino = ni.ino;
	e->blkaddr = ni.blkaddr;
	e->version = ni.version;
	e->in_journal = (uint8_t)ni.in_journal;
	err = f2_pmap_put(&w->nat, nid, e);
	if (err)
		return err;	/* e stays in its slab, unused */
	*out = e;
	return 0;
}

/* Is nid free (never touched by us, or untouched since our open)? */
static int nid_free(struct f2_engine *w, uint32_t nid, int *err)
{
	struct eng_nat *e = f2_pmap_get(&w->nat, nid);
	struct f2_nat_info ni;

	*err = 0;
	if (e)
		return !e->blkaddr && !e->dirty;
	*err = f2_nat_lookup(w->fs, nid, &ni);
	if (*err)
		return 0;
	return !ni.blkaddr;
}

int eng_nid_alloc(struct f2_engine *w, uint32_t ino, uint32_t *out)
{
	uint32_t first = F2_ROOT_INO + 1, range = w->fs->max_nid - first;
	uint32_t nid = w->next_nid < first || w->next_nid >= w->fs->max_nid ? first :
		       w->next_nid;
	struct eng_nat *e;
	int err;

	for (uint32_t k = 0; k < range; k++, nid = nid + 1 >= w->fs->max_nid ? first : nid + 1) {
		if (!nid_free(w, nid, &err)) {
			if (err)
				return eng_fail(w, err, "free nid search at %u: %s", nid,
					       w->fs->why);
			continue;
		}
		err = eng_nat_get(w, nid, &e);
		if (err)
			return err;
		e->ino = ino ? ino : nid;
		e->blkaddr = F2_NEW_ADDR;
		e->dirty = 1;
		w->next_nid = nid + 1;
		w->valid_nodes++;
		if (e->ino == nid)
			w->valid_inodes++;
		*out = nid;
		return 0;
	}
	return eng_fail(w, F2_ENOSPC, "no free nid (%u nids)", w->fs->max_nid);
}

void eng_nid_free(struct f2_engine *w, struct eng_nat *e)
{
	if (e->ino == e->nid && w->valid_inodes)
		w->valid_inodes--;
	if (w->valid_nodes)
		w->valid_nodes--;
	e->blkaddr = F2_NULL_ADDR;
	e->ino = 0;
	e->version++;
	e->dirty = 1;
}

struct eng_blk *eng_blk_new(struct f2_engine *w)
{
	struct eng_blk *b = w->blk_pool;

	if (!b)
		return malloc(sizeof(*b));
	memcpy(&w->blk_pool, b, sizeof(w->blk_pool));
	return b;
}

void eng_blk_free(struct f2_engine *w, struct eng_blk *b)
{
	if (!b)
		return;
	memcpy(b, &w->blk_pool, sizeof(w->blk_pool));
	w->blk_pool = b;
}

int eng_cache_put(struct f2_engine *w, struct f2_map *m, struct eng_blk *b)
{
	int err = f2_pmap_put(m, b->key, b);

	if (err) {
		eng_blk_free(w, b);
		return err;
	}
	w->cached++;
	return 0;
}

int eng_node_read(struct f2_engine *w, uint32_t nid, uint32_t ino, struct eng_blk **out)
{
	struct eng_blk *b;
	struct eng_nat *e;
	int err = eng_nat_get(w, nid, &e);

	if (err)
		return err;
	if (!f2_fs_in_main(w->fs, e->blkaddr))
		return eng_fail(w, F2_ECORRUPT, "nid %u: NAT block address %u not in the main area",
			       nid, e->blkaddr);
	if (ino && e->ino != ino)
		return eng_fail(w, F2_ECORRUPT, "nid %u: owner ino %u, expected %u", nid, e->ino,
			       ino);
	b = eng_blk_new(w);
	if (!b)
		return -ENOMEM;
	err = f2_fs_read_block(w->fs, e->blkaddr, b->data);
	if (err) {
		eng_blk_free(w, b);
		return eng_fail(w, err, "nid %u: %s", nid, w->fs->why);
	}
	b->key = nid;
	b->kind = 'n';
	b->dirty = 0;
	b->ino = e->ino;
	*out = b;
	return 0;
}

int eng_node_get(struct f2_engine *w, uint32_t nid, uint32_t ino, struct eng_blk **out)
{
	struct eng_blk *b = f2_pmap_get(&w->nodes, nid);
	struct f2_node *n;
	uint32_t ofs;
	int err;

	if (b) {
		*out = b;
		return 0;
	}
	err = eng_node_read(w, nid, ino, &b);
	if (err)
		return err;
	n = eng_node(b);
	if (f2_le32(n->footer.nid) != nid || f2_le32(n->footer.ino) != b->ino) {
		uint32_t fn = f2_le32(n->footer.nid), fi = f2_le32(n->footer.ino);

		eng_blk_free(w, b);
		return eng_fail(w, F2_ECORRUPT, "nid %u: footer says nid %u ino %u", nid, fn, fi);
	}
	ofs = f2_node_ofs(n);
	b->log = !f2_node_is_dnode(ofs) ? F2_CURSEG_COLD_NODE :
		 (f2_le32(n->footer.flag) & F2_FOOTER_COLD) ? F2_CURSEG_WARM_NODE :
		 F2_CURSEG_HOT_NODE;
	err = eng_cache_put(w, &w->nodes, b);
	if (err)
		return err;
	*out = b;
	return 0;
}

int eng_node_attach(struct f2_engine *w, uint32_t nid, uint32_t ino, uint32_t ofs, int is_dir,
		   struct eng_blk **out)
{
	struct eng_blk *b = eng_blk_new(w);
	struct f2_node *n;
	int err;

	if (!b)
		return -ENOMEM;
	memset(b, 0, sizeof(*b));
	n = eng_node(b);
	f2_set_le32(n->footer.nid, nid);
	f2_set_le32(n->footer.ino, ino);
	f2_set_le32(n->footer.flag, ofs << F2_FOOTER_OFFSET_SHIFT | (is_dir ? 0 : F2_FOOTER_COLD));
	b->key = nid;
	b->kind = 'n';
	b->dirty = 1;
	b->ino = ino;
	b->log = !f2_node_is_dnode(ofs) ? F2_CURSEG_COLD_NODE :
		 is_dir ? F2_CURSEG_HOT_NODE : F2_CURSEG_WARM_NODE;
	err = eng_cache_put(w, &w->nodes, b);
	if (err)
		return err;
	*out = b;
	return 0;
}

int eng_node_new(struct f2_engine *w, uint32_t ino, uint32_t ofs, int is_dir,
		uint32_t *nid, struct eng_blk **out)
{
	int err = eng_nid_alloc(w, ino, nid);

	return err ? err : eng_node_attach(w, *nid, ino ? ino : *nid, ofs, is_dir, out);
}

int eng_node_free(struct f2_engine *w, uint32_t nid)
{
	struct eng_nat *e;
	struct eng_blk *b;
	int err = eng_nat_get(w, nid, &e);

	if (err)
		return err;
	if (e->blkaddr == F2_NULL_ADDR)
		return eng_fail(w, F2_ECORRUPT, "nid %u freed twice", nid);
	err = eng_invalidate(w, e->blkaddr);
	if (err)
		return err;
	eng_nid_free(w, e);
	b = f2_pmap_del(&w->nodes, nid);
	if (b) {
		eng_blk_free(w, b);
		w->cached--;
	}
	return 0;
}

/* ---- write-back ------------------------------------------------------- */
struct batch {
	struct f2_engine *w;
	uint64_t start;
	uint32_t n;
	uint8_t *buf;
};

static int batch_flush(struct batch *bt)
{
	int err = 0;

	if (bt->n)
		err = f2_io_write(bt->w->fs->io, bt->start * F2_BLKSIZE, bt->buf,
				  (size_t)bt->n * F2_BLKSIZE);
	if (err)
		err = eng_fail(bt->w, err, "blocks %llu..%llu: write failed",
			      (unsigned long long)bt->start,
			      (unsigned long long)(bt->start + bt->n - 1));
	bt->n = 0;
	return err;
}

static int batch_add(struct batch *bt, uint64_t addr, const void *blk)
{
	int err;

	if (bt->n && (addr != bt->start + bt->n || bt->n == BATCH)) {
		err = batch_flush(bt);
		if (err)
			return err;
	}
	if (!bt->n)
		bt->start = addr;
	memcpy(bt->buf + (size_t)bt->n * F2_BLKSIZE, blk, F2_BLKSIZE);
	bt->n++;
	return 0;
}

static int cmp_blk(const void *a, const void *b)
{
	const struct eng_blk *x = *(const struct eng_blk *const *)a;
	const struct eng_blk *y = *(const struct eng_blk *const *)b;

	if (x->log != y->log)
		return x->log < y->log ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static struct eng_blk **dirty_list(struct f2_map *m, size_t *n)
{
	struct eng_blk **v = (struct eng_blk **)f2_pmap_values(m);
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		if (v[i]->dirty)
			v[k++] = v[i];
	qsort(v, k, sizeof(*v), cmp_blk);
	*n = k;
	return v;
}

static int write_node(struct f2_engine *w, struct batch *bt, struct eng_blk *b)
{
	struct f2_node *n = eng_node(b);
	uint32_t nid = (uint32_t)b->key, addr;
	struct eng_nat *e;
	int err = eng_nat_get(w, nid, &e);

	if (err)
		return err;
	err = eng_invalidate(w, e->blkaddr);
	if (err)
		return err;
	err = eng_alloc_block(w, b->log, nid, 0, 0, &addr);
	if (err)
		return err;
	f2_set_le64(n->footer.cp_ver, w->cp_ver);
	f2_set_le32(n->footer.next_blkaddr, addr + 1);
	if (nid == b->ino && f2_node_ofs(n) == 0 && (w->fs->features & F2_FEAT_INODE_CHKSUM) &&
	    (n->i.i_inline & F2_EXTRA_ATTR) &&
	    f2_le16(n->i.i_extra_isize) >= offsetof(struct f2_inode, i_crtime) -
					   offsetof(struct f2_inode, i_extra_isize))
		f2_set_le32(n->i.i_inode_checksum, f2_inode_csum(w->fs->csum_seed, n));
	e->blkaddr = addr;
	e->dirty = 1;
	b->dirty = 0;
	return batch_add(bt, addr, n);
}

int eng_writeback(struct f2_engine *w)
{
	struct batch bt = { .w = w };
	struct eng_blk **v;
	size_t n;
	int err = 0;

	bt.buf = malloc((size_t)BATCH * F2_BLKSIZE);
	if (!bt.buf)
		return -ENOMEM;
	/* directory blocks first: they set addresses in nodes */
	v = dirty_list(&w->dblks, &n);
	if (!v) {
		free(bt.buf);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n && !err; i++) {
		err = eng_write_block_at(w, v[i]->ino, v[i]->fofs, v[i]->log, v[i]->data);
		v[i]->dirty = 0;
	}
	free(v);
	if (err)
		goto out;
	v = dirty_list(&w->nodes, &n);
	if (!v) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n && !err; i++)
		err = write_node(w, &bt, v[i]);
	free(v);
	if (!err)
		err = batch_flush(&bt);
out:
	free(bt.buf);
	return err;
}

static void evict_clean(struct f2_engine *w, struct f2_map *m)
{
	struct eng_blk **v = (struct eng_blk **)f2_pmap_values(m);
	size_t n = m->n;

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		if (!v[i]->dirty) {
			f2_pmap_del(m, v[i]->key);
			eng_blk_free(w, v[i]);
			w->cached--;
		}
	free(v);
}

int eng_maybe_writeback(struct f2_engine *w)
{
	int err;

	if (w->cached < w->o.cache_blocks)
		return 0;
	err = eng_writeback(w);
	if (err)
		return err;
	evict_clean(w, &w->dblks);
	evict_clean(w, &w->nodes);
	return 0;
}

/* ---- NAT write-out ---------------------------------------------------- */
int eng_nat_bits_load(struct f2_engine *w)
{
	struct f2_fs *fs = w->fs;
	uint64_t start = fs->packs[fs->cp_pack].start, want;
	uint32_t off = f2_le32(fs->cp->checksum_offset), crc;
	int err;

	w->nat_bits_bytes = fs->nat_blocks / 8;
	w->nat_bits_blocks = f2_nat_bits_blocks(fs);
	w->nat_bits = calloc(w->nat_bits_blocks, F2_BLKSIZE);
	if (!w->nat_bits)
		return -ENOMEM;
	if (!(fs->cp_flags & F2_CP_NAT_BITS) || off > F2_CP_CHKSUM_OFFSET ||
	    w->nat_bits_blocks >= F2_BLKS_PER_SEG)
		return 0;
	for (uint32_t i = 0; i < w->nat_bits_blocks; i++) {
		err = f2_fs_read_block(fs, start + F2_BLKS_PER_SEG - w->nat_bits_blocks + i,
				       w->nat_bits + (size_t)i * F2_BLKSIZE);
		if (err)
			return eng_fail(w, err, "nat_bits: %s", fs->why);
	}
	memcpy(&crc, fs->cp_raw + off, 4);
	want = fs->cp_ver | (uint64_t)f2_le32(crc) << 32;
	w->nat_bits_on = f2_le64(*(le64 *)w->nat_bits) == want;
	return 0;
}

uint32_t f2_nat_bits_blocks(const struct f2_fs *fs)
{
	return (2 * (fs->nat_blocks / 8) + F2_NAT_BITS_CRC_SIZE + F2_BLKSIZE - 1) / F2_BLKSIZE;
}

/* NAT block b has used entries in use (nid 0 counted): its full and
 * empty bits in nat_bits (bytes bytes of each after the header). */
static void nat_bits_mark(uint8_t *nat_bits, uint32_t bytes, uint32_t b, uint32_t used)
{
	uint8_t *full = nat_bits + F2_NAT_BITS_CRC_SIZE, *empty = full + bytes;

	if (used)
		f2_clear_bit_lsb(empty, b);
	else
		f2_set_bit_lsb(empty, b);
	if (used == F2_NAT_ENTRIES_PER_BLOCK)
		f2_set_bit_lsb(full, b);
	else
		f2_clear_bit_lsb(full, b);
}

struct nb_count {
	uint32_t *used;
	uint32_t nblocks;
};

static int nb_one(void *arg, const struct f2_nat_info *ni)
{
	struct nb_count *c = arg;
	uint32_t b = ni->nid / F2_NAT_ENTRIES_PER_BLOCK;

	if (ni->nid && ni->blkaddr != F2_NULL_ADDR && b < c->nblocks)
		c->used[b]++;
	return 0;
}

int f2_nat_bits_build(struct f2_fs *fs, uint8_t *nat_bits)
{
	uint32_t bytes = fs->nat_blocks / 8;
	struct nb_count c = { NULL, bytes * 8 };
	int err;

	c.used = calloc(c.nblocks + 1, sizeof(*c.used));
	if (!c.used)
		return -ENOMEM;
	err = f2_nat_iter(fs, nb_one, &c);
	for (uint32_t b = 0; b < c.nblocks && !err; b++)
		nat_bits_mark(nat_bits, bytes, b, c.used[b] + (b == 0));
	free(c.used);
	return err;
}

/* Full/empty bits of NAT block b from its contents (nid 0 counts used). */
static void nat_bits_update(struct f2_engine *w, uint32_t b, const struct f2_nat_block *nb)
{
	uint32_t used = b == 0;

	if (b >= w->nat_bits_bytes * 8)
		return;
	for (uint32_t i = b == 0; i < F2_NAT_ENTRIES_PER_BLOCK; i++)
		if (f2_le32(nb->entries[i].block_addr) != F2_NULL_ADDR)
			used++;
	nat_bits_mark(w->nat_bits, w->nat_bits_bytes, b, used);
}

static void nat_encode(const void *entry, void *dst)
{
	const struct eng_nat *e = entry;
	struct f2_nat_entry *ne = dst;

	ne->version = e->version;
	f2_set_le32(ne->ino, e->ino);
	f2_set_le32(ne->block_addr, e->blkaddr);
}

/* NAT block b's two copies sit a segment apart, in alternate segments. */
static uint64_t nat_addr(const struct f2_engine *w, uint32_t b, int copy)
{
	return w->fs->nat_blkaddr +
	       ((uint64_t)(b >> F2_LOG_BLKS_PER_SEG) << (F2_LOG_BLKS_PER_SEG + 1)) +
	       (b & (F2_BLKS_PER_SEG - 1)) + (copy ? F2_BLKS_PER_SEG : 0);
}

static void nat_block_done(struct f2_engine *w, uint32_t b, const uint8_t *blk)
{
	if (w->nat_bits_on)
		nat_bits_update(w, b, (const struct f2_nat_block *)blk);
}

static const struct eng_flush_ops nat_ops = {
	"NAT", F2_NAT_ENTRIES_PER_BLOCK, sizeof(struct f2_nat_entry),
	offsetof(struct eng_nat, nid), offsetof(struct eng_nat, dirty),
	offsetof(struct eng_nat, in_journal), nat_encode, nat_addr, nat_block_done,
};

/* With nat_bits kept, every change goes to a block (journal_max 0). */
int eng_nat_flush(struct f2_engine *w, struct f2_journal *j)
{
	return eng_table_flush(w, &w->nat, &nat_ops, w->nat_bitmap,
			      w->nat_bits_on ? 0 : F2_NAT_JOURNAL_ENTRIES, j);
}
