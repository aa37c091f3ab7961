// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_quota.c - the quota file format (lib/fs/quota.c): files built for
 * 0 ids, 1 id and ids spread over several tree and data blocks parse back
 * to the same entries; the one-id file has the layout mkfs has always
 * written; corrupt files (bad magic or revision, refs out of range or to
 * the root, loops, a data block used as a tree block, too many entries,
 * a leaf without its entry, bad counts) are refused with a reason, and
 * random damage never crashes the walk.
 */
#include <errno.h>
#include "f2/errors.h"
#include "f2/quota.h"
#include "unit.h"

#define BS F2_QT_BLKSIZE

struct got {
	struct f2_quota_dq dq[512];
	size_t n;
	size_t stop_at;		/* return 7 at this entry (0: never) */
};

static int collect(void *arg, const struct f2_quota_dq *dq)
{
	struct got *g = arg;

	if (g->n < 512)
		g->dq[g->n] = *dq;
	g->n++;
	return g->stop_at && g->n == g->stop_at ? 7 : 0;
}

static uint32_t rd32(const uint8_t *b, size_t off)
{
	return (uint32_t)b[off] | (uint32_t)b[off + 1] << 8 | (uint32_t)b[off + 2] << 16 |
	       (uint32_t)b[off + 3] << 24;
}

