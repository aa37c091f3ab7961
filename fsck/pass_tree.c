// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pass_tree.c - phase 5: the node tree, from the root inode down.
 *
 * Starts from the root, the quota inodes and the orphan inodes and
 * follows every dentry (pass_dir.c checks the dentries themselves), one
 * inode at a time from a work list, so only one inode's nodes are in
 * memory.  For each inode: NAT entry, footer (nid, ino, offset 0), the
 * library's inode verifier, checksum, i_namelen, inline flags; then
 * every node under it (direct, indirect, double indirect, xattr): nid in
 * range and in use, owned by the inode in the NAT, footer nid/ino/offset
 * as its place in the tree implies, reached once; every block (node and
 * data): inside the main area, valid in the SIT, in a segment of the
 * right kind, claimed once, and named by its SSA entry.  Then i_blocks
 * against the blocks found, and at the end i_links against the dentries
 * found, "." and "..", directories linked more than once.
 * Builds: ctx->nid_reached, ctx->blk_claimed, ctx->inodes (link counts),
 * the node/inode/block totals for pass_counts.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/casefold.h"
#include "f2/errors.h"
#include "f2/node.h"
#include "walk.h"
#include "problem.h"
#include "repair.h"

#define NO_PTR		UINT32_MAX	/* load_node: no node points to it (an inode) */
#define W_INID(i)	((uint32_t)(offsetof(struct f2_inode, i_nid) / 4) + (uint32_t)(i))
#define W_XNID		((uint32_t)(offsetof(struct f2_inode, i_xattr_nid) / 4))
#define W_IADDR		((uint32_t)(offsetof(struct f2_inode, i_addr) / 4))

/* Where a pointer being followed sits: word `word` of node `nid` (node
 * offset `ofs`) of the inode walked; NO_PTR for an inode named by a
 * dentry. */
struct ptr {
	uint32_t nid, ofs, word;
};

static uint8_t ftype_of(uint16_t mode)
{
	return f2_ftype_of_mode(mode);
}

/* The type a segment's summary block carries must be its SIT type's kind
 * (the kernel's cleaner refuses a segment where they differ).  A current
 * segment's summary is the checkpoint's copy, or rebuilt at mount: the
 * SSA block is not read there. */
static void ssa_check_type(struct fsck_ctx *ctx, uint32_t segno, const struct f2_summary_block *b)
{
	uint8_t type = ctx->seg_type[segno];
	int node = type >= F2_CURSEG_HOT_NODE;

	if (type >= F2_NR_CURSEG || f2_curseg_of(ctx->fs, segno) >= 0 ||
	    b->footer.entry_type == (node ? F2_SUM_TYPE_NODE : F2_SUM_TYPE_DATA))
		return;
	if (fix_problem(ctx, PR_SSA_TYPE, "segment %u: summary type %u, a %s segment in the SIT",
			segno, b->footer.entry_type, node ? "node" : "data"))
		rep_add(ctx, PR_SSA_TYPE, RA_SUM_TYPE, segno, (uint32_t)node, 0, 0);
}

/* SSA entry of blkaddr, from a small per-segment cache; NULL on a
 * read-only volume (feature ro: no SSA, its blocks never move). */
const struct f2_summary *ssa_entry(struct fsck_ctx *ctx, uint32_t blkaddr)
{
	uint32_t segno = f2_fs_segno(ctx->fs, blkaddr);
	unsigned i;

	if (ctx->fs->features & F2_FEAT_RO)
		return NULL;
	for (i = 0; i < SSA_CACHE; i++)
		if (ctx->ssa_segno[i] == segno)
			goto found;
	i = ctx->ssa_next;
	ctx->ssa_next = (ctx->ssa_next + 1) % SSA_CACHE;
	ctx->ssa_segno[i] = F2_NULL_SEGNO;
	if (f2_ssa_read(ctx->fs, segno, &ctx->ssa_blk[i], NULL)) {
		fix_problem(ctx, PR_SSA_READ, "segment %u: %s", segno, ctx->fs->why);
		return NULL;
	}
	ctx->ssa_segno[i] = segno;
	ssa_check_type(ctx, segno, &ctx->ssa_blk[i]);
found:
	return &ctx->ssa_blk[i].entries[(blkaddr - ctx->fs->main_blkaddr) % F2_BLKS_PER_SEG];
}

void ssa_free(struct fsck_ctx *ctx)
{
	free(ctx->ssa_blk);
	ctx->ssa_blk = NULL;
}

/* An accepted fix that writes a block again: a node (nid at node offset
 * ofs) is rewritten, a data block (file block fofs) moved; compressed
 * clusters are not moved by this version. */
static void rep_move(struct walk *w, uint32_t code, int is_node, uint32_t nid, uint32_t ofs,
		     uint64_t fofs)
{
	if (is_node)
		rep_add(w->ctx, code, RA_NODE_REWRITE, nid, w->ino, 0, ofs);
	else if (w->ir->cluster_blocks)
		problem_fixed(w->ctx, code, 0);
	else
		rep_add(w->ctx, code, RA_DATA_MOVE, w->ino, 0, (uint32_t)w->is_dir, fofs);
}

/*
 * Claim blkaddr for the walk: a node block of nid (is_node) or a data
 * block at ofs_in_node of direct node nid.  0 when the block is usable.
 */
static int claim(struct walk *w, uint32_t blkaddr, int is_node, uint32_t nid, uint32_t ofs,
		 uint64_t fofs, uint32_t word)
{
	struct fsck_ctx *ctx = w->ctx;
	int64_t idx = main_idx(ctx, blkaddr);
	uint32_t segno;
	const struct f2_summary *s;
	uint8_t type;

	if (idx < 0) {
		if (is_node)
			return -1;	/* the NAT phase reported it */
		if (fix_problem(ctx, PR_DATA_ADDR_RANGE,
				"ino %u: file block %llu at block address %u (nid %u slot %u) "
				"outside the main area", w->ino, (unsigned long long)fofs, blkaddr,
				nid, ofs))
			rep_add(ctx, PR_DATA_ADDR_RANGE, RA_NODE_WORD, nid, w->ino, word, w->nofs);
		return -1;
	}
	switch (sbm_set(&ctx->blk_claimed, (uint64_t)idx)) {
	case -1:
		return -ENOMEM;
	case 1:
		if (is_node)
			return fix_problem(ctx, PR_NODE_DUP_BLOCK,
					   "ino %u: nid %u at block address %u, already claimed",
					   w->ino, nid, blkaddr) ? -2 : -1;
		if (fix_problem(ctx, PR_DATA_DUP_BLOCK,
				"ino %u: file block %llu at block address %u, already claimed",
				w->ino, (unsigned long long)fofs, blkaddr))
			rep_add(ctx, PR_DATA_DUP_BLOCK, RA_NODE_WORD, nid, w->ino, word, w->nofs);
		return -1;
	}
	segno = f2_fs_segno(ctx->fs, blkaddr);
	if (!sbm_test(&ctx->sit_valid, (uint64_t)idx)) {
		if (!is_node &&	/* node blocks: reported by the NAT phase */
		    fix_problem(ctx, PR_DATA_NOT_VALID,
				"ino %u: file block %llu at block address %u (segment %u) is "
				"free in the SIT", w->ino, (unsigned long long)fofs, blkaddr,
				segno))
			rep_add(ctx, PR_DATA_NOT_VALID, RA_NOTE, 0, 0, 0, 0);
	}
	type = ctx->seg_type[segno];
	if (is_node != (type >= F2_CURSEG_HOT_NODE) && type < F2_NR_CURSEG &&
	    fix_problem(ctx, PR_NODE_SEG_TYPE,
			"ino %u: %s block at block address %u in segment %u of type %u",
			w->ino, is_node ? "node" : "data", blkaddr, segno, type))
		rep_move(w, PR_NODE_SEG_TYPE, is_node, nid, ofs, fofs);
	s = ssa_entry(ctx, blkaddr);
	if (is_node) {
		int c = f2_curseg_of(ctx->fs, segno);

		/* a checkpoint taken while mounted keeps no node summaries: the
		 * kernel rebuilds those of the current node segments from the
		 * node footers (load_node checks them); the SSA area is stale there */
		if (c >= F2_CURSEG_HOT_NODE && !ctx->fs->curseg[c].have_sum)
			s = NULL;
	}
	if (s && is_node && f2_le32(s->nid) != nid &&
	    fix_problem(ctx, PR_SSA_NODE, "block address %u: SSA names nid %u, it holds nid %u",
			blkaddr, f2_le32(s->nid), nid))
		rep_move(w, PR_SSA_NODE, 1, nid, ofs, 0);
	if (s && !is_node) {
		uint8_t ver = w->nver >= 0 ? (uint8_t)w->nver : s->version;

		if ((f2_le32(s->nid) != nid || f2_le16(s->ofs_in_node) != ofs ||
		     s->version != ver) &&
		    fix_problem(ctx, PR_SSA_DATA,
				"block address %u: SSA names nid %u slot %u version %u, it is "
				"ino %u's file block %llu in nid %u slot %u (version %u)", blkaddr,
				f2_le32(s->nid), f2_le16(s->ofs_in_node), s->version, w->ino,
				(unsigned long long)fofs, nid, ofs, ver))
			rep_add(ctx, PR_SSA_DATA, RA_SUM_SET, blkaddr, nid, ofs, ver);
	}
	ctx->blocks_found++;
	return 0;
}

