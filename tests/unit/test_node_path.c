// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_node_path.c - the node-tree rules of f2/node.h against the kernel's:
 * the direct-node test (IS_DNODE) on every node offset of a full tree and
 * around each boundary, the start block of a direct node
 * (start_bidx_of_node), and the path to a file block (get_node_path) at
 * every boundary of the inode's addresses, the direct, indirect and
 * double-indirect nodes, for several inode layouts, with the round trip
 * path -> node offset -> start block.
 */
#include "unit.h"
#include "f2/errors.h"
#include "f2/node.h"

#define N	((uint64_t)F2_NIDS_PER_BLOCK)	/* 1018 */

/* The kernel's IS_DNODE, restated: offsets 3, 4 + N and 5 + 2N are
 * indirect; from 6 + 2N on, every offset whose distance from 6 + 2N is a
 * multiple of N + 1 is indirect; everything else (the inode, xattr nodes)
 * counts as direct. */
static int ref_is_dnode(uint32_t ofs)
{
	if (ofs == F2_NODE_OFS_XATTR)
		return 1;
	if (ofs == 3 || ofs == 4 + N || ofs == 5 + 2 * N)
		return 0;
	if (ofs >= 6 + 2 * N && (ofs - (6 + 2 * N)) % (N + 1) == 0)
		return 0;
	return 1;
}

/* Every node of a full tree in pre-order (the order that numbers them):
 * its offset must classify as its kind, a direct node must start where
 * the count of direct nodes before it says, and an indirect node's
 * children must be the offsets that follow. */
struct enum_state {
	uint32_t next;		/* offset the next node gets */
	uint64_t direct;	/* direct nodes seen */
	uint32_t iaddrs, baddrs;
	unsigned bad;
};

static void visit_direct(struct enum_state *e, uint32_t expect_ofs)
{
	uint32_t ofs = e->next++;
	int64_t start = f2_node_start_bidx(ofs, e->iaddrs, e->baddrs);

	if (ofs != expect_ofs || !f2_node_is_dnode(ofs) || !ref_is_dnode(ofs) ||
	    start != (int64_t)(e->iaddrs + e->direct * e->baddrs) ||
	    f2_node_first_bidx(ofs, e->iaddrs, e->baddrs) != start) {
		if (e->bad++ < 5)
			fprintf(stderr, "direct node %u (expected %u, rank %" PRIu64 "): "
				"is_dnode %d start %" PRId64 "\n", ofs, expect_ofs, e->direct,
				f2_node_is_dnode(ofs), start);
	}
	e->direct++;
}

static void visit_indirect(struct enum_state *e, uint32_t expect_ofs, int level)
{
	uint32_t ofs = e->next++;
	uint64_t first = e->iaddrs + e->direct * e->baddrs;

	if (ofs != expect_ofs || f2_node_is_dnode(ofs) || ref_is_dnode(ofs) ||
	    f2_node_start_bidx(ofs, e->iaddrs, e->baddrs) != -1 ||
	    f2_node_first_bidx(ofs, e->iaddrs, e->baddrs) != (int64_t)first) {
		if (e->bad++ < 5)
			fprintf(stderr, "indirect node %u (expected %u): is_dnode %d\n", ofs,
				expect_ofs, f2_node_is_dnode(ofs));
	}
	for (uint32_t i = 0; i < N; i++) {
		uint32_t c = f2_node_child_ofs(ofs, i);

		if (level == 2)
			visit_indirect(e, c, 1);
		else
			visit_direct(e, c);
	}
}

static void check_full_tree(uint32_t iaddrs, uint32_t baddrs)
{
	struct enum_state e = { .next = 1, .iaddrs = iaddrs, .baddrs = baddrs };

	CHECK(f2_node_is_dnode(0));
	CHECK_EQ(f2_node_start_bidx(0, iaddrs, baddrs), 0);
	for (unsigned s = 0; s < F2_NIDS_PER_INODE; s++) {
		if (s < 2)
			visit_direct(&e, f2_node_top_ofs(s));
		else
			visit_indirect(&e, f2_node_top_ofs(s), s == F2_NODE_DIND_BLOCK ? 2 : 1);
	}
	CHECK_EQ(e.bad, 0);
	CHECK_EQ(e.direct, 2 + 2 * N + N * N);
	CHECK_EQ(e.next, N * N + 3 * N + 6);	/* one past the last node */
	CHECK_EQ(e.iaddrs + e.direct * baddrs, f2_node_max_blocks(iaddrs, baddrs));
	/* past the tree: no start block; the test itself is unbounded */
	CHECK_EQ(f2_node_start_bidx(e.next, iaddrs, baddrs), -1);
	CHECK_EQ(f2_node_first_bidx(e.next, iaddrs, baddrs), -1);
	for (uint32_t o = e.next; o < e.next + 3 * (N + 1); o++)
		CHECK_EQ(f2_node_is_dnode(o), ref_is_dnode(o));
}