static void wr32(uint8_t *b, size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

static int dq_eq(const struct f2_quota_dq *a, const struct f2_quota_dq *b)
{
	return a->id == b->id && a->ihard == b->ihard && a->isoft == b->isoft &&
	       a->inodes == b->inodes && a->bhard == b->bhard && a->bsoft == b->bsoft &&
	       a->space == b->space && a->btime == b->btime && a->itime == b->itime;
}

static const struct f2_quota_hdr hdr = { .bgrace = 100, .igrace = 200, .flags = 0 };

/* Build dq[0..n), parse it back and compare; returns the file. */
static uint8_t *roundtrip(int type, const struct f2_quota_dq *dq, size_t n, uint32_t *nblk)
{
	static struct got g;
	struct f2_quota_hdr h;
	uint8_t *buf;
	char why[128] = "";
	int err = f2_quota_build(type, &hdr, dq, n, &buf, nblk);

	CHECK_EQ(err, 0);
	if (err)
		return NULL;
	memset(&g, 0, sizeof(g));
	err = f2_quota_parse(buf, (size_t)*nblk * BS, type, &h, collect, &g, why, sizeof(why));
	if (err)
		fprintf(stderr, "parse: %s\n", why);
	CHECK_EQ(err, 0);
	CHECK_EQ(h.blocks, *nblk);
	CHECK_EQ(h.bgrace, 100);
	CHECK_EQ(h.igrace, 200);
	CHECK_EQ(g.n, n);
	for (size_t k = 0; k < n && k < g.n; k++) {
		struct f2_quota_dq want = dq[k];

		if (!want.id && !want.inodes && !want.space && !want.ihard && !want.isoft &&
		    !want.bhard && !want.bsoft && !want.btime && !want.itime)
			want.itime = 1;	/* the driver's marker of a used all-zero entry */
		CHECK(dq_eq(&g.dq[k], &want));
	}
	/* the wrong type's magic is refused */
	CHECK_EQ(f2_quota_parse(buf, (size_t)*nblk * BS, (type + 1) % 3, &h, NULL, NULL, why,
				sizeof(why)), F2_EBADMAGIC);
	return buf;
}

/* Parse buf[nblk] expecting error want (any error when want is 1). */
static void refused(const uint8_t *buf, uint32_t nblk, int want, const char *what)
{
	struct got g = { .n = 0 };
	struct f2_quota_hdr h;
	char why[128] = "";
	int err = f2_quota_parse(buf, (size_t)nblk * BS, 0, &h, collect, &g, why, sizeof(why));

	printf("%s: %d %s\n", what, err, why);
	if (want == 1)
		CHECK(err < 0);
	else
		CHECK_EQ(err, want);
	CHECK(why[0] != 0);
}

static void test_empty(void)
{
	uint32_t nblk;
	uint8_t *b = roundtrip(0, NULL, 0, &nblk);

	CHECK_EQ(nblk, 2);
	if (b)
		CHECK_EQ(rd32(b, 28), 0);	/* no free entry block */
	free(b);
}

/* The layout mkfs has always written: tree 1 -> 2 -> 3 -> 4, data 5. */
static void test_one(void)
{
	struct f2_quota_dq dq = { .id = 0, .inodes = 2, .space = 8192 };
	uint8_t want[6 * BS] = { 0 };
	uint32_t nblk;
	uint8_t *b;

	wr32(want, 0, 0xd9c01927);
	wr32(want, 4, 1);
	wr32(want, 8, 100);
	wr32(want, 12, 200);
	wr32(want, 20, 6);
	wr32(want, 28, 5);
	want[1024] = 2;
	want[2048] = 3;
	want[3072] = 4;
	want[4096] = 5;
	want[5120 + 8] = 1;
	want[5136 + 24] = 2;
	want[5136 + 49] = 0x20;		/* 8192 */
	b = roundtrip(1, &dq, 1, &nblk);
	CHECK_EQ(nblk, 6);
	if (b)
		CHECK(!memcmp(b, want, sizeof(want)));
	free(b);

	/* a non-zero id sits on its own path: bytes 0, 0, 3, 0xe8 */
	dq.id = 1000;
	b = roundtrip(0, &dq, 1, &nblk);
	CHECK_EQ(nblk, 6);
	if (b) {
		CHECK_EQ(rd32(b, 3 * BS + 4 * 3), 4);
		CHECK_EQ(rd32(b, 4 * BS + 4 * 0xe8), 5);
	}
	free(b);

	/* id 0 owning nothing is still an entry */
	dq.id = 0;
	dq.inodes = dq.space = 0;
	free(roundtrip(2, &dq, 1, &nblk));
}

static struct f2_quota_dq many[200];

static size_t many_ids(void)
{
	size_t n = 0;

	for (uint32_t i = 0; i < 40; i++)	/* three data blocks under one leaf */
		many[n++] = (struct f2_quota_dq){ .id = i, .inodes = i + 1, .space = i * 4096,
						  .bhard = i & 1 ? 1u << 20 : 0, .btime = i };
	for (uint32_t i = 0; i < 20; i++)	/* a leaf per id */
		many[n++] = (struct f2_quota_dq){ .id = 1000 + 256 * i, .inodes = 1 };
	many[n++] = (struct f2_quota_dq){ .id = 70000, .isoft = 5, .itime = 9 };
	many[n++] = (struct f2_quota_dq){ .id = 1u << 24, .inodes = 3 };
	many[n++] = (struct f2_quota_dq){ .id = 0xfffffffe, .space = 1ull << 40 };
	many[n++] = (struct f2_quota_dq){ .id = 0xffffffff, .inodes = 1ull << 33 };
	return n;
}

static void test_many(void)
{
	size_t n = many_ids();
	uint32_t nblk;
	uint8_t *b = roundtrip(0, many, n, &nblk);

	/* tree blocks: level 1: 0, 1, 0xff; level 2: 0.0, 0.1 (70000), 1.0,
	 * 0xff.0xff; level 3: 0.0.0, 0.0.3..0.0.0x16 (1000 + 256 i: 20 leaves
	 * from 0.0.3), 0.1.0x11, 1.0.0, 0xff.0xff.0xff; data: 64 entries, 5 */
	CHECK_EQ(nblk, 2 + 3 + 4 + (1 + 20 + 3) + 5);
	if (b) {
		/* the last data block, not full, heads the free entry list */
		uint32_t fe = rd32(b, 28);

		CHECK(fe > 1 && fe < nblk);
		CHECK_EQ(b[(size_t)fe * BS + 8], n % 14);
	}
	free(b);

	/* unsorted or repeated ids, a bad type */
	{
		struct f2_quota_dq two[2] = { { .id = 5 }, { .id = 5 } };
		uint8_t *o;

		CHECK_EQ(f2_quota_build(0, &hdr, two, 2, &o, &nblk), -EINVAL);
		two[1].id = 4;
		CHECK_EQ(f2_quota_build(0, &hdr, two, 2, &o, &nblk), -EINVAL);
		CHECK_EQ(f2_quota_build(3, &hdr, two, 1, &o, &nblk), -EINVAL);
	}
}

static void test_stop(void)
{
	size_t n = many_ids();
	struct got g = { .stop_at = 3 };
	struct f2_quota_hdr h;
	uint32_t nblk;
	uint8_t *b;

	CHECK_EQ(f2_quota_build(0, &hdr, many, n, &b, &nblk), 0);
	CHECK_EQ(f2_quota_parse(b, (size_t)nblk * BS, 0, &h, collect, &g, NULL, 0), 7);
	CHECK_EQ(g.n, 3);
	free(b);
}

static void test_corrupt(void)
{
	size_t n = many_ids();
	uint32_t nblk, l1, l2, l3, data;
	uint8_t *b, *c;

	CHECK_EQ(f2_quota_build(0, &hdr, many, n, &b, &nblk), 0);
	c = malloc((size_t)nblk * BS);
	if (!c || !b)
		return;
	l1 = rd32(b, 1 * BS);			/* root -> level 1 for ids 0.x.x.x */
	l2 = rd32(b, (size_t)l1 * BS);
	l3 = rd32(b, (size_t)l2 * BS);
	data = rd32(b, (size_t)l3 * BS);
#define RESET() memcpy(c, b, (size_t)nblk * BS)

	RESET(); wr32(c, 0, 0x12345678);
	refused(c, nblk, F2_EBADMAGIC, "bad magic");
	RESET(); wr32(c, 4, 0);
	refused(c, nblk, F2_EBADMAGIC, "revision 0");
	refused(c, 1, F2_ERANGE, "one block");
	RESET(); wr32(c, 20, nblk + 1);
	refused(c, nblk, F2_ERANGE, "blocks past the file");
	RESET(); wr32(c, 20, 1);
	refused(c, nblk, F2_ERANGE, "blocks 1");
	RESET(); wr32(c, 28, nblk);
	refused(c, nblk, F2_ERANGE, "free entry past blocks");
	RESET(); wr32(c, 24, 0xffffffff);
	refused(c, nblk, F2_ERANGE, "free block past blocks");
	RESET(); wr32(c, (size_t)l2 * BS + 8, nblk);
	refused(c, nblk, F2_ERANGE, "ref past the file");
	RESET(); wr32(c, (size_t)l2 * BS + 8, 0x80000000u);
	refused(c, nblk, F2_ERANGE, "huge ref");
	RESET(); wr32(c, 20, nblk - 1);
	refused(c, nblk, F2_ERANGE, "ref past info.blocks");
	RESET(); wr32(c, (size_t)l1 * BS + 4 * 9, 1);
	refused(c, nblk, F2_ERANGE, "ref to the root");
	RESET(); wr32(c, (size_t)l2 * BS + 4 * 9, l1);
	refused(c, nblk, F2_ECORRUPT, "loop to an ancestor");
	RESET(); wr32(c, (size_t)l3 * BS + 4 * 9, l3);
	refused(c, nblk, F2_ECORRUPT, "leaf naming its own tree block as data");
	RESET(); wr32(c, (size_t)l2 * BS + 4 * 9, data);
	refused(c, nblk, F2_ECORRUPT, "data block used as a tree block");
	RESET(); wr32(c, (size_t)l2 * BS + 4 * 9, l3);
	refused(c, nblk, F2_ECORRUPT, "tree block named twice");
	RESET(); c[(size_t)data * BS + 8] = 15;
	refused(c, nblk, F2_ECORRUPT, "15 entries");
	RESET(); c[(size_t)data * BS + 9] = 1;
	refused(c, nblk, F2_ECORRUPT, "entries 256 + 14");
	RESET(); wr32(c, (size_t)data * BS + 16, 77);
	refused(c, nblk, F2_ECORRUPT, "leaf without its entry");
	RESET(); wr32(c, (size_t)l3 * BS + 4 * 200, data);
	refused(c, nblk, F2_ECORRUPT, "leaf of an id the block lacks");

	/* random damage: refused or accepted, never a crash */
	srand(1);
	for (int round = 0; round < 5000; round++) {
		struct got g = { .n = 0 };
		struct f2_quota_hdr h;

		RESET();
		for (int k = 0; k < 1 + round % 8; k++) {
			size_t blk = (size_t)rand() % nblk, off = (size_t)rand() % (BS / 4);

			wr32(c, blk * BS + 4 * off, round & 1 ? (uint32_t)rand() % (nblk + 2) :
				(uint32_t)rand());
		}
		(void)f2_quota_parse(c, (size_t)nblk * BS, 0, &h, collect, &g, NULL, 0);
		CHECK(g.n <= n + 256 * 14);
	}
#undef RESET
	free(c);
	free(b);
}

int main(void)
{
	test_empty();
	test_one();
	test_many();
	test_stop();
	test_corrupt();
	UNIT_DONE();
}