/* An accepted fix "clear the pointer" of problem code: the word at p, or
 * for an inode named by a dentry (no pointer) that dentry; node nid (when
 * set) then belongs to nothing and its NAT entry is freed. */
static void clear_ptr(struct walk *w, uint32_t code, const struct ptr *p, uint32_t nid,
		      uint32_t parent)
{
	struct fsck_ctx *ctx = w->ctx;

	if (p->word != NO_PTR)
		rep_add(ctx, code, RA_NODE_WORD, p->nid, w->ino, p->word, p->ofs);
	else if (parent)
		rep_add(ctx, code, RA_DENT_DROP_INO, parent, w->ino, 0, 0);
	else	/* a root: nothing names it; the file system's own is made anew */
		problem_fixed(ctx, code, w->ino == f2_le32(ctx->fs->sb.root_ino));
	if (nid)
		rep_nat_clear(ctx, 0, nid);
}

/* Undo the claim of node nid's block (the walk keeps it out). */
static void unclaim_node(struct walk *w, uint32_t blkaddr)
{
	int64_t idx = main_idx(w->ctx, blkaddr);

	if (idx >= 0)
		sbm_clear(&w->ctx->blk_claimed, (uint64_t)idx);
	w->nodes--;
	w->ctx->nodes_found--;
	w->ctx->blocks_found--;
}

static int by_owner(const void *a, const void *b)
{
	const struct owned *x = a, *y = b;

	return x->ino != y->ino ? (x->ino < y->ino ? -1 : 1) : (x->nid > y->nid) - (x->nid < y->nid);
}

/* ctx->owned: every node in use that is not an inode, with its owner in
 * the NAT (one pass over the NAT, at the first bad pointer only). */
static int build_owned(struct fsck_ctx *ctx)
{
	struct f2_nat_info ni;

	ctx->owned_built = 1;
	for (uint64_t nid = sbm_next(&ctx->nat_used, 0); nid < ctx->nat_used.nbits;
	     nid = sbm_next(&ctx->nat_used, nid + 1)) {
		if (fsck_nat(ctx, (uint32_t)nid, &ni) || ni.ino == ni.nid)
			continue;
		if (grow_array(&ctx->owned, ctx->nowned, sizeof(*ctx->owned)))
			return -ENOMEM;
		ctx->owned[ctx->nowned].ino = ni.ino;
		ctx->owned[ctx->nowned++].nid = (uint32_t)nid;
	}
	if (ctx->nowned)
		qsort(ctx->owned, ctx->nowned, sizeof(*ctx->owned), by_owner);
	return 0;
}

/*
 * The node a bad pointer should have named: in use in the NAT, owned by
 * w's inode there, not reached yet, its footer naming itself, the inode
 * and offset ofs (each offset has one place in an inode's tree).  A
 * pointer bent elsewhere leaves it unreachable; putting it back keeps
 * the file's blocks under it.  0 when there is none (or two).
 */
static uint32_t displaced_node(struct walk *w, uint32_t ofs)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2_node n;
	struct f2_nat_info ni;
	uint32_t found = 0, lo = 0, hi;

	if (!ctx->owned_built && build_owned(ctx))
		return 0;
	/* the first of w's inode's nodes */
	for (hi = ctx->nowned; lo < hi;) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ctx->owned[mid].ino < w->ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ctx->nowned && ctx->owned[lo].ino == w->ino; lo++) {
		uint32_t nid = ctx->owned[lo].nid;

		if (sbm_test(&ctx->nid_reached, nid) || fsck_nat(ctx, nid, &ni) ||
		    ni.ino != w->ino || !f2_fs_in_main(ctx->fs, ni.blkaddr) ||
		    f2_fs_read_block(ctx->fs, ni.blkaddr, &n))
			continue;
		if (f2_le32(n.footer.nid) != nid || f2_le32(n.footer.ino) != w->ino ||
		    f2_node_ofs(&n) != ofs)
			continue;
		if (found)
			return 0;	/* ambiguous */
		found = nid;
	}
	return found;
}

/* A pointer at p found bad (code, accepted when fix): set it to the node
 * displaced_node() finds, *to (the walk follows it), else clear it as
 * clear_ptr() does. */
static void bad_ptr(struct walk *w, uint32_t code, int fix, const struct ptr *p, uint32_t ofs,
		    uint32_t nid, uint32_t parent, uint32_t *to)
{
	*to = 0;
	if (p->word != NO_PTR && ofs != 0 && (*to = displaced_node(w, ofs)) != 0) {
		fprintf(w->ctx->out, "  nid %u, unreachable, is the node its footer places "
			"there: the pointer is set to it instead\n", *to);
		/* under -n too the walk goes on there: the report is what -y does */
		rep_add(w->ctx, fix ? code : 0, RA_NODE_SET, p->nid, w->ino, p->word,
			(uint64_t)*to << 32 | p->ofs);
		return;
	}
	if (fix)
		clear_ptr(w, code, p, nid, parent);
}

/* Read node nid of w's inode expected at node offset ofs into buf; p is
 * the pointer followed, parent the directory of an inode (for repairs). */
