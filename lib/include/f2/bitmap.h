/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/bitmap.h - the two bit orders of the format.
 * SIT valid maps and the checkpoint version bitmaps number bits from the
 * most significant bit of each byte ("msb"); dentry bitmaps and NAT bits
 * from the least significant ("lsb").
 */
#ifndef F2_BITMAP_H
#define F2_BITMAP_H
#include <stdint.h>

static inline void f2_set_bit_msb(uint8_t *map, uint32_t nr)
{
	map[nr >> 3] |= (uint8_t)(0x80 >> (nr & 7));
}
static inline int f2_test_bit_msb(const uint8_t *map, uint32_t nr)
{
	return !!(map[nr >> 3] & (0x80 >> (nr & 7)));
}
static inline void f2_clear_bit_msb(uint8_t *map, uint32_t nr)
{
	map[nr >> 3] &= (uint8_t)~(0x80 >> (nr & 7));
}
static inline void f2_set_bit_lsb(uint8_t *map, uint32_t nr)
{
	map[nr >> 3] |= (uint8_t)(1u << (nr & 7));
}
static inline int f2_test_bit_lsb(const uint8_t *map, uint32_t nr)
{
	return !!(map[nr >> 3] & (1u << (nr & 7)));
}
static inline void f2_clear_bit_lsb(uint8_t *map, uint32_t nr)
{
	map[nr >> 3] &= (uint8_t)~(1u << (nr & 7));
}
#endif
