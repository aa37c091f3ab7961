// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_casefold.c - the utf8-12.1 fold, hash and name comparison of
 * f2/casefold.h: scripts, ordering, ignorables, what is invalid, the
 * 255-byte limit, the vectors of the kernel's fs/unicode/utf8-selftest.c,
 * and the kernel's quirks (stray continuation bytes, NUL, dot names).
 *
 *   test_casefold                 run the checks
 *   test_casefold fold HEX        print the fold of the name given in hex
 *   test_casefold hash [-s] NAME  print the hash a casefolded directory
 *                                 stores for NAME (-s: strict), or "refused"
 */
#include <errno.h>
#include "f2/casefold.h"
#include "f2/hash.h"
#include "unit.h"

struct vec {
	const char *in;		/* NUL-terminated unless len is set */
	const char *out;	/* NULL: -EILSEQ */
	size_t len;		/* bytes of in when it holds a NUL */
};

static const struct vec vecs[] = {
	/* ASCII */
	{ "HeLLo.TXT", "hello.txt", 0 },
	{ "lost+found", "lost+found", 0 },
	{ "0123456789 -_~!@#$%^&()", "0123456789 -_~!@#$%^&()", 0 },
	/* Latin: precomposed and combining sequences fold alike */
	{ "\xc3\xa9", "e\xcc\x81", 0 },			/* é */
	{ "\xc3\x89", "e\xcc\x81", 0 },			/* É */
	{ "E\xcc\x81", "e\xcc\x81", 0 },		/* E + U+0301 */
	{ "\xe1\xb9\xa9", "s\xcc\xa3\xcc\x87", 0 },	/* U+1E69 */
	{ "s\xcc\x87\xcc\xa3", "s\xcc\xa3\xcc\x87", 0 },	/* ordered by class */
	{ "a\xcc\x81\xcc\x96", "a\xcc\x96\xcc\x81", 0 },	/* 230 after 220 */
	{ "\xc3\x85", "a\xcc\x8a", 0 },			/* Å */
	{ "\xe2\x84\xab", "a\xcc\x8a", 0 },		/* ANGSTROM SIGN */
	{ "\xe2\x84\xaa", "k", 0 },			/* KELVIN SIGN */
	{ "\xc7\x89", "\xc7\x89", 0 },			/* lj: no compatibility forms */
	{ "\xe2\x91\xa0", "\xe2\x91\xa0", 0 },		/* ①: compatibility, kept */
	{ "\xef\xac\x81", "fi", 0 },			/* ﬁ: full folding (status F) */
	/* German sharp s */
	{ "\xc3\x9f", "ss", 0 },
	{ "STRA\xc3\x9f" "E", "strasse", 0 },
	{ "\xe1\xba\x9e", "ss", 0 },			/* U+1E9E capital sharp s */
	/* Greek: sigma and final sigma, iota subscript, dialytika tonos */
	{ "\xce\xa3", "\xcf\x83", 0 },
	{ "\xcf\x82", "\xcf\x83", 0 },
	{ "\xce\xa3\xce\x91\xce\xa3", "\xcf\x83\xce\xb1\xcf\x83", 0 },
	{ "\xcd\x85", "\xce\xb9", 0 },			/* U+0345 */
	{ "\xe1\xbe\xb3", "\xce\xb1\xce\xb9", 0 },	/* U+1FB3 */
	{ "\xce\x90", "\xce\xb9\xcc\x88\xcc\x81", 0 },	/* U+0390 */
	{ "\xe1\xbe\x82", "\xce\xb1\xcc\x93\xcc\x80\xce\xb9", 0 },	/* U+1F82 */
	/* Turkish i: C+F folding, no T mappings */
	{ "\xc4\xb0", "i\xcc\x87", 0 },			/* İ U+0130 */
	{ "\xc4\xb1", "\xc4\xb1", 0 },			/* ı U+0131 unchanged */
	{ "I", "i", 0 },
	/* Cyrillic */
	{ "\xd0\x9f\xd0\xa0\xd0\x98\xd0\x92\xd0\x95\xd0\xa2",
	  "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82", 0 },	/* ПРИВЕТ */
	{ "\xd0\x81", "\xd0\xb5\xcc\x88", 0 },		/* Ё */
	{ "\xd0\x99", "\xd0\xb8\xcc\x86", 0 },		/* Й */
	/* CJK and Hangul */
	{ "\xe4\xb8\xad\xe6\x96\x87", "\xe4\xb8\xad\xe6\x96\x87", 0 },	/* 中文 */
	{ "\xef\xa4\x80", "\xe8\xb1\x88", 0 },		/* U+F900 compatibility ideograph */
	{ "\xed\x95\x9c", "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab", 0 },	/* 한 */
	{ "\xea\xb0\x80", "\xe1\x84\x80\xe1\x85\xa1", 0 },	/* 가: no final */
	/* emoji, and code points assigned after 12.1: kept as they are */
	{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", 0 },	/* U+1F600 */
	{ "\xf0\x9f\xa5\xb2", "\xf0\x9f\xa5\xb2", 0 },	/* U+1F972 (13.0) */
	{ "\xea\x9f\x87", "\xea\x9f\x87", 0 },		/* U+A7C7 (13.0): no fold to U+A7C8 */
	{ "\xea\x9f\x80", "\xea\x9f\x80", 0 },		/* U+A7C0 (14.0) */
	{ "\xcd\xb8", "\xcd\xb8", 0 },			/* U+0378 unassigned */
	{ "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf", 0 },	/* U+10FFFF */
	{ "\xe1\xa0\x8f", "\xe1\xa0\x8f", 0 },		/* U+180F (14.0): not ignorable in 12.1 */
	/* Adlam, Osage, Deseret: outside the BMP */
	{ "\xf0\x9e\xa4\x80", "\xf0\x9e\xa4\xa2", 0 },	/* U+1E900 */
	{ "\xf0\x90\x90\x80", "\xf0\x90\x90\xa8", 0 },	/* U+10400 */
	/* Default_Ignorable_Code_Point: removed */
	{ "a\xe2\x80\x8b" "b", "ab", 0 },		/* U+200B */
	{ "a\xc2\xad" "b", "ab", 0 },			/* U+00AD */
	{ "A\xef\xb8\x8f", "a", 0 },			/* U+FE0F */
	{ "a\xf3\xa0\x80\x81", "a", 0 },		/* U+E0001 */
	{ "a\xf3\xa0\x80\x80", "a", 0 },		/* U+E0000, reserved */
	{ "\xe2\x80\x8b", "", 0 },			/* nothing left */
	/* a removed code point stops the ordering of marks */
	{ "a\xcc\x81\xe2\x80\x8b\xcc\x96", "a\xcc\x81\xcc\x96", 0 },
	/* invalid UTF-8 */
	{ "\xff", NULL, 0 },
	{ "a\xc3", NULL, 0 },				/* truncated */
	{ "\xe4\xb8", NULL, 0 },
	{ "\xc0\xaf", NULL, 0 },			/* overlong "/" */
	{ "\xc1\x81", NULL, 0 },
	{ "\xe0\x80\xaf", NULL, 0 },			/* overlong, 3 bytes */
	{ "\xf0\x80\x80\xaf", NULL, 0 },		/* overlong, 4 bytes */
	{ "\xed\xa0\x80", NULL, 0 },			/* surrogate U+D800 */
	{ "\xed\xbf\xbf", NULL, 0 },			/* surrogate U+DFFF */
	{ "\xf4\x90\x80\x80", NULL, 0 },		/* U+110000 */
	{ "\xf8\x88\x80\x80\x80", NULL, 0 },		/* 5-byte form */
	{ "\x80" "a", NULL, 0 },			/* starts with a continuation */
	{ "a\xe2\x28\xa1", NULL, 0 },
	/* the kernel's reading: stray continuation bytes after a character
	 * are copied, once per ordering pass inside a run of marks */
	{ "a\x80", "a\x80", 0 },
	{ "A\x80\xbf" "B", "a\x80\xbf" "b", 0 },
	{ "a\xcc\x81\x80\xcc\x80", "a\x80\xcc\x81\x80\xcc\x80", 0 },
	{ "\xe2\x80\x8b\x80", "\x80", 0 },
	/* a NUL ends the name */
	{ "A\0B", "a", 3 },
	{ "\0A", "", 2 },
	/* fs/unicode/utf8-selftest.c, nfdi_test_data (folded here) */
	{ "aBba", "abba", 0 },
	{ "\xc2\xbc", "\xc2\xbc", 0 },
	{ "\xc3\xa4", "\x61\xcc\x88", 0 },
	{ "\xce\x87", "\xc2\xb7", 0 },
	{ "\x41\xcc\x81\xcc\xa8", "\x61\xcc\xa8\xcc\x81", 0 },
	{ "\xc3\xa4\xcc\xa8", "\x61\xcc\xa8\xcc\x88", 0 },
	/* fs/unicode/utf8-selftest.c, nfdicf_test_data */
	{ "\x41\x42\x62\x61", "\x61\x62\x62\x61", 0 },
	{ "ABCDEFGHIJKLMNOPQRSTUVWXYZ0.1", "abcdefghijklmnopqrstuvwxyz0.1", 0 },
	{ "\xc3\x9f", "\x73\x73", 0 },
	{ "\xc3\x85", "\x61\xcc\x8a", 0 },
	{ "\xea\xad\xb0", "\xe1\x8e\xa0", 0 },		/* Cherokee folds to upper */
	{ "\xe1\x8f\xb8", "\xe1\x8f\xb0", 0 },
	{ "\xf0\x90\xb2\x83", "\xf0\x90\xb3\x83", 0 },
	{ "\xf0\x90\x92\xb5", "\xf0\x90\x93\x9d", 0 },
	{ "\xea\x9e\xae", "\xc9\xaa", 0 },
	{ "\xe1\xb2\x90", "\xe1\x83\x90", 0 },
};

/* the selftest's comparisons: names padded with NULs to their arrays */
struct pad {
	unsigned char a[30], b[30];
};
static const struct pad pads[] = {
	{ "aBba", "aBba" },
	{ { 0xc3, 0xa4 }, { 0x61, 0xcc, 0x88 } },
	{ { 0xCE, 0x87 }, { 0xC2, 0xB7 } },
	{ { 0x41, 0xcc, 0x81, 0xcc, 0xa8 }, { 0x41, 0xcc, 0xa8, 0xcc, 0x81 } },
	{ "ABCDEFGHIJKLMNOPQRSTUVWXYZ0.1", "abcdefghijklmnopqrstuvwxyz0.1" },
	{ { 0xc3, 0x9f }, { 0x73, 0x73 } },
	{ { 0xe1, 0xb2, 0x90 }, { 0xe1, 0x83, 0x90 } },
};

static int fold(const char *s, size_t len, uint8_t *out, size_t outsz)
{
	return f2_utf8_casefold((const uint8_t *)s, len, out, outsz);
}

static void check_vectors(void)
{
	for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		const struct vec *v = &vecs[i];
		size_t len = v->len ? v->len : strlen(v->in);
		uint8_t out[F2_CASEFOLD_BUF];
		int n = fold(v->in, len, out, sizeof(out));

		if (!v->out) {
			if (n != -EILSEQ)
				fprintf(stderr, "vector %zu: expected -EILSEQ\n", i);
			CHECK_EQ(n, -EILSEQ);
			continue;
		}
		if (n != (int)strlen(v->out) || memcmp(out, v->out, strlen(v->out))) {
			fprintf(stderr, "vector %zu: fold %d bytes:", i, n);
			for (int k = 0; k < n; k++)
				fprintf(stderr, " %02x", out[k]);
			fputc('\n', stderr);
			unit_failures++;
		} else {
			CHECK_EQ(out[n], 0);
		}
	}
}