static int load_node(struct walk *w, uint32_t nid, uint32_t ofs, uint8_t *buf, const char *what,
		     const struct ptr *p, uint32_t parent)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2_fs *fs = ctx->fs;
	const struct f2_node *n = (const void *)buf;
	struct f2_nat_info ni;
	uint32_t to = 0;
	int err, fix;

	if (nid <= F2_META_INO || nid >= fs->max_nid) {
		fix = fix_problem(ctx, PR_NODE_NID_RANGE, "ino %u: %s nid %u out of range (3..%u)",
				  w->ino, what, nid, fs->max_nid - 1);
		bad_ptr(w, PR_NODE_NID_RANGE, fix, p, ofs, 0, parent, &to);
		goto other;
	}
	if (fsck_nat(ctx, nid, &ni)) {
		fix_problem(ctx, PR_NODE_READ, "ino %u: %s nid %u: %s", w->ino, what, nid, fs->why);
		return -1;
	}
	if (ni.blkaddr == F2_NULL_ADDR) {
		fix = fix_problem(ctx, PR_NODE_NID_FREE, "ino %u: %s nid %u is free in the NAT",
				  w->ino, what, nid);
		bad_ptr(w, PR_NODE_NID_FREE, fix, p, ofs, 0, parent, &to);
		goto other;
	}
	if (ni.ino != w->ino) {
		fix = fix_problem(ctx, PR_NODE_OWNER, "ino %u: %s nid %u belongs to ino %u in the NAT",
				  w->ino, what, nid, ni.ino);
		bad_ptr(w, PR_NODE_OWNER, fix, p, ofs, 0, parent, &to);
		goto other;
	}
	switch (sbm_set(&ctx->nid_reached, nid)) {
	case -1:
		return -ENOMEM;
	case 1:
		fix = fix_problem(ctx, PR_NODE_DUP_NID, "ino %u: %s nid %u reached a second time",
				  w->ino, what, nid);
		bad_ptr(w, PR_NODE_DUP_NID, fix, p, ofs, 0, parent, &to);
		goto other;
	}
	err = claim(w, ni.blkaddr, 1, nid, ofs, 0, 0);
	if (err == -2)	/* accepted NODE_DUP_BLOCK: the pointer goes */
		clear_ptr(w, PR_NODE_DUP_BLOCK, p, nid, parent);
	if (err)
		return -1;
	w->nodes++;
	ctx->nodes_found++;
	if (ra_read(fs, &ctx->ra_node, ni.blkaddr, buf)) {
		fix_problem(ctx, PR_NODE_READ, "ino %u: %s nid %u: %s", w->ino, what, nid, fs->why);
		return -1;
	}
	if (f2_le32(n->footer.nid) != nid || f2_le32(n->footer.ino) != w->ino ||
	    f2_node_ofs(n) != ofs) {
		if (!fix_problem(ctx, PR_NODE_FOOTER,
				 "ino %u: %s nid %u at block address %u: footer says nid %u ino %u "
				 "offset %u, expected nid %u ino %u offset %u", w->ino, what, nid,
				 ni.blkaddr, f2_le32(n->footer.nid), f2_le32(n->footer.ino),
				 f2_node_ofs(n), nid, w->ino, ofs))
			return -1;
		/* the block names the node the NAT and the tree expect: only the
		 * footer's owner or offset is wrong, so the node is kept and its
		 * footer set; anything else is not this node */
		if (f2_le32(n->footer.nid) == nid) {
			uint32_t flag = f2_le32(n->footer.flag) & ((1u << F2_FOOTER_OFFSET_SHIFT) - 1);

			rep_add(ctx, PR_NODE_FOOTER, RA_NODE_REWRITE, nid, w->ino, 0, ofs);
			/* the walk goes on with the footer the repair writes */
			f2_set_le32(((struct f2_node *)buf)->footer.ino, w->ino);
			f2_set_le32(((struct f2_node *)buf)->footer.flag,
				    ofs << F2_FOOTER_OFFSET_SHIFT | flag);
			return 0;
		}
		unclaim_node(w, ni.blkaddr);
		bad_ptr(w, PR_NODE_FOOTER, 1, p, ofs, nid, parent, &to);
		if (to)	/* the node named goes; the one the footer places there stays */
			rep_nat_clear(ctx, 0, nid);
		goto other;
	}
	return 0;
other:
	/* the walk goes on in the node the pointer is set to */
	return to ? load_node(w, to, ofs, buf, what, p, parent) : -1;
}

/* The data addresses of one node (the inode or a direct node). */
/* The first of addrs[k..n) not NULL_ADDR (n if none).  Most slots of an
 * inode or a direct node are empty: they are skipped 16 at a time. */
static uint32_t next_addr(const le32 *addrs, uint32_t k, uint32_t n)
{
	for (; k + 16 <= n; k += 16) {
		uint64_t q[8];

		memcpy(q, addrs + k, sizeof(q));
		if (q[0] | q[1] | q[2] | q[3] | q[4] | q[5] | q[6] | q[7])
			break;
	}
	while (k < n && f2_le32(addrs[k]) == F2_NULL_ADDR)
		k++;
	return k;
}

static int walk_addrs(struct walk *w, const void *area, uint32_t n, uint32_t nid, uint64_t fofs,
		      uint32_t wbase)
{
	const le32 *addrs = area;	/* 4-byte aligned in a block buffer */
	int compressed = w->ir->cluster_blocks != 0;
	int released = compressed && (w->ir->node.i.i_inline & F2_COMPRESS_RELEASED);
	struct f2_nat_info ni;

	w->nver = fsck_nat(w->ctx, nid, &ni) ? -1 : ni.version;

	for (uint32_t k = next_addr(addrs, 0, n); k < n; k = next_addr(addrs, k + 1, n)) {
		uint32_t a = f2_le32(addrs[k]);
		int err;

		/* a released cluster's head: releasing uncharged it
		 * (F2FS_IOC_RELEASE_COMPRESS_BLOCKS) */
		if (a == F2_COMPRESS_ADDR && released)
			continue;
		/* a reserved block, or the head of a compressed cluster: the
		 * kernel counts both in i_blocks and valid_block_count */
		if (a == F2_NEW_ADDR || (a == F2_COMPRESS_ADDR && compressed)) {
			/* what the kernel adds to i_compr_blocks per cluster:
			 * the head and the reservations that follow it */
			if (a == F2_COMPRESS_ADDR)
				w->chead = fofs + k;
			if (compressed && w->chead != UINT64_MAX &&
			    fofs + k - w->chead < w->ir->cluster_blocks)
				w->compr++;
			w->blocks++;
			w->ctx->blocks_found++;
			w->ctx->reserved_found++;
			continue;
		}
		err = claim(w, a, 0, nid, k, fofs + k, wbase + k);
		if (err == -ENOMEM)
			return err;
		if (err)
			continue;
		w->blocks++;
		if (fofs + k >= w->ext_fofs && fofs + k - w->ext_fofs < w->ext_len &&
		    a == w->ext_blk + (fofs + k - w->ext_fofs))
			w->ext_hits++;
		if (w->is_dir && !(w->ir->node.i.i_inline & F2_INLINE_DENTRY)) {
			if (fofs + k >= w->dir_end)
				w->dir_end = fofs + k + 1;
			if (ra_read(w->ctx->fs, &w->ctx->ra_data, a, w->data)) {
				fix_problem(w->ctx, PR_NODE_READ, "ino %u: directory block %llu: %s",
					    w->ino, (unsigned long long)(fofs + k), w->ctx->fs->why);
				continue;
			}
			dir_check_block(w, w->data, fofs + k);
		}
	}
	return 0;
}

static int walk_direct(struct walk *w, uint32_t nid, uint32_t ofs, const char *what,
		       const struct ptr *p)
{
	int err = load_node(w, nid, ofs, w->node[0], what, p, 0);

	if (err)
		return err == -ENOMEM ? err : 0;
	/* the node loaded (a bad pointer may have been set to another) */
	nid = f2_le32(((const struct f2_node *)w->node[0])->footer.nid);
	w->nofs = ofs;
	return walk_addrs(w, w->node[0], w->adb, nid,
			  (uint64_t)f2_node_start_bidx(ofs, w->ir->addrs, w->adb), 0);
}

