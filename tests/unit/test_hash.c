// SPDX-License-Identifier: GPL-2.0-or-later
/* test_hash.c - dentry hash: dots, the known lost+found value, properties. */
#include "f2/hash.h"
#include "unit.h"

static uint32_t h(const char *s)
{
	return f2_dentry_hash((const uint8_t *)s, strlen(s));
}

int main(int argc, char **argv)
{
	char name[300];
	unsigned top = 0;

	if (argc == 2) {	/* print mode, for cross-checks from bats */
		printf("%08x\n", h(argv[1]));
		return 0;
	}
	CHECK_EQ(h("."), 0);
	CHECK_EQ(h(".."), 0);
	CHECK(h("...") != 0);
	/* value the reference mkfs stores for lost+found (tests/unit/hash.bats
	 * re-checks it against an image made by f2fs-tools) */
	CHECK_EQ(h("lost+found"), 0x2dbf9e80u);
	/* bit 31 is kept (the kernel compares all 32 bits), so about half
	 * the names have it; names differing in one byte differ */
	memset(name, 'a', sizeof(name));
	for (size_t len = 1; len < 256; len++) {
		uint32_t v = f2_dentry_hash((const uint8_t *)name, len);

		top += !!(v & 0x80000000u);
		name[len - 1] = 'b';
		CHECK(f2_dentry_hash((const uint8_t *)name, len) != v);
		name[len - 1] = 'a';
	}
	CHECK(top > 64 && top < 192);
	UNIT_DONE();
}