/* The fold must leave room for a NUL in the kernel's 255 bytes. */
static void check_limits(void)
{
	char name[256];
	uint8_t out[F2_CASEFOLD_BUF];
	uint32_t h;

	/* 127 x "ß" folds to 254 "s": fits */
	for (int i = 0; i < 127; i++)
		memcpy(name + 2 * i, "\xc3\x9f", 2);
	CHECK_EQ(fold(name, 254, out, sizeof(out)), 254);
	CHECK_EQ(out[253], 's');
	/* and with one "A" more, 255 bytes: no room for the NUL */
	name[254] = 'A';
	CHECK_EQ(fold(name, 255, out, sizeof(out)), -ENAMETOOLONG);
	CHECK_EQ(fold(name, 255, NULL, 0), -ENAMETOOLONG);
	/* the same name is refused when strict, hashed raw when not */
	CHECK_EQ(f2_dentry_hash_casefold((uint8_t *)name, 255, 1, &h), -EINVAL);
	CHECK_EQ(f2_dentry_hash_casefold((uint8_t *)name, 255, 0, &h), F2_CF_RAW);
	CHECK_EQ(h, f2_dentry_hash((uint8_t *)name, 255));
	/* 85 x U+0390 (170 bytes) fold to 510 */
	for (int i = 0; i < 85; i++)
		memcpy(name + 2 * i, "\xce\x90", 2);
	CHECK_EQ(fold(name, 170, out, sizeof(out)), -ENAMETOOLONG);
	/* a small buffer */
	CHECK_EQ(fold("ABC", 3, out, 4), 3);
	CHECK_EQ(fold("ABC", 3, out, 3), -ENAMETOOLONG);
	CHECK_EQ(fold("", 0, out, 1), 0);
	/* an invalid name is -EILSEQ whatever its length */
	CHECK_EQ(fold("\xce\x90\xce\x90\xff", 5, out, 2), -EILSEQ);
}