/* An indirect node at ofs (level 2 the double-indirect one) and the nodes
 * under it, at the offsets f2_node_child_ofs() gives. */
static int walk_indirect(struct walk *w, uint32_t nid, uint32_t ofs, int level,
			 const struct ptr *p)
{
	uint8_t *buf = w->node[level];
	int err = load_node(w, nid, ofs, buf, level == 1 ? "indirect" : "double indirect", p, 0);

	if (err)
		return err == -ENOMEM ? err : 0;
	nid = f2_le32(((const struct f2_node *)buf)->footer.nid);	/* as walk_direct */
	for (uint32_t i = 0; i < F2_NIDS_PER_BLOCK; i++) {
		uint32_t c = f2_le32(((const struct f2_node *)buf)->in.nid[i]);
		struct ptr cp = { nid, ofs, i };

		if (!c)
			continue;
		if (level == 1)
			err = walk_direct(w, c, f2_node_child_ofs(ofs, i), "direct", &cp);
		else
			err = walk_indirect(w, c, f2_node_child_ofs(ofs, i), 1, &cp);
		if (err)
			return err;
	}
	return 0;
}

static int walk_xattr(struct walk *w, uint32_t xnid)
{
	struct ptr p = { w->ino, 0, W_XNID };
	int err = load_node(w, xnid, F2_NODE_OFS_XATTR, w->node[0], "xattr", &p, 0);

	return err == -ENOMEM ? err : 0;
}

static int push(struct walk *w, uint32_t ino, uint32_t parent, uint8_t ftype, uint8_t special)
{
	if (*w->nstack == *w->capstack) {
		uint32_t cap = *w->capstack ? *w->capstack * 2 : 256;
		struct work *n = realloc(*w->stack, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		*w->stack = n;
		*w->capstack = cap;
	}
	(*w->stack)[(*w->nstack)++] = (struct work){ ino, parent, ftype, special };
	return 0;
}

static void drop_dentry(struct walk *w, uint32_t code)
{
	rep_add(w->ctx, code, RA_DENT_DROP, w->ino, 0, w->slot, w->bidx);
}

int tree_dentry(struct walk *w, uint32_t ino, uint8_t ftype, const uint8_t *name, uint32_t len)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2_nat_info ni;
	struct ino_rec *r;
	int created;

	if (ino <= F2_META_INO || ino >= ctx->fs->max_nid) {
		if (!fix_problem(ctx, PR_DENT_INO_RANGE,
				 "dir ino %u, name \"%.*s\": ino %u out of range", w->ino, (int)len,
				 name, ino))
			return 1;
		drop_dentry(w, PR_DENT_INO_RANGE);
		return 0;
	}
	if (fsck_nat(ctx, ino, &ni) || ni.blkaddr == F2_NULL_ADDR) {
		if (!fix_problem(ctx, PR_DENT_INO_FREE, "dir ino %u, name \"%.*s\": ino %u is free",
				 w->ino, (int)len, name, ino))
			return 1;
		drop_dentry(w, PR_DENT_INO_FREE);
		return 0;
	}
	if (ni.ino != ino) {
		if (!fix_problem(ctx, PR_DENT_NOT_INODE,
				 "dir ino %u, name \"%.*s\": nid %u is a node of ino %u, not an inode",
				 w->ino, (int)len, name, ino, ni.ino))
			return 1;
		drop_dentry(w, PR_DENT_NOT_INODE);
		return 0;
	}
	r = inomap_get(&ctx->inodes, ino, &created);
	if (!r)
		return -ENOMEM;
	if (!created && ((r->flags & INO_WALKED) ? (r->flags & INO_DIR) : ftype == F2_FT_DIR)) {
		/* a directory has one name: this one is extra (the walk met the
		 * other first, and took its parent from it) */
		if (fix_problem(ctx, PR_DIR_MULTI_LINK,
				"dir ino %u, name \"%.*s\": directory ino %u is already named "
				"elsewhere", w->ino, (int)len, name, ino)) {
			drop_dentry(w, PR_DIR_MULTI_LINK);
			return 0;
		}
	}
	if (ino_add_found(&ctx->inodes, ino, r))
		return -ENOMEM;
	if ((r->flags & INO_WALKED) && r->ftype != ftype &&
	    fix_problem(ctx, PR_DENT_FTYPE,
			"dir ino %u, name \"%.*s\": file type %u, ino %u has type %u", w->ino,
			(int)len, name, ftype, ino, r->ftype))
		rep_add(ctx, PR_DENT_FTYPE, RA_DENT_FTYPE, w->ino, ino, r->ftype, 0);
	if (w->ino == f2_le32(ctx->fs->sb.root_ino) && ftype == F2_FT_DIR && len == 10 &&
	    !memcmp(name, "lost+found", 10))
		ctx->lf_ino = ino;
	if (created)
		return push(w, ino, w->ino, ftype, 0) ? -ENOMEM : 1;
	return 1;
}

/* A damaged inode named by a dentry, for an accepted DENT_BAD_INODE: its
 * dentry goes, its NAT entry is freed and its block is not claimed. */
static void drop_inode(struct walk *w, const struct work *wk)
{
	struct fsck_ctx *ctx = w->ctx;
	struct f2_nat_info ni;

	if (!fsck_nat(ctx, wk->ino, &ni))
		unclaim_node(w, ni.blkaddr);
	rep_add(ctx, PR_DENT_BAD_INODE, RA_DENT_DROP_INO, wk->parent, wk->ino, 0, 0);
	rep_nat_clear(ctx, 0, wk->ino);
}

/* A damaged inode whose only fault is a mode without a file type: the
 * type its dentry gives is taken (permissions kept, or 0644/0755/0777). */
/*
 * On a flexible_inline_xattr volume every inode has the extra area, and the
 * kernel refuses one without F2_EXTRA_ATTR or with an inline xattr size it
 * cannot hold.  The bytes are still the extra area: the flag goes back and
 * the sizes are made valid where they are not, so the addresses after the
 * area are read where they were written.  The walk goes on with that view
 * (under -n too, so the report is what -y does).
 */
static void check_extra_attr(struct fsck_ctx *ctx, struct f2_inode_ref *ir, const struct work *wk)
{
	struct f2_inode *in = &ir->node.i;
	uint16_t extra = f2_le16(in->i_extra_isize), xsize = f2_le16(in->i_inline_xattr_size);
	int has = !!(in->i_inline & F2_EXTRA_ATTR), fix;
	int xbad = xsize > F2_MAX_INLINE_XATTR_WORDS || (!xsize && (in->i_inline & F2_INLINE_XATTR));

	if (!(ctx->fs->features & F2_FEAT_FLEX_INLINE_XATTR) || (has && !xbad))
		return;
	fix = fix_problem(ctx, PR_INODE_EXTRA_ATTR, "ino %u: i_inline 0x%x, i_extra_isize %u, "
			  "i_inline_xattr_size %u", wk->ino, in->i_inline, extra, xsize);
	if (extra < 4 || extra % 4 || extra > F2_EXTRA_ISIZE)
		extra = F2_EXTRA_ISIZE;
	if (xbad)
		xsize = F2_INLINE_XATTR_ADDRS;
	in->i_inline |= F2_EXTRA_ATTR;
	f2_set_le16(in->i_extra_isize, extra);
	f2_set_le16(in->i_inline_xattr_size, xsize);
	rep_add(ctx, fix == 1 ? PR_INODE_EXTRA_ATTR : 0, RA_INODE_EXTRA, wk->ino, extra, xsize, 0);
}

/*
 * After the parse refused the inode: an inline file whose i_size is past
 * its inline area keeps its inode, i_size brought down to the area (what
 * it holds is all there is).  1 when so (the caller parses again with
 * that size), 0 when the parse's reason is another (fs->why stays one of
 * its reasons), -ENOMEM.
 */