/* Node offsets at and around each boundary, against literal values. */
static void check_dnode_boundaries(void)
{
	static const struct { uint32_t ofs; int dnode; } t[] = {
		{ 0, 1 }, { 1, 1 }, { 2, 1 },
		{ 3, 0 }, { 4, 1 }, { 5, 1 },			/* IND1 and its first children */
		{ 3 + N, 1 }, { 4 + N, 0 }, { 5 + N, 1 },	/* IND2 = 4 + N = 1022 */
		{ 4 + 2 * N, 1 }, { 5 + 2 * N, 0 },		/* DIND = 5 + 2N = 2041 */
		{ 6 + 2 * N, 0 }, { 7 + 2 * N, 1 },		/* DIND's first child, 2042 */
		{ 8 + 2 * N, 1 }, { 5 + 3 * N, 1 },
		{ 6 + 2 * N + (N + 1) - 1, 1 },			/* 3060 */
		{ 6 + 2 * N + (N + 1), 0 },			/* 3061: second child */
		{ 6 + 2 * N + (N + 1) + 1, 1 },
		{ 6 + 2 * N + 2 * (N + 1), 0 },			/* 4080 */
		{ 6 + 2 * N + 500 * (N + 1) - 1, 1 },
		{ 6 + 2 * N + 500 * (N + 1), 0 },
		{ 6 + 2 * N + 500 * (N + 1) + 1, 1 },
		{ 6 + 2 * N + (N - 1) * (N + 1), 0 },		/* the last indirect node */
		{ 6 + 2 * N + (N - 1) * (N + 1) + N, 1 },	/* the last direct node */
		{ F2_NODE_OFS_XATTR, 1 },
	};

	CHECK_EQ(F2_NODE_OFS_DIND, 2041);
	CHECK_EQ(F2_NODE_OFS_XATTR, 0x1fffffff);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (f2_node_is_dnode(t[i].ofs) != t[i].dnode)
			fprintf(stderr, "node offset %u: is_dnode %d, expected %d\n", t[i].ofs,
				f2_node_is_dnode(t[i].ofs), t[i].dnode);
		CHECK_EQ(f2_node_is_dnode(t[i].ofs), t[i].dnode);
		CHECK_EQ(ref_is_dnode(t[i].ofs), t[i].dnode);
	}
	CHECK_EQ(f2_node_top_ofs(F2_NODE_DIR1_BLOCK), 1);
	CHECK_EQ(f2_node_top_ofs(F2_NODE_DIR2_BLOCK), 2);
	CHECK_EQ(f2_node_top_ofs(F2_NODE_IND1_BLOCK), 3);
	CHECK_EQ(f2_node_top_ofs(F2_NODE_IND2_BLOCK), 1022);
	CHECK_EQ(f2_node_top_ofs(F2_NODE_DIND_BLOCK), 2041);
	CHECK_EQ(f2_node_child_ofs(3, 0), 4);
	CHECK_EQ(f2_node_child_ofs(3, N - 1), 3 + N);
	CHECK_EQ(f2_node_child_ofs(1022, 0), 1023);
	CHECK_EQ(f2_node_child_ofs(2041, 0), 2042);
	CHECK_EQ(f2_node_child_ofs(2041, 1), 3061);
	CHECK_EQ(f2_node_child_ofs(3061, 0), 3062);
	/* the kernel's start block of a direct node, 923 addresses in the inode */
	CHECK_EQ(f2_node_start_bidx(1, 923, 1018), 923);
	CHECK_EQ(f2_node_start_bidx(2, 923, 1018), 923 + 1018);
	CHECK_EQ(f2_node_start_bidx(4, 923, 1018), 923 + 2 * 1018);
	CHECK_EQ(f2_node_start_bidx(1023, 923, 1018), 923 + (2 + N) * 1018);
	CHECK_EQ(f2_node_start_bidx(2043, 923, 1018), 923 + (2 + 2 * N) * 1018);
	CHECK_EQ(f2_node_start_bidx(3062, 923, 1018), 923 + (2 + 3 * N) * 1018);
	CHECK_EQ(f2_node_start_bidx(3, 923, 1018), -1);
	CHECK_EQ(f2_node_start_bidx(2042, 923, 1018), -1);
	CHECK_EQ(f2_node_start_bidx(F2_NODE_OFS_XATTR, 923, 1018), -1);
	CHECK_EQ(f2_node_first_bidx(2041, 923, 1018), 923 + (2 + 2 * N) * 1018);
	CHECK_EQ(f2_node_first_bidx(3061, 923, 1018), 923 + (2 + 3 * N) * 1018);
}

