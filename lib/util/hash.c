// SPDX-License-Identifier: GPL-2.0-or-later
/* hash.c - dentry name hash: TEA rounds over the name in 16-byte chunks. */
#include "f2/hash.h"
#include "f2/format.h"

#define TEA_DELTA 0x9E3779B9u

static void tea_rounds(uint32_t h[4], const uint32_t in[4])
{
	uint32_t sum = 0, b0 = h[0], b1 = h[1];

	for (int n = 0; n < 16; n++) {
		sum += TEA_DELTA;
		b0 += ((b1 << 4) + in[0]) ^ (b1 + sum) ^ ((b1 >> 5) + in[1]);
		b1 += ((b0 << 4) + in[2]) ^ (b0 + sum) ^ ((b0 >> 5) + in[3]);
	}
	h[0] += b0;
	h[1] += b1;
}

/* Pack up to 16 name bytes big-endian-ish into 4 words, padding with a
 * pattern made from the remaining length (the kernel's str2hashbuf). */
static void pack_chunk(const uint8_t *p, size_t len, uint32_t out[4])
{
	uint32_t pad = (uint32_t)len | (uint32_t)len << 8;
	uint32_t val;
	int words = 4;

	pad |= pad << 16;
	val = pad;
	if (len > 16)
		len = 16;
	for (size_t i = 0; i < len; i++) {
		val = p[i] + (val << 8);
		if (i % 4 == 3) {
			*out++ = val;
			val = pad;
			words--;
		}
	}
	if (--words >= 0)
		*out++ = val;
	while (--words >= 0)
		*out++ = pad;
}

uint32_t f2_tea_hash(const uint8_t *name, size_t len)
{
	uint32_t h[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	uint32_t in[4];

	for (;;) {
		pack_chunk(name, len, in);
		tea_rounds(h, in);
		if (len <= 16)
			break;
		name += 16;
		len -= 16;
	}
	return h[0];
}

uint32_t f2_dentry_hash(const uint8_t *name, size_t len)
{
	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	return f2_tea_hash(name, len);
}
