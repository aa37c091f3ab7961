// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_fsckmaps.c - fsck's in-memory maps: the sparse bitmap (set, test,
 * next across chunk borders, counts, bounds, lazily allocated chunks) and
 * the inode hash (get/find, growth keeping every record).
 */
#include <stdint.h>
#include "inomap.h"
#include "sbitmap.h"
#include "unit.h"

static void test_sbitmap(void)
{
	struct sbitmap m;
	uint64_t n = 5ull * SB_CHUNK_BITS + 77;
	uint32_t allocated = 0;

	CHECK_EQ(sbm_init(&m, n), 0);
	CHECK_EQ(sbm_next(&m, 0), n);
	CHECK_EQ(sbm_last(&m), n);
	CHECK_EQ(sbm_set(&m, 0), 0);
	CHECK_EQ(sbm_last(&m), 0);
	CHECK_EQ(sbm_set(&m, 0), 1);
	CHECK_EQ(sbm_set(&m, SB_CHUNK_BITS - 1), 0);
	CHECK_EQ(sbm_set(&m, 3ull * SB_CHUNK_BITS + 64), 0);
	CHECK_EQ(sbm_last(&m), 3ull * SB_CHUNK_BITS + 64);
	CHECK_EQ(sbm_set(&m, n - 1), 0);
	CHECK_EQ(sbm_last(&m), n - 1);
	CHECK_EQ(sbm_set(&m, n), -1);
	CHECK_EQ(m.nset, 4);
	CHECK(sbm_test(&m, SB_CHUNK_BITS - 1));
	CHECK(!sbm_test(&m, SB_CHUNK_BITS));
	CHECK(!sbm_test(&m, n + 5));
	CHECK_EQ(sbm_next(&m, 1), SB_CHUNK_BITS - 1);
	CHECK_EQ(sbm_next(&m, SB_CHUNK_BITS), 3ull * SB_CHUNK_BITS + 64);
	CHECK_EQ(sbm_next(&m, 3ull * SB_CHUNK_BITS + 65), n - 1);
	CHECK_EQ(sbm_next(&m, n - 1), n - 1);
	CHECK_EQ(sbm_count(&m, 0, 512), 1);
	CHECK_EQ(sbm_count(&m, SB_CHUNK_BITS - 512, 1024), 1);
	for (uint32_t i = 0; i < m.nchunks; i++)
		allocated += m.chunk[i] != NULL;
	CHECK_EQ(allocated, 3);		/* chunks 0, 3 and 5 only */
	sbm_free(&m);
}

static void test_inomap(void)
{
	struct inomap m;
	struct ino_rec *rec;
	uint32_t key, visits = 0;
	int created;

	CHECK_EQ(inomap_init(&m), 0);
	for (uint32_t ino = 3; ino < 100003; ino += 7) {
		struct ino_rec *r = inomap_get(&m, ino, &created);

		CHECK(r && created);
		if (r)
			CHECK_EQ(ino_set_counts(&m, ino, r, ino ^ 0x55, 0), 0);
	}
	for (uint32_t ino = 3; ino < 100003; ino += 7) {
		struct ino_rec *r = inomap_find(&m, ino);

		CHECK(r && ino_found(&m, ino, r) == (ino ^ 0x55));
		CHECK(inomap_get(&m, ino, &created) == r && !created);
	}
	for (size_t pos = 0; (rec = inomap_next(&m, &pos, &key));) {
		CHECK(key % 7 == 3 && ino_found(&m, key, rec) == (key ^ 0x55));
		visits++;
	}
	CHECK_EQ(visits, inomap_count(&m));
	CHECK(inomap_find(&m, 4) == NULL);
	CHECK(inomap_get(&m, 0, NULL) == NULL);
	CHECK_EQ(m.map.n, (100003 - 3 + 6) / 7);
	inomap_free(&m);
}

/* The table below a limit: records moved over, others kept in the map,
 * every record found and walked once either way. */
static void test_inomap_dense(void)
{
	struct inomap m;
	struct ino_rec *rec;
	uint32_t key, visits = 0;
	int created;

	CHECK_EQ(inomap_init(&m), 0);
	for (uint32_t ino = 1; ino < 3000; ino += 3)
		CHECK_EQ(ino_set_links(&m, ino, inomap_get(&m, ino, NULL), ino), 0);
	CHECK_EQ(ino_set_links(&m, 900000, inomap_get(&m, 900000, NULL), 900000), 0);
	/* too sparse for a table of 10^9 records: stays a map */
	CHECK_EQ(inomap_densify(&m, 1000000000u, inomap_count(&m)), 0);
	CHECK_EQ(inomap_densify(&m, 2000, inomap_count(&m)), 1);
	CHECK_EQ(inomap_count(&m), 1000u + 1);
	CHECK(m.dlimit == 2000 && m.map.n == 334);	/* 2002..2998 and 900000 */
	for (uint32_t ino = 1; ino < 3000; ino++) {
		rec = inomap_find(&m, ino);
		CHECK(ino % 3 == 1 ? rec && ino_links(&m, ino, rec) == ino : rec == NULL);
	}
	CHECK(ino_links(&m, 900000, inomap_find(&m, 900000)) == 900000);
	rec = inomap_get(&m, 5, &created);	/* new, in the table */
	CHECK(rec && created && ino_links(&m, 5, rec) == 0 && rec->present);
	CHECK_EQ(ino_set_links(&m, 5, rec, 5), 0);
	CHECK(inomap_get(&m, 5, &created) == rec && !created);
	CHECK(inomap_get(&m, 0, NULL) == NULL && inomap_find(&m, 0) == NULL);
	for (size_t pos = 0; (rec = inomap_next(&m, &pos, &key));) {
		CHECK_EQ(ino_links(&m, key, rec), key);
		visits++;
	}
	CHECK_EQ(visits, inomap_count(&m));
	inomap_free(&m);
}

/* Counts past 16 bits: found counted up through 65535, links set large. */
static void test_inomap_big(void)
{
	struct inomap m;
	struct ino_rec *r;

	CHECK_EQ(inomap_init(&m), 0);
	r = inomap_get(&m, 77, NULL);
	CHECK_EQ(ino_set_links(&m, 77, r, 70000), 0);
	for (uint32_t i = 0; i < 70000; i++)
		CHECK_EQ(ino_add_found(&m, 77, r), 0);
	CHECK_EQ(ino_found(&m, 77, r), 70000);
	CHECK_EQ(ino_links(&m, 77, r), 70000);
	r = inomap_get(&m, 78, NULL);
	for (uint32_t i = 0; i < 65534; i++)
		CHECK_EQ(ino_add_found(&m, 78, r), 0);
	CHECK_EQ(ino_set_links(&m, 78, r, 3), 0);
	CHECK(r->found == 65534 && m.big.n == 1);	/* still in the record */
	CHECK_EQ(ino_add_found(&m, 78, r), 0);
	CHECK(ino_found(&m, 78, r) == 65535 && ino_links(&m, 78, r) == 3 && m.big.n == 2);
	inomap_free(&m);
}

int main(void)
{
	test_sbitmap();
	test_inomap();
	test_inomap_dense();
	test_inomap_big();
	UNIT_DONE();
}
