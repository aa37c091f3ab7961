// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_engine_map.c - the engine's hash map (lib/engine/map.c): puts, gets,
 * replacement, growth and backward-shift deletion against a plain array
 * model under a pseudo-random mix of operations.
 */
#include "../../lib/engine/internal.h"
#include "unit.h"

#define N	20000

int main(void)
{
	static void *model[N];
	struct eng_map m = { 0 };
	uint64_t x = 88172645463325252ull;

	for (int step = 0; step < 400000; step++) {
		uint64_t k;
		int op;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = (x >> 8) % N;
		op = (int)(x % 3);
		if (op == 0) {
			void *v = (void *)(uintptr_t)(step + 1);

			CHECK_EQ(eng_map_put(&m, k * 0x100000001ull, v), 0);
			model[k] = v;
		} else if (op == 1) {
			CHECK(eng_map_del(&m, k * 0x100000001ull) == model[k]);
			model[k] = NULL;
		} else {
			CHECK(eng_map_get(&m, k * 0x100000001ull) == model[k]);
		}
		if (unit_failures)
			break;
	}
	{
		size_t n = 0;
		void **v;

		for (int k = 0; k < N; k++) {
			CHECK(eng_map_get(&m, (uint64_t)k * 0x100000001ull) == model[k]);
			n += model[k] != NULL;
		}
		CHECK_EQ(m.n, n);
		v = eng_map_values(&m);
		CHECK(v != NULL);
		free(v);
	}
	eng_map_free(&m);
	UNIT_DONE();
}