/* The kernel's get_node_path, restated: node offsets of each level for
 * block b (the returned depth, or -1 beyond the tree). */
static int ref_path(uint64_t b, uint64_t ia, uint64_t ba, uint32_t nofs[4], uint32_t ofs[4])
{
	uint64_t ind = ba * N;

	nofs[0] = 0;
	if (b < ia) {
		ofs[0] = (uint32_t)b;
		return 0;
	}
	b -= ia;
	if (b < 2 * ba) {
		ofs[0] = (uint32_t)(b / ba);
		nofs[1] = 1 + ofs[0];
		ofs[1] = (uint32_t)(b % ba);
		return 1;
	}
	b -= 2 * ba;
	if (b < 2 * ind) {
		int second = b >= ind;

		b -= second ? ind : 0;
		ofs[0] = F2_NODE_IND1_BLOCK + second;
		nofs[1] = second ? 4 + N : 3;
		ofs[1] = (uint32_t)(b / ba);
		nofs[2] = (second ? 5 + N : 4) + ofs[1];
		ofs[2] = (uint32_t)(b % ba);
		return 2;
	}
	b -= 2 * ind;
	if (b < ind * N) {
		ofs[0] = F2_NODE_DIND_BLOCK;
		nofs[1] = 5 + 2 * N;
		ofs[1] = (uint32_t)(b / ind);
		nofs[2] = 6 + 2 * N + ofs[1] * (N + 1);
		ofs[2] = (uint32_t)(b / ba % N);
		nofs[3] = 7 + 2 * N + ofs[1] * (N + 1) + ofs[2];
		ofs[3] = (uint32_t)(b % ba);
		return 3;
	}
	return -1;
}

static unsigned path_bad;

static void check_block(uint64_t b, uint32_t ia, uint32_t ba)
{
	struct f2_node_path p;
	uint32_t rn[4] = { 0 }, ro[4] = { 0 };
	int d = f2_node_path(b, ia, ba, &p), rd = ref_path(b, ia, ba, rn, ro), ok = 1;

	if (rd < 0) {
		ok = d == F2_ERANGE;
	} else if (d != rd) {
		ok = 0;
	} else {
		for (int k = 0; k <= d; k++)
			ok &= p.nofs[k] == rn[k] && p.ofs[k] == ro[k];
		if (d == 0) {
			ok &= p.ofs[0] == b;
		} else {
			int64_t start = f2_node_start_bidx(p.nofs[d], ia, ba);

			/* round trip: the leaf's start block plus the slot is b */
			ok &= start >= 0 && (uint64_t)start + p.ofs[d] == b;
			ok &= p.end[d] == (uint64_t)start + ba;
			ok &= f2_node_is_dnode(p.nofs[d]);
			ok &= p.nofs[1] == f2_node_top_ofs(p.ofs[0]);
			for (int k = 1; k < d; k++) {
				ok &= !f2_node_is_dnode(p.nofs[k]);
				ok &= p.nofs[k + 1] == f2_node_child_ofs(p.nofs[k], p.ofs[k]);
				ok &= p.end[k] >= p.end[k + 1];
				ok &= f2_node_first_bidx(p.nofs[k], ia, ba) <= (int64_t)b;
			}
		}
	}
	if (!ok && path_bad++ < 10)
		fprintf(stderr, "block %" PRIu64 " (inode %u, node %u addresses): depth %d "
			"nofs %u/%u/%u ofs %u/%u/%u/%u; kernel depth %d nofs %u/%u/%u\n", b, ia,
			ba, d, p.nofs[1], p.nofs[2], p.nofs[3], p.ofs[0], p.ofs[1], p.ofs[2],
			p.ofs[3], rd, rn[1], rn[2], rn[3]);
	CHECK(ok);
}

