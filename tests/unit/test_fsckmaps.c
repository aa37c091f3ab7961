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
	CHECK_EQ(sbm_set(&m, 0), 0);
	CHECK_EQ(sbm_set(&m, 0), 1);
	CHECK_EQ(sbm_set(&m, SB_CHUNK_BITS - 1), 0);
	CHECK_EQ(sbm_set(&m, 3ull * SB_CHUNK_BITS + 64), 0);
	CHECK_EQ(sbm_set(&m, n - 1), 0);
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
			r->found = ino ^ 0x55;
	}
	for (uint32_t ino = 3; ino < 100003; ino += 7) {
		struct ino_rec *r = inomap_find(&m, ino);

		CHECK(r && r->found == (ino ^ 0x55));
		CHECK(inomap_get(&m, ino, &created) == r && !created);
	}
	for (size_t pos = 0; (rec = inomap_next(&m, &pos, &key));) {
		CHECK(key % 7 == 3 && rec->found == (key ^ 0x55));
		visits++;
	}
	CHECK_EQ(visits, m.map.n);
	CHECK(inomap_find(&m, 4) == NULL);
	CHECK(inomap_get(&m, 0, NULL) == NULL);
	CHECK_EQ(m.map.n, (100003 - 3 + 6) / 7);
	inomap_free(&m);
}

int main(void)
{
	test_sbitmap();
	test_inomap();
	UNIT_DONE();
}