static int inline_size_clamped(struct fsck_ctx *ctx, struct f2_inode_ref *ir,
			       const struct work *wk)
{
	struct f2_inode *in = &ir->node.i;
	struct f2_inode_ref *t;
	uint64_t size = f2_le64(in->i_size);
	int fix;

	if (!(in->i_inline & F2_INLINE_DATA))
		return 0;
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	/* the area's size, from a copy without the size (other faults: the parse's) */
	memcpy(&t->node, &ir->node, sizeof(t->node));
	f2_set_le64(t->node.i.i_size, 0);
	if (f2_inode_parse(ctx->fs, wk->ino, &t->node, t) || size <= t->inline_bytes) {
		free(t);
		return 0;
	}
	fix = fix_problem(ctx, PR_INODE_INLINE_SIZE, "ino %u: i_size %llu, inline area %u bytes",
			  wk->ino, (unsigned long long)size, t->inline_bytes);
	f2_set_le64(in->i_size, t->inline_bytes);
	rep_add(ctx, fix == 1 ? PR_INODE_INLINE_SIZE : 0, RA_INODE_SIZE, wk->ino, 0, 0,
		t->inline_bytes);
	free(t);
	return 1;
}

static int mode_from_dentry(struct fsck_ctx *ctx, struct f2_inode_ref *ir, const struct work *wk)
{
	static const uint16_t fmt[F2_FT_MAX] = { 0, 0100000, 0040000, 0020000, 0060000, 0010000,
						 0140000, 0120000 };
	uint16_t mode = f2_le16(ir->node.i.i_mode), perm;

	if (wk->special || (mode & 0170000) || wk->ftype == F2_FT_UNKNOWN || wk->ftype >= F2_FT_MAX)
		return -1;
	perm = mode & 07777;
	if (!perm)
		perm = wk->ftype == F2_FT_DIR ? 0755 : wk->ftype == F2_FT_SYMLINK ? 0777 : 0644;
	f2_set_le16(ir->node.i.i_mode, (uint16_t)(fmt[wk->ftype] | perm));
	if (f2_inode_parse(ctx->fs, wk->ino, &ir->node, ir)) {
		f2_set_le16(ir->node.i.i_mode, mode);
		return -1;
	}
	return fmt[wk->ftype] | perm;
}

/*
 * The root inode failed (its node, loaded or not, or its fields): with the
 * fix accepted, a mode without a file type becomes a directory's and the
 * root is walked (1); otherwise the repair makes a new empty root, the old
 * node's block is given up (claimed: the walk counted it) and what the old
 * root named is left to the unreachable pass, for lost+found (0).
 */
static int root_damaged(struct fsck_ctx *ctx, struct walk *w, const struct work *wk,
			struct ino_rec *r, int loaded, int claimed)
{
	struct work as_dir = *wk;
	struct f2_nat_info ni;
	int mode;

	if (!fix_problem(ctx, PR_ROOT_BAD, "root ino %u: %s", wk->ino,
			 loaded ? ctx->fs->why : "its node block cannot be used")) {
		r->flags |= INO_BAD;
		return 0;
	}
	as_dir.special = 0;
	as_dir.ftype = F2_FT_DIR;
	if (loaded && (mode = mode_from_dentry(ctx, w->ir, &as_dir)) >= 0) {
		rep_add(ctx, PR_ROOT_BAD, RA_INODE_MODE, wk->ino, (uint32_t)mode, 0, 0);
		return 1;
	}
	if (claimed && !fsck_nat(ctx, wk->ino, &ni))
		unclaim_node(w, ni.blkaddr);
	/* changes to the old node are moot, and its fields (the extra area,
	 * i_size, recorded before the parse) must not land on the new one */
	for (unsigned i = 0; i < ctx->nacts; i++)
		if ((ctx->acts[i].kind == RA_NODE_REWRITE || ctx->acts[i].kind == RA_NODE_WORD ||
		     ctx->acts[i].kind == RA_NODE_SET || ctx->acts[i].kind == RA_INODE_EXTRA ||
		     ctx->acts[i].kind == RA_INODE_SIZE) &&
		    ctx->acts[i].a == wk->ino)
			ctx->acts[i].kind = RA_NOTE;
	ctx->root_new = 1;
	r->flags |= INO_DIR;
	if (ino_set_links(&ctx->inodes, wk->ino, r, 2))
		return -ENOMEM;
	return rep_add(ctx, PR_ROOT_BAD, RA_ROOT_NEW, wk->ino, 0, 0, 0);
}

/*
 * The inode's own fields that need no walk: checksum, name length,
 * directory depth; seeds the extent check from i_ext.  Returns whether
 * the depth is to be repaired (after the walk, which finds the levels).
 */
/* The kernel checks every inode's i_ext when it loads it, whatever the
 * file (a compressed or inline one too): both ends must be valid blocks
 * of the main area, or the file cannot be opened. */
static int ext_bad_range(const struct fsck_ctx *ctx, const struct f2_extent *e)
{
	uint32_t len = f2_le32(e->len);
	uint64_t first = f2_le32(e->blk), last = first + len - 1;
	int64_t a, b;

	if (!len)
		return 0;
	a = main_idx(ctx, first);
	b = main_idx(ctx, last);
	return a < 0 || b < 0 || !sbm_test(&ctx->sit_valid, (uint64_t)a) ||
	       !sbm_test(&ctx->sit_valid, (uint64_t)b);
}

static int check_inode_fields(struct fsck_ctx *ctx, struct walk *w, const struct work *wk)
{
	const struct f2_inode_ref *ir = w->ir;
	const struct f2_inode *in = &ir->node.i;
	uint32_t namelen, flags, stray, fs_feat = ctx->fs->features;
	int fix_depth = 0;

	if (ir->csum_ok == 0 &&
	    fix_problem(ctx, PR_INODE_CSUM, "ino %u: inode checksum 0x%08x does not match",
			wk->ino, f2_le32(in->i_inode_checksum)))
		rep_add(ctx, PR_INODE_CSUM, RA_NODE_REWRITE, wk->ino, wk->ino, 0, 0);
	namelen = f2_le32(in->i_namelen);
	if (namelen > F2_NAME_LEN &&
	    fix_problem(ctx, PR_INODE_NAMELEN, "ino %u: i_namelen %u > %u", wk->ino, namelen,
			F2_NAME_LEN))
		rep_add(ctx, PR_INODE_NAMELEN, RA_INODE_NAMELEN, wk->ino, 0, 0, 0);
	if (w->is_dir && f2_le32(in->i_current_depth) > F2_MAX_DIR_HASH_DEPTH)
		fix_depth = fix_problem(ctx, PR_INODE_DEPTH, "ino %u: i_current_depth %u > %u",
					wk->ino, f2_le32(in->i_current_depth),
					F2_MAX_DIR_HASH_DEPTH);
	/* Linux refuses an inode flagged casefolded on a volume without the
	 * feature; an encrypted or verity flag without its feature leaves
	 * the file unreadable.  The walk goes on as the repair leaves it. */
	flags = f2_le32(in->i_flags);
	stray = flags & (((fs_feat & F2_FEAT_CASEFOLD) ? 0 : F2_CASEFOLD_FL) |
			 ((fs_feat & F2_FEAT_ENCRYPT) ? 0 : F2_ENCRYPT_FL) |
			 ((fs_feat & F2_FEAT_VERITY) ? 0 : F2_VERITY_FL));
	/* a directory (or other non-file) may carry the compression flag
	 * its new files inherit, but Linux checks the fields with it */
	if ((flags & F2_COMPR_FL) && !S_ISREG(ir->mode) && (fs_feat & F2_FEAT_COMPRESSION) &&
	    f2_inode_compress_check(in, ir->extra_words) > F2_COMPR_NO_FIELDS)
		stray |= F2_COMPR_FL;
	if (stray && fix_problem(ctx, PR_INODE_FLAGS, "ino %u: i_flags 0x%x, 0x%x of features "
				 "the volume lacks or without their fields", wk->ino, flags, stray)) {
		rep_add(ctx, PR_INODE_FLAGS, RA_INODE_FLAGS, wk->ino, stray, 0, 0);
		flags &= ~stray;
	}
	w->cf = 0;
	if (w->is_dir && (flags & F2_CASEFOLD_FL)) {
		/* an encrypted one hashes its plaintext with a key we lack */
		w->cf = !ir->encrypted && (ctx->fs->features & F2_FEAT_CASEFOLD) &&
			f2_encoding_name(f2_le16(ctx->fs->sb.s_encoding)) ? 1 : -1;
		w->strict = f2_fs_cf_strict(ctx->fs);
	}
	/* the driver keeps an extent cache for regular files only (not
	 * compressed ones), seeded from i_ext */
	w->ext_len = w->ext_hits = 0;
	if ((S_ISREG(ir->mode) && !ir->cluster_blocks && !(in->i_inline & F2_INLINE_DATA)) ||
	    ext_bad_range(ctx, &in->i_ext)) {
		w->ext_fofs = f2_le32(in->i_ext.fofs);
		w->ext_blk = f2_le32(in->i_ext.blk);
		w->ext_len = f2_le32(in->i_ext.len);
	}
	return fix_depth;
}

