// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_map.c - the hash map of f2/map.h (lib/util/map.c): a pointer map
 * against an array model under a pseudo-random mix of puts, gets and
 * removals (growth, backward-shift removal); inline 12-byte records with
 * 32-bit keys (get-or-insert, growth keeping every record, 16-byte slots);
 * keys 0 and UINT64_MAX and keys differing only in their high half;
 * iteration that visits every key once; reuse after free.
 */
#include "f2/map.h"
#include "unit.h"

#define N	20000

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Every key of the model present with its value, nothing else, each once. */
static void check_against(struct f2_map *m, void *const *model, uint64_t mult)
{
	static unsigned char seen[N];
	size_t pos = 0, n = 0, visits = 0;
	uint64_t key;
	void **v;

	memset(seen, 0, sizeof(seen));
	for (int k = 0; k < N; k++) {
		CHECK(f2_pmap_get(m, (uint64_t)k * mult) == model[k]);
		n += model[k] != NULL;
	}
	CHECK_EQ(m->n, n);
	while ((v = f2_map_next(m, &pos, &key))) {
		uint64_t k = key / mult;

		visits++;
		CHECK(key % mult == 0 && k < N && !seen[k] && *v == model[k]);
		if (k < N)
			seen[k] = 1;
	}
	CHECK_EQ(visits, n);
	CHECK(f2_map_next(m, &pos, &key) == NULL);
}

/* Random puts, removals and gets on N keys k * mult (key 0 included). */
static void test_model(uint64_t mult)
{
	static void *model[N];
	struct f2_map m;
	uint64_t x = 88172645463325252ull;
	void **all;

	memset(model, 0, sizeof(model));
	f2_map_init(&m, sizeof(void *), 0);
	for (int step = 0; step < 400000 && !unit_failures; step++) {
		uint64_t r = xorshift(&x), k = (r >> 8) % N;
		int op = (int)(r % 3);

		if (op == 0) {
			void *v = (void *)(uintptr_t)(step + 1);

			CHECK_EQ(f2_pmap_put(&m, k * mult, v), 0);
			model[k] = v;
		} else if (op == 1) {
			CHECK(f2_pmap_del(&m, k * mult) == model[k]);
			model[k] = NULL;
		} else {
			CHECK(f2_pmap_get(&m, k * mult) == model[k]);
		}
		if (step % 50000 == 0)
			check_against(&m, model, mult);
	}
	check_against(&m, model, mult);
	all = f2_pmap_values(&m);
	CHECK(all != NULL);
	free(all);
	f2_map_free(&m);
	CHECK_EQ(m.n, 0);
	CHECK(f2_pmap_get(&m, mult) == NULL);
}

/* fsck's use: 12-byte records inline under 32-bit keys. */
struct rec {
	uint32_t a, b, c;
};