static void check_hash(void)
{
	uint32_t h = 1;

#define HCF(s, strict) f2_dentry_hash_casefold((const uint8_t *)(s), strlen(s), strict, &h)
	CHECK_EQ(HCF("Hello", 1), F2_CF_FOLDED);
	CHECK_EQ(h, f2_dentry_hash((const uint8_t *)"hello", 5));
	CHECK_EQ(HCF("\xc3\x89t\xc3\xa9", 0), F2_CF_FOLDED);	/* Été */
	CHECK_EQ(h, f2_tea_hash((const uint8_t *)"e\xcc\x81te\xcc\x81", 7));
	CHECK_EQ(HCF(".", 1), F2_CF_RAW);
	CHECK_EQ(h, 0);
	h = 1;
	CHECK_EQ(HCF("..", 0), F2_CF_RAW);
	CHECK_EQ(h, 0);
	/* a name folding to "." hashes "." with TEA: not 0 */
	CHECK_EQ(HCF(".\xe2\x80\x8b", 1), F2_CF_FOLDED);
	CHECK_EQ(h, f2_tea_hash((const uint8_t *)".", 1));
	CHECK(h != 0);
	/* invalid: refused when strict, raw bytes when not */
	CHECK_EQ(HCF("caf\xe9", 1), -EINVAL);
	CHECK_EQ(HCF("caf\xe9", 0), F2_CF_RAW);
	CHECK_EQ(h, f2_dentry_hash((const uint8_t *)"caf\xe9", 4));
	/* an empty fold is a failed one */
	CHECK_EQ(HCF("\xe2\x80\x8b", 1), -EINVAL);
	CHECK_EQ(HCF("\xe2\x80\x8b", 0), F2_CF_RAW);
	CHECK_EQ(h, f2_dentry_hash((const uint8_t *)"\xe2\x80\x8b", 3));
	/* names that fold alike hash alike */
	CHECK_EQ(HCF("STRASSE", 0), F2_CF_FOLDED);
	{
		uint32_t h2 = h;

		CHECK_EQ(HCF("stra\xc3\x9f" "e", 0), F2_CF_FOLDED);
		CHECK_EQ(h, h2);
	}
#undef HCF
	CHECK_EQ(f2_tea_hash((const uint8_t *)"lost+found", 10), 0x2dbf9e80u);
	CHECK(f2_encoding_name(1) && !strcmp(f2_encoding_name(1), "utf8-12.1"));
	CHECK(f2_encoding_name(0) == NULL);
	CHECK(f2_encoding_name(2) == NULL);
}

