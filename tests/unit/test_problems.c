// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_problems.c - the fsck problem table (fsck/problems.def): codes
 * unique and sorted, each code's phase byte 0x01..0x0B, names, messages
 * and fix texts present, flags known.
 */
#include <stdint.h>
#include "problem.h"
#include "unit.h"

static const struct problem table[] = {
#define PR(code, name, sev, flags, fix, what) { code, #name, sev, flags, fix, what },
#include "problems.def"
#undef PR
};

int main(void)
{
	unsigned n = sizeof(table) / sizeof(table[0]);

	CHECK(n >= 40);
	for (unsigned i = 0; i < n; i++) {
		const struct problem *p = &table[i];
		uint32_t phase = p->code >> 16;

		CHECK(phase >= 0x01 && phase <= 0x0B);
		CHECK((p->code & 0xFFFF) != 0);
		CHECK(p->name && p->name[0]);
		CHECK(p->fix && p->fix[0] && p->what && p->what[0]);
		CHECK(p->severity == ERR || p->severity == WARN);
		CHECK((p->flags & ~(unsigned)(PF_PREEN | PF_FATAL | PF_REPAIR)) == 0);
		if (i) {
			if (p->code <= table[i - 1].code)
				fprintf(stderr, "code 0x%06X after 0x%06X\n", p->code,
					table[i - 1].code);
			CHECK(p->code > table[i - 1].code);
		}
		for (unsigned j = 0; j < i; j++)
			CHECK(strcmp(table[j].name, p->name) != 0);
	}
	printf("%u problems\n", n);
	UNIT_DONE();
}