static void test_inline32(void)
{
	struct f2_map m;
	struct rec *r, out;
	size_t pos = 0, count = 0;
	uint64_t key, sum = 0, want = 0;
	int created;

	f2_map_init(&m, sizeof(struct rec), F2_MAP_KEY32);
	CHECK_EQ(m.stride, 16);
	CHECK(f2_map_find(&m, 5) == NULL);
	for (uint32_t ino = 3; ino < 300003; ino += 7) {
		r = f2_map_insert(&m, ino, &created);
		CHECK(r && created);
		if (!r)
			break;
		CHECK(r->a == 0 && r->b == 0 && r->c == 0);
		r->a = ino ^ 0x55;
		r->c = ~ino;
		want += ino;
	}
	CHECK_EQ(m.n, (300003 - 3 + 6) / 7);
	/* grown by doubling, at most 85% full */
	CHECK(m.cap && (m.cap & (m.cap - 1)) == 0 && m.n * 20 <= m.cap * 17);
	CHECK(m.n * 40 > m.cap * 17);
	for (uint32_t ino = 3; ino < 300003; ino += 7) {
		r = f2_map_find(&m, ino);
		CHECK(r && r->a == (ino ^ 0x55) && r->c == ~ino);
		CHECK(f2_map_insert(&m, ino, &created) == r && !created);
		if (unit_failures)
			break;
	}
	CHECK(f2_map_find(&m, 4) == NULL);
	CHECK(f2_map_find(&m, 0) == NULL);
	CHECK(f2_map_find(&m, 1ull << 32 | 3) == NULL);
	CHECK(f2_map_insert(&m, 1ull << 32, &created) == NULL && !created);
	r = f2_map_insert(&m, UINT32_MAX, &created);
	CHECK(r && created);
	if (r)
		r->b = 7;
	while ((r = f2_map_next(&m, &pos, &key))) {
		count++;
		if (key != UINT32_MAX) {
			sum += key;
			CHECK(r->a == (key ^ 0x55));
		}
	}
	CHECK_EQ(count, m.n);
	CHECK_EQ(sum, want);
	/* remove every other record; the rest stay findable */
	for (uint32_t ino = 3; ino < 300003; ino += 14) {
		CHECK_EQ(f2_map_remove(&m, ino, &out), 1);
		CHECK_EQ(out.a, ino ^ 0x55);
		CHECK_EQ(f2_map_remove(&m, ino, NULL), 0);
	}
	for (uint32_t ino = 3; ino < 300003; ino += 7) {
		r = f2_map_find(&m, ino);
		CHECK((ino - 3) % 14 == 0 ? r == NULL : r && r->a == (ino ^ 0x55));
		if (unit_failures)
			break;
	}
	/* a key inserted again starts from a zeroed record */
	for (uint32_t ino = 3; ino < 300003; ino += 14 * 97) {
		r = f2_map_insert(&m, ino, &created);
		CHECK(r && created && r->a == 0 && r->b == 0 && r->c == 0);
	}
	r = f2_map_find(&m, UINT32_MAX);
	CHECK(r && r->b == 7);
	f2_map_free(&m);
	CHECK(f2_map_find(&m, 3) == NULL);
	CHECK(f2_map_insert(&m, 3, &created) && created);	/* usable after free */
	CHECK_EQ(m.n, 1);
	f2_map_free(&m);
}

/* The edge keys: 0 (the empty-slot mark) and UINT64_MAX, and keys equal
 * in one half. */
static void test_edges(void)
{
	static const uint64_t keys[] = {
		0, UINT64_MAX, 1, 1ull << 32, (1ull << 32) | 1, UINT32_MAX, 1ull << 63,
		0xFFFFFFFF00000000ull, 0x00000000FFFFFFFEull,
	};
	const size_t nk = sizeof(keys) / sizeof(keys[0]);
	struct f2_map m;
	uint64_t *v, key, seen = 0;
	size_t pos = 0;
	int created;

	f2_map_init(&m, sizeof(uint64_t), 0);
	CHECK(f2_map_find(&m, 0) == NULL);
	CHECK_EQ(f2_map_remove(&m, 0, NULL), 0);
	for (size_t i = 0; i < nk; i++) {
		v = f2_map_insert(&m, keys[i], &created);
		CHECK(v && created);
		if (v)
			*v = ~keys[i];
	}
	CHECK_EQ(m.n, nk);
	for (size_t i = 0; i < nk; i++) {
		v = f2_map_find(&m, keys[i]);
		CHECK(v && *v == ~keys[i]);
	}
	while ((v = f2_map_next(&m, &pos, &key))) {
		CHECK_EQ(*v, ~key);
		for (size_t i = 0; i < nk; i++)
			if (keys[i] == key)
				seen |= 1ull << i;
	}
	CHECK_EQ(seen, (1ull << nk) - 1);
	/* removing key 0 leaves the others, and back */
	CHECK_EQ(f2_map_remove(&m, 0, NULL), 1);
	CHECK(f2_map_find(&m, 0) == NULL);
	CHECK_EQ(m.n, nk - 1);
	v = f2_map_find(&m, UINT64_MAX);
	CHECK(v && *v == 0);
	v = f2_map_insert(&m, 0, &created);
	CHECK(v && created && *v == 0);
	/* key 0 survives growth */
	if (v)
		*v = 42;
	for (uint64_t k = 1; k <= 1000; k++)
		CHECK(f2_map_insert(&m, k << 40, NULL) != NULL);
	v = f2_map_find(&m, 0);
	CHECK(v && *v == 42);
	v = f2_map_find(&m, UINT64_MAX);
	CHECK(v && *v == 0);
	f2_map_free(&m);
}

int main(void)
{
	test_model(1);			/* dense keys, 0 among them */
	test_model(0x100000001ull);	/* both halves */
	test_model(1ull << 32);		/* high half only */
	test_inline32();
	test_edges();
	UNIT_DONE();
}