static int eq(const char *a, const char *b, int strict)
{
	return f2_casefold_name_eq((const uint8_t *)a, strlen(a), (const uint8_t *)b, strlen(b),
				   strict);
}

static void check_eq(void)
{
	CHECK_EQ(eq("README", "readme", 1), 1);
	CHECK_EQ(eq("readme", "README", 0), 1);
	CHECK_EQ(eq("readme", "readme2", 0), 0);
	CHECK_EQ(eq("\xc3\xa9", "e\xcc\x81", 1), 1);
	CHECK_EQ(eq("\xc3\x89", "\xc3\xa9", 1), 1);
	CHECK_EQ(eq("STRASSE", "stra\xc3\x9f" "e", 1), 1);
	CHECK_EQ(eq("\xc4\xb0", "i", 1), 0);		/* İ is i + U+0307 */
	CHECK_EQ(eq("\xc4\xb1", "i", 1), 0);		/* ı is not i */
	CHECK_EQ(eq("a\xe2\x80\x8b" "b", "AB", 1), 1);
	/* invalid names: the same bytes when not strict, nothing when strict */
	CHECK_EQ(eq("caf\xe9", "caf\xe9", 0), 1);
	CHECK_EQ(eq("caf\xe9", "caf\xe9", 1), 0);
	CHECK_EQ(eq("CAF\xe9", "caf\xe9", 0), 0);
	CHECK_EQ(eq("caf\xc3\xa9", "caf\xe9", 0), 0);
	/* an entry whose fold is longer than the lookup's */
	CHECK_EQ(eq("ss", "\xc3\x9f\xc3\x9f", 0), 0);
	CHECK_EQ(eq("ssss", "\xc3\x9f\xc3\x9f", 0), 1);
	/* dot names compare as bytes; a name folding to "." finds "." */
	CHECK_EQ(eq(".", ".", 1), 1);
	CHECK_EQ(eq(".", ".\xe2\x80\x8b", 1), 0);
	CHECK_EQ(eq(".\xe2\x80\x8b", ".", 1), 1);
	/* the selftest's comparisons, with the NUL padding of their arrays */
	for (size_t i = 0; i < sizeof(pads) / sizeof(pads[0]); i++)
		CHECK_EQ(f2_casefold_name_eq(pads[i].a, sizeof(pads[i].a), pads[i].b,
					     sizeof(pads[i].b), 1), 1);
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static int print_mode(int argc, char **argv)
{
	uint8_t in[1024], out[F2_CASEFOLD_BUF];
	size_t n = 0;
	uint32_t h;
	int r;

	if (argc == 3 && !strcmp(argv[1], "fold")) {
		for (const char *p = argv[2]; p[0] && p[1] && n < sizeof(in); p += 2)
			in[n++] = (uint8_t)(hexval(p[0]) << 4 | hexval(p[1]));
		r = f2_utf8_casefold(in, n, out, sizeof(out));
		if (r < 0) {
			printf("error %d\n", r);
			return 1;
		}
		for (int i = 0; i < r; i++)
			printf("%02x", out[i]);
		printf("\n");
		return 0;
	}
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "hash")) {
		int strict = argc == 4 && !strcmp(argv[2], "-s");
		const char *name = argv[argc - 1];

		r = f2_dentry_hash_casefold((const uint8_t *)name, strlen(name), strict, &h);
		if (r < 0)
			printf("refused\n");
		else
			printf("%08x\n", h);
		return 0;
	}
	fprintf(stderr, "usage: test_casefold [fold HEX | hash [-s] NAME]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return print_mode(argc, argv);
	check_vectors();
	check_limits();
	check_hash();
	check_eq();
	UNIT_DONE();
}
