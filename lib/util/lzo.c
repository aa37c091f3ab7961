// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lzo.c - a bounds-checked LZO1X decoder that also understands the
 * run-length extension of the kernel's "lzo-rle" streams (a leading
 * 17, version byte, and zero runs coded as 0x18..0x1f with a 0xfffc
 * marker).  liblzo2 decodes plain LZO1X but not the zero runs, so
 * lzo-rle clusters come here.  Written from the stream format.
 */
#include <stdint.h>
#include <string.h>
#include "f2/errors.h"

int f2_lzo1x_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		    size_t *out_used);

struct lz {
	const uint8_t *ip, *ie;
	uint8_t *op, *ob, *oe;
};

static int need_in(const struct lz *z, size_t n)
{
	return (size_t)(z->ie - z->ip) >= n;
}

/* Extended length: zero bytes count 255 each, then a final byte. */
static int ext_len(struct lz *z, size_t base, size_t *len)
{
	size_t zeros = 0;

	while (need_in(z, 1) && *z->ip == 0) {
		z->ip++;
		if (++zeros > (SIZE_MAX / 255) - 2)
			return F2_ECOMPRESS;
	}
	if (!need_in(z, 1))
		return F2_ECOMPRESS;
	*len = base + zeros * 255 + *z->ip++;
	return 0;
}

static int literals(struct lz *z, size_t n)
{
	if (!need_in(z, n) || (size_t)(z->oe - z->op) < n)
		return F2_ECOMPRESS;
	memcpy(z->op, z->ip, n);
	z->op += n;
	z->ip += n;
	return 0;
}

static int copy_match(struct lz *z, size_t dist, size_t len)
{
	if (dist == 0 || dist > (size_t)(z->op - z->ob) || (size_t)(z->oe - z->op) < len)
		return F2_ECOMPRESS;
	for (size_t i = 0; i < len; i++, z->op++)
		*z->op = *(z->op - dist);
	return 0;
}

int f2_lzo1x_decode(const uint8_t *in, size_t in_len, uint8_t *out, size_t out_len,
		    size_t *out_used)
{
	struct lz z = { in, in + in_len, out, out, out + out_len };
	unsigned state = 0, next, t;
	int rle = 0, err;

	if (in_len < 3)
		return F2_ECOMPRESS;
	if (in_len >= 5 && in[0] == 17) {
		rle = in[1] != 0;
		z.ip += 2;
	}
	if (*z.ip > 17) {
		t = *z.ip++ - 17u;
		if ((err = literals(&z, t)))
			return err;
		state = t < 4 ? t : 4;
	}
	for (;;) {
		size_t len, dist;
		uint16_t v;

		if (!need_in(&z, 1))
			return F2_ECOMPRESS;
		t = *z.ip++;
		if (t < 16) {
			if (state == 0) {
				len = t + 3;
				if (t == 0 && (err = ext_len(&z, 15 + 3, &len)))
					return err;
				if ((err = literals(&z, len)))
					return err;
				state = 4;
				continue;
			}
			if (!need_in(&z, 1))
				return F2_ECOMPRESS;
			next = t & 3;
			if (state < 4) {
				dist = 1 + (t >> 2) + ((size_t)*z.ip++ << 2);
				len = 2;
			} else {
				dist = 1 + 0x800 + (t >> 2) + ((size_t)*z.ip++ << 2);
				len = 3;
			}
		} else if (t >= 64) {
			if (!need_in(&z, 1))
				return F2_ECOMPRESS;
			next = t & 3;
			dist = 1 + ((t >> 2) & 7) + ((size_t)*z.ip++ << 3);
			len = (t >> 5) + 1;
		} else if (t >= 32) {
			len = (t & 31) + 2;
			if (len == 2 && (err = ext_len(&z, 31 + 2, &len)))
				return err;
			if (!need_in(&z, 2))
				return F2_ECOMPRESS;
			v = (uint16_t)(z.ip[0] | z.ip[1] << 8);
			z.ip += 2;
			dist = 1 + (v >> 2);
			next = v & 3;
		} else {
			if (!need_in(&z, 2))
				return F2_ECOMPRESS;
			v = (uint16_t)(z.ip[0] | z.ip[1] << 8);
			if (rle && (v & 0xfffc) == 0xfffc && (t & 0xf8) == 0x18) {
				if (!need_in(&z, 3))
					return F2_ECOMPRESS;
				len = ((t & 7) | (size_t)z.ip[2] << 3) + 4;
				if ((size_t)(z.oe - z.op) < len)
					return F2_ECOMPRESS;
				memset(z.op, 0, len);
				z.op += len;
				next = v & 3;
				z.ip += 3;
				if ((err = literals(&z, next)))
					return err;
				state = next;
				continue;
			}
			len = (t & 7) + 2;
			if (len == 2) {
				if ((err = ext_len(&z, 7 + 2, &len)))
					return err;
				if (!need_in(&z, 2))
					return F2_ECOMPRESS;
				v = (uint16_t)(z.ip[0] | z.ip[1] << 8);
			}
			z.ip += 2;
			dist = ((size_t)(t & 8) << 11) + (v >> 2);
			next = v & 3;
			if (dist == 0) {
				/* end of stream: the marker has length 3 and
				 * must be the last input */
				if (len != 3 || z.ip != z.ie)
					return F2_ECOMPRESS;
				*out_used = (size_t)(z.op - z.ob);
				return 0;
			}
			dist += 0x4000;
		}
		if ((err = copy_match(&z, dist, len)))
			return err;
		if ((err = literals(&z, next)))
			return err;
		state = next;
	}
}