/* Everything the inode points to: inline entries, data and node blocks,
 * its xattr node. */
static int walk_inode_pointers(struct fsck_ctx *ctx, struct walk *w, const struct work *wk)
{
	const struct f2_inode_ref *ir = w->ir;
	const struct f2_inode *in = &ir->node.i;
	uint32_t xnid;
	int err = 0, is_inline;

	is_inline = !!(in->i_inline & (F2_INLINE_DATA | F2_INLINE_DENTRY));
	if (!S_ISREG(ir->mode) && !S_ISDIR(ir->mode) && !S_ISLNK(ir->mode)) {
		/* devices, fifos, sockets: i_addr holds the device number */
	} else if (is_inline) {
		int fix = -1;

		for (int i = 0; i < F2_NIDS_PER_INODE; i++) {
			if (!in->i_nid[i])
				continue;
			if (fix < 0)
				fix = fix_problem(ctx, PR_INODE_INLINE,
						  "ino %u: inline %s with i_nid[%d] = %u", wk->ino,
						  w->is_dir ? "dentries" : "data", i,
						  f2_le32(in->i_nid[i]));
			if (fix)	/* one finding, every pointer cleared */
				rep_add(ctx, fix == 1 ? PR_INODE_INLINE : 0, RA_NODE_WORD, wk->ino,
					wk->ino, W_INID(i), 0);
			if (fix)
				fix = 2;
		}
		/* the word before the inline area is reserved: Linux writes 0 */
		if (in->i_addr[ir->extra_words] &&
		    fix_problem(ctx, PR_INODE_INLINE_RESERVED, "ino %u: inline %s, reserved word 0x%x",
				wk->ino, w->is_dir ? "dentries" : "data",
				f2_le32(in->i_addr[ir->extra_words])))
			rep_add(ctx, PR_INODE_INLINE_RESERVED, RA_NODE_WORD, wk->ino, wk->ino,
				W_IADDR + ir->extra_words, 0);
		if (in->i_inline & F2_INLINE_DENTRY)
			dir_check_inline(w);
	} else {
		err = walk_addrs(w, (const uint8_t *)&ir->node + offsetof(struct f2_inode, i_addr) +
				 4 * ir->extra_words, ir->addrs, wk->ino, 0,
				 W_IADDR + ir->extra_words);
		for (unsigned i = 0; !err && i < F2_NIDS_PER_INODE; i++) {
			uint32_t c = f2_le32(in->i_nid[i]), ofs = f2_node_top_ofs(i);
			struct ptr p = { wk->ino, 0, W_INID(i) };

			if (!c)
				continue;
			if (f2_node_is_dnode(ofs))
				err = walk_direct(w, c, ofs, "direct", &p);
			else
				err = walk_indirect(w, c, ofs, ofs == F2_NODE_OFS_DIND ? 2 : 1, &p);
			w->nofs = 0;
		}
		if (err)
			return err;
	}
	xnid = f2_le32(in->i_xattr_nid);
	return xnid ? walk_xattr(w, xnid) : 0;
}

/* A directory's "." and ".." entries, and its count in its parent. */
static void check_dir_dots(struct fsck_ctx *ctx, const struct walk *w, const struct work *wk,
			   const struct ino_rec *r)
{
	/* a reconnected directory's ".." is set when lost+found exists */
	int recon = wk->special == 2, want = recon ? (int)ctx->lf_ino : (int)wk->parent;
	uint32_t pino = f2_le32(w->ir->node.i.i_pino);

	if (!w->have_dot &&
	    fix_problem(ctx, PR_DENT_DOT, "dir ino %u: no \".\" entry", wk->ino))
		rep_add(ctx, PR_DENT_DOT, RA_DENT_DOT, wk->ino, 0, 0, 0);
	if (recon) {
		if (want && (!w->have_dotdot || w->dotdot != (uint32_t)want))
			rep_add(ctx, 0, RA_DENT_DOTDOT, wk->ino, (uint32_t)want, 0, 0);
	} else if (!w->have_dotdot) {
		if (fix_problem(ctx, PR_DENT_DOTDOT, "dir ino %u: no \"..\" entry", wk->ino))
			rep_add(ctx, PR_DENT_DOTDOT, RA_DENT_DOTDOT, wk->ino, wk->parent, 0,
				0);
	} else if (!(r->flags & INO_ORPHAN) && w->dotdot != wk->parent &&
		   fix_problem(ctx, PR_DENT_DOTDOT,
			       "dir ino %u: \"..\" is ino %u, parent is %u", wk->ino,
			       w->dotdot, wk->parent)) {
		rep_add(ctx, PR_DENT_DOTDOT, RA_DENT_DOTDOT, wk->ino, wk->parent, 0, 0);
	}
	/* Linux keeps a directory's i_pino at its parent (rename sets it);
	 * the root's is whatever mkfs wrote (0 for the reference) */
	if (!recon && wk->special != 1 && !(r->flags & INO_ORPHAN) && pino != wk->parent &&
	    fix_problem(ctx, PR_INODE_PINO, "dir ino %u: i_pino %u, parent is %u", wk->ino, pino,
			wk->parent))
		rep_add(ctx, PR_INODE_PINO, RA_INODE_PINO, wk->ino, wk->parent, 0, 0);
	if (wk->special != 1) {
		struct ino_rec *p = inomap_find(&ctx->inodes, wk->parent);

		if (p && p->subdirs < INO_SUBDIRS_MAX)
			p->subdirs++;
	}
}

