/* SPDX-License-Identifier: GPL-2.0-or-later */
/* f2/hash.h - the directory-entry name hash (TEA, as fs/f2fs/hash.c). */
#ifndef F2_HASH_H
#define F2_HASH_H
#include <stddef.h>
#include <stdint.h>

/* Hash of a name as stored in f2_dir_entry.hash_code (host order);
 * "." and ".." hash to 0.  Casefolded names must be folded first. */
uint32_t f2_dentry_hash(const uint8_t *name, size_t len);
/* The hash as Linux 6.1 and f2fs-tools 1.15 store and compare it: their
 * F2FS_HASH_COL_BIT is bit 63, so masking a 32-bit hash with it keeps
 * bit 31.  Writers must store this value (the kernel's lookup compares
 * hash_code for equality); bucket placement is the same either way. */
uint32_t f2_dentry_hash_full(const uint8_t *name, size_t len);
#endif