/* Every boundary of the tree and its neighbours, then a sweep. */
static void check_paths(uint32_t ia, uint32_t ba)
{
	const uint64_t ind = (uint64_t)ba * N, max = f2_node_max_blocks(ia, ba);
	const uint64_t edge[] = {
		0, ia, ia + ba, ia + 2 * ba,			/* inode, DIR1, DIR2, IND1 */
		ia + 2 * ba + ba, ia + 2 * ba + ind,		/* IND1's 2nd child, IND2 */
		ia + 2 * ba + ind + ba,
		ia + 2 * ba + 2 * ind,				/* DIND */
		ia + 2 * ba + 2 * ind + ba,			/* DIND's 1st indirect, 2nd leaf */
		ia + 2 * ba + 2 * ind + ind,			/* DIND's 2nd indirect */
		ia + 2 * ba + 2 * ind + 500 * ind + 7 * ba,
		ia + 2 * ba + 2 * ind + (N - 1) * ind,		/* DIND's last indirect */
		max - ba, max,
	};

	CHECK_EQ(max, ia + 2 * ba + 2 * ind + ind * N);
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (uint64_t b = edge[i] < 2 ? 0 : edge[i] - 2; b <= edge[i] + 2; b++)
			check_block(b, ia, ba);
	for (uint64_t b = 0; b < max; b += 4999)
		check_block(b, ia, ba);
	for (uint64_t b = 0; b < 3 * ind; b += 13)
		check_block(b, ia, ba);
}

/* Literal paths for the default inode (923 addresses): the golden dind
 * image's file has a block 3 past the double-indirect boundary. */
static void check_literal_paths(void)
{
	struct f2_node_path p;
	const uint64_t dind = 923 + 2 * 1018 + 2 * 1018 * 1018;	/* 2075607 */

	CHECK_EQ(f2_node_path(922, 923, 1018, &p), 0);
	CHECK_EQ(p.ofs[0], 922);
	CHECK_EQ(f2_node_path(923, 923, 1018, &p), 1);
	CHECK_EQ(p.ofs[0], 0);
	CHECK_EQ(p.nofs[1], 1);
	CHECK_EQ(p.ofs[1], 0);
	CHECK_EQ(p.end[1], 923 + 1018);
	CHECK_EQ(f2_node_path(923 + 1018, 923, 1018, &p), 1);
	CHECK_EQ(p.nofs[1], 2);
	CHECK_EQ(f2_node_path(923 + 2036, 923, 1018, &p), 2);
	CHECK_EQ(p.nofs[1], 3);
	CHECK_EQ(p.nofs[2], 4);
	CHECK_EQ(f2_node_path(dind - 1, 923, 1018, &p), 2);
	CHECK_EQ(p.nofs[1], 1022);
	CHECK_EQ(p.nofs[2], 2040);
	CHECK_EQ(p.ofs[2], 1017);
	CHECK_EQ(f2_node_path(dind + 3, 923, 1018, &p), 3);
	CHECK_EQ(p.ofs[0], F2_NODE_DIND_BLOCK);
	CHECK_EQ(p.nofs[1], 2041);
	CHECK_EQ(p.nofs[2], 2042);
	CHECK_EQ(p.nofs[3], 2043);
	CHECK_EQ(p.ofs[3], 3);
	CHECK_EQ(p.end[1], f2_node_max_blocks(923, 1018));
	CHECK_EQ(p.end[2], dind + 1018 * 1018);
	CHECK_EQ(p.end[3], dind + 1018);
	CHECK_EQ(f2_node_path(f2_node_max_blocks(923, 1018) - 1, 923, 1018, &p), 3);
	CHECK_EQ(p.nofs[3], N * N + 3 * N + 5);
	CHECK_EQ(f2_node_path(f2_node_max_blocks(923, 1018), 923, 1018, &p), F2_ERANGE);
}

int main(void)
{
	/* inode layouts: default; inline xattrs (50 words); extra attributes
	 * (i_extra_isize 36: 9 words) with a 200-word flexible inline xattr
	 * area; a compressed file (4-block clusters: both counts aligned) */
	static const uint32_t layout[][2] = {
		{ 923, 1018 }, { 923 - 50, 1018 }, { 923 - 9 - 200, 1018 },
		{ (923 - 9 - 50) & ~3u, 1018 & ~3u }, { 1, 1018 },
	};

	check_dnode_boundaries();
	check_literal_paths();
	for (size_t i = 0; i < sizeof(layout) / sizeof(layout[0]); i++) {
		check_full_tree(layout[i][0], layout[i][1]);
		check_paths(layout[i][0], layout[i][1]);
	}
	CHECK_EQ(path_bad, 0);
	UNIT_DONE();
}