/* Walk one inode taken from the work list. */
static int walk_inode(struct fsck_ctx *ctx, struct walk *w, const struct work *wk)
{
	struct f2_fs *fs = ctx->fs;
	struct f2_inode_ref *ir = w->ir;
	const struct f2_inode *in = &ir->node.i;
	struct ino_rec *r = inomap_get(&ctx->inodes, wk->ino, NULL);
	static const struct ptr noptr = { 0, 0, NO_PTR };
	uint64_t iblocks, isize;
	int fix_depth = 0;
	int err, is_root = wk->special == 1 && wk->ino == f2_le32(fs->sb.root_ino);
	uint64_t nodes_before = ctx->nodes_found;

	if (!r)
		return -ENOMEM;
	if (r->flags & INO_WALKED)
		return 0;
	r->flags |= INO_WALKED;
	if (wk->special == 1)
		r->flags |= INO_SPECIAL;
	w->ino = wk->ino;
	w->nodes = w->blocks = w->compr = 0;
	w->chead = UINT64_MAX;
	w->have_dot = w->have_dotdot = 0;
	w->dotdot = 0;
	w->levels = 0;
	w->dir_end = 0;
	w->nofs = 0;
	err = load_node(w, wk->ino, 0, (uint8_t *)&ir->node, "inode", &noptr,
			wk->special ? 0 : wk->parent);
	if (err == -ENOMEM)
		return err;
	if (err && is_root)
		return root_damaged(ctx, w, wk, r, 0, ctx->nodes_found > nodes_before) < 0 ?
		       -ENOMEM : 0;
	if (err) {
		r->flags |= INO_BAD;
		return 0;
	}
	/* written by a checkpoint newer than the one in use: it is stale
	 * (rescue.c); low 32 bits, the high ones may hold a crc */
	if ((uint32_t)f2_le64(ir->node.footer.cp_ver) > (uint32_t)fs->cp_ver) {
		ctx->newer_inodes++;
		if ((uint32_t)f2_le64(ir->node.footer.cp_ver) > ctx->newer_ver)
			ctx->newer_ver = (uint32_t)f2_le64(ir->node.footer.cp_ver);
	}
	check_extra_attr(ctx, ir, wk);
	err = f2_inode_parse(fs, wk->ino, &ir->node, ir);
	if (err) {
		int clamped = inline_size_clamped(ctx, ir, wk);

		if (clamped < 0)
			return -ENOMEM;
		if (clamped)
			err = f2_inode_parse(fs, wk->ino, &ir->node, ir);
	}
	if (err) {
		int mode;

		if (is_root) {
			err = root_damaged(ctx, w, wk, r, 1, 1);
			if (err <= 0)
				return err < 0 ? -ENOMEM : 0;
		} else if (wk->special) {
			fix_problem(ctx, PR_INODE_BAD, "%s", fs->why);
			r->flags |= INO_BAD;
			return 0;
		} else {
			if (!fix_problem(ctx, PR_DENT_BAD_INODE, "dir ino %u: %s", wk->parent,
					 fs->why)) {
				r->flags |= INO_BAD;
				return 0;
			}
			mode = mode_from_dentry(ctx, ir, wk);
			if (mode < 0) {
				/* the dentry goes, and the inode with it */
				r->flags |= INO_BAD;
				drop_inode(w, wk);
				return 0;
			}
			rep_add(ctx, PR_DENT_BAD_INODE, RA_INODE_MODE, wk->ino, (uint32_t)mode, 0,
				0);
		}
	}
	ctx->inodes_found++;
	if (ino_set_links(&ctx->inodes, wk->ino, r, f2_le32(in->i_links)))
		return -ENOMEM;
	r->ftype = ftype_of(ir->mode);
	w->is_dir = S_ISDIR(ir->mode);
	if (w->is_dir)
		r->flags |= INO_DIR;
	if (wk->special == 2) {
		/* reconnected: its name in lost+found counts as a link */
		r->flags |= INO_RECON;
		if (ino_add_found(&ctx->inodes, wk->ino, r))
			return -ENOMEM;
		ctx->reconnected++;
		rep_add(ctx, PR_NAT_UNREACHABLE_INODE, RA_RECONNECT, wk->ino, 0, r->ftype, 0);
	} else if (!wk->special && wk->ftype != r->ftype &&
		   fix_problem(ctx, PR_DENT_FTYPE,
			       "dir ino %u: dentry file type %u, ino %u has type %u", wk->parent,
			       wk->ftype, wk->ino, r->ftype)) {
		rep_add(ctx, PR_DENT_FTYPE, RA_DENT_FTYPE, wk->parent, wk->ino, r->ftype, 0);
	}
	fix_depth = check_inode_fields(ctx, w, wk);
	if (w->cf > 0 && cf_names_reset(&w->cfn, w->strict, wk->ino))
		return -ENOMEM;
	w->adb = ir->cluster_blocks ? F2_ADDRS_PER_BLOCK & ~(ir->cluster_blocks - 1)
				    : F2_ADDRS_PER_BLOCK;
	err = walk_inode_pointers(ctx, w, wk);
	if (err)
		return err;
	/* the walk added the children to ctx->inodes, which may have moved */
	r = inomap_find(&ctx->inodes, wk->ino);
	if (!r)
		return -ENOMEM;
	iblocks = f2_le64(in->i_blocks);
	if (iblocks != w->nodes + w->blocks &&
	    fix_problem(ctx, PR_INODE_BLOCKS,
			"ino %u: i_blocks %llu, found %llu (%llu nodes, %llu data blocks)",
			wk->ino, (unsigned long long)iblocks,
			(unsigned long long)(w->nodes + w->blocks),
			(unsigned long long)w->nodes, (unsigned long long)w->blocks))
		rep_add(ctx, PR_INODE_BLOCKS, RA_INODE_BLOCKS, wk->ino, 0, 0, w->nodes + w->blocks);
	if (ir->cluster_blocks && f2_le64(in->i_compr_blocks) != w->compr &&
	    fix_problem(ctx, PR_INODE_COMPR_BLOCKS,
			"ino %u: i_compr_blocks %llu, found %llu", wk->ino,
			(unsigned long long)f2_le64(in->i_compr_blocks),
			(unsigned long long)w->compr))
		rep_add(ctx, PR_INODE_COMPR_BLOCKS, RA_INODE_COMPR_BLOCKS, wk->ino, 0, 0, w->compr);
	if (fix_depth)
		rep_add(ctx, PR_INODE_DEPTH, RA_INODE_DEPTH, wk->ino, w->levels ? w->levels : 1, 0, 0);
	/* the kernel's readdir, and the repair's pass over the entries, stop
	 * at i_size: entries past it would be checked but never fixed */
	isize = f2_le64(in->i_size);
	if (w->dir_end > isize / F2_BLKSIZE + (isize % F2_BLKSIZE != 0) &&
	    fix_problem(ctx, PR_DIR_SIZE, "dir ino %u: i_size %llu, directory block %llu mapped",
			wk->ino, (unsigned long long)isize, (unsigned long long)(w->dir_end - 1)))
		rep_add(ctx, PR_DIR_SIZE, RA_INODE_SIZE, wk->ino, 0, 0, w->dir_end * F2_BLKSIZE);
	if (w->ext_hits != w->ext_len &&
	    fix_problem(ctx, PR_INODE_EXT,
			"ino %u: i_ext (file block %u, block address %u, %u blocks): the tree maps %u of them there",
			wk->ino, w->ext_fofs, w->ext_blk, w->ext_len, w->ext_hits))
		rep_add(ctx, PR_INODE_EXT, RA_INODE_EXT, wk->ino, 0, 0, 0);
	if (w->is_dir)
		check_dir_dots(ctx, w, wk, r);
	return 0;
}

