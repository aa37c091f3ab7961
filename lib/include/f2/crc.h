/* SPDX-License-Identifier: GPL-2.0-or-later */
/* f2/crc.h - the checksums F2FS stores on disk. */
#ifndef F2_CRC_H
#define F2_CRC_H
#include <stddef.h>
#include <stdint.h>

/* CRC-32 (reflected polynomial 0xEDB88320) without pre/post inversion,
 * the variant f2fs uses everywhere; chain calls by passing the result. */
uint32_t f2_crc32(uint32_t seed, const void *buf, size_t len);

/* Checksum of a 4096-byte inode block as the kernel computes it with
 * the inode_checksum feature; seed is f2_crc32(~0u, sb uuid, 16). */
uint32_t f2_inode_csum(uint32_t seed, const void *node_block);

/* Store/verify the crc of a checkpoint block whose crc sits at csum_off. */
void f2_cp_set_crc(void *cp_block, uint32_t csum_off);
int f2_cp_crc_ok(const void *cp_block, uint32_t csum_off);
#endif