/* After the walk: links found against i_links, directories linked twice. */
static void check_links(struct fsck_ctx *ctx)
{
	uint32_t root = f2_le32(ctx->fs->sb.root_ino), ino;
	const struct ino_rec *r;
	size_t pos = 0;

	while ((r = inomap_next(&ctx->inodes, &pos, &ino))) {
		uint32_t want;

		if ((r->flags & INO_BAD) || !(r->flags & INO_WALKED))
			continue;
		if ((r->flags & INO_ORPHAN) && ino_found(&ctx->inodes, ino, r)) {
			if (!fix_problem(ctx, PR_ORPHAN_LINKED,
					 "ino %u: on the orphan list but named by %u dentries",
					 ino, ino_found(&ctx->inodes, ino, r)))
				continue;
			rep_add(ctx, PR_ORPHAN_LINKED, RA_ORPHAN_DEL, ino, 0, 0, 0);
		} else if (r->flags & INO_ORPHAN) {
			continue;
		}
		if (r->flags & INO_DIR) {
			/* a second name of a directory was reported at its dentry */
			want = 2 + r->subdirs;
		} else {
			if ((r->flags & INO_SPECIAL) && !(r->flags & INO_ORPHAN))
				continue;	/* quota files: no dentry */
			want = ino_found(&ctx->inodes, ino, r);
		}
		if (ino == root && !(r->flags & INO_DIR))
			continue;
		if (ino_links(&ctx->inodes, ino, r) != want &&
		    fix_problem(ctx, PR_INODE_LINKS, "ino %u: i_links %u, found %u", ino,
				ino_links(&ctx->inodes, ino, r), want))
			rep_add(ctx, PR_INODE_LINKS, RA_INODE_LINKS, ino, want, 0, 0);
	}
}

static int run_stack(struct fsck_ctx *ctx, struct walk *w, uint32_t *done)
{
	int err = 0;

	while (!err && *w->nstack) {
		struct work wk = (*w->stack)[--*w->nstack];

		err = walk_inode(ctx, w, &wk);
		if ((++*done & 1023) == 0)
			progress(ctx, "tree", ctx->inodes_found,
				 f2_le32(ctx->fs->cp->valid_inode_count));
	}
	return err;
}

/* Is unreachable inode ino intact (footer, verifier)?  *is_dir set. */
static int intact_inode(struct fsck_ctx *ctx, struct walk *w, uint32_t ino, uint32_t blkaddr,
			int *is_dir)
{
	const struct f2_node *n = &w->ir->node;

	if (main_idx(ctx, blkaddr) < 0 || f2_fs_read_block(ctx->fs, blkaddr, &w->ir->node))
		return 0;
	if (f2_le32(n->footer.nid) != ino || f2_le32(n->footer.ino) != ino || f2_node_ofs(n))
		return 0;
	if (f2_inode_parse(ctx->fs, ino, &w->ir->node, w->ir))
		return 0;
	*is_dir = S_ISDIR(w->ir->mode);
	return 1;
}

/*
 * Inodes in use in the NAT that no dentry reached.  Accepted: an intact
 * one is walked from here (its blocks become reachable) and gets a name
 * in lost+found; a damaged one is freed.  Directories go first, so the
 * files in an unreachable directory keep their names there.
 */
static int unreachable_inodes(struct fsck_ctx *ctx, struct walk *w, uint32_t *done)
{
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t nid = sbm_next(&ctx->nat_used, 0); nid < ctx->nat_used.nbits;
		     nid = sbm_next(&ctx->nat_used, nid + 1)) {
			struct f2_nat_info ni;
			struct ino_rec *r;
			int is_dir = 0, ok, err;

			if (sbm_test(&ctx->nid_reached, nid) || fsck_nat(ctx, (uint32_t)nid, &ni) ||
			    ni.ino != nid || ni.blkaddr == F2_NULL_ADDR)
				continue;
			ok = intact_inode(ctx, w, (uint32_t)nid, ni.blkaddr, &is_dir);
			if (pass == (ok && is_dir))
				continue;	/* intact directories in pass 0, the rest in 1 */
			if (!fix_problem(ctx, PR_NAT_UNREACHABLE_INODE,
					 "ino %u (block address %u): no dentry leads to it%s", ni.ino,
					 ni.blkaddr, ok ? "" : " (damaged: it is freed)"))
				continue;
			if (!ok) {
				err = rep_nat_clear(ctx, PR_NAT_UNREACHABLE_INODE, (uint32_t)nid);
				if (err)
					return err;
				continue;
			}
			r = inomap_get(&ctx->inodes, (uint32_t)nid, NULL);
			if (!r)
				return -ENOMEM;
			err = push(w, (uint32_t)nid, ctx->lf_ino, F2_FT_UNKNOWN, 2);
			if (!err)
				err = run_stack(ctx, w, done);
			if (err)
				return err;
		}
	}
	return 0;
}

int pass_tree(struct fsck_ctx *ctx)
{
	struct f2_fs *fs = ctx->fs;
	struct work *stack = NULL;
	uint32_t nstack = 0, cap = 0, done = 0, ino;
	const struct ino_rec *r;
	struct walk w;
	uint8_t *bufs;
	int err = 0;

	if (sbm_init(&ctx->nid_reached, fs->max_nid) ||
	    sbm_init(&ctx->blk_claimed, (uint64_t)fs->main_segs * F2_BLKS_PER_SEG))
		return -ENOMEM;
	if (ra_init(&ctx->ra_node) || ra_init(&ctx->ra_data))
		return -ENOMEM;
	/* nids in use known (pass_nat_scan): a table when they are dense */
	if (ctx->nat_used.nset) {
		uint64_t last = sbm_last(&ctx->nat_used);

		if (last < UINT32_MAX)
			inomap_densify(&ctx->inodes, (uint32_t)last + 1, ctx->nat_used.nset);
	}
	ctx->ssa_blk = malloc(SSA_CACHE * sizeof(*ctx->ssa_blk));
	bufs = malloc(4 * F2_BLKSIZE);
	memset(&w, 0, sizeof(w));
	cf_names_init(&w.cfn);
	w.ir = malloc(sizeof(*w.ir));
	if (!ctx->ssa_blk || !bufs || !w.ir) {
		free(bufs);
		free(w.ir);
		return -ENOMEM;
	}
	for (int i = 0; i < SSA_CACHE; i++)
		ctx->ssa_segno[i] = F2_NULL_SEGNO;
	w.ctx = ctx;
	for (int i = 0; i < 3; i++)
		w.node[i] = bufs + (size_t)i * F2_BLKSIZE;
	w.data = bufs + 3 * F2_BLKSIZE;
	w.stack = &stack;
	w.nstack = &nstack;
	w.capstack = &cap;

	/* roots: orphans last on the stack so the root is walked first */
	for (size_t pos = 0; !err && (r = inomap_next(&ctx->inodes, &pos, &ino));)
		if (r->flags & INO_ORPHAN)
			err = push(&w, ino, 0, F2_FT_UNKNOWN, 1);
	if (fs->features & F2_FEAT_QUOTA_INO)
		for (int q = 0; q < F2_MAX_QUOTAS && !err; q++) {
			uint32_t qino = f2_le32(fs->sb.qf_ino[q]);

			if (qino && inomap_get(&ctx->inodes, qino, NULL))
				err = push(&w, qino, 0, F2_FT_REG_FILE, 1);
		}
	if (!err) {
		uint32_t root = f2_le32(fs->sb.root_ino);

		err = inomap_get(&ctx->inodes, root, NULL) ? push(&w, root, root, F2_FT_DIR, 1)
							   : -ENOMEM;
	}
	err = run_stack(ctx, &w, &done);
	if (!err)
		err = unreachable_inodes(ctx, &w, &done);
	if (!err)
		check_links(ctx);
	free(stack);
	free(bufs);
	free(w.ir);
	cf_names_free(&w.cfn);
	return err;
}
