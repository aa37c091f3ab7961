/* SPDX-License-Identifier: GPL-2.0-or-later */
/* f2/hash.h - the directory-entry name hash (TEA, as fs/f2fs/hash.c). */
#ifndef F2_HASH_H
#define F2_HASH_H
#include <stddef.h>
#include <stdint.h>

/*
 * Hash of a name as stored in f2_dir_entry.hash_code (host order) and
 * compared for equality by the kernel's lookup; "." and ".." hash to 0.
 * All 32 bits are kept: Linux 6.1 and f2fs-tools 1.15 mask the hash with
 * their collision bit, which is bit 63 and so clears nothing.  Names in
 * casefolded directories hash otherwise: f2_dentry_hash_casefold()
 * (f2/casefold.h).
 */
uint32_t f2_dentry_hash(const uint8_t *name, size_t len);
/* The TEA hash of any bytes, with no special case for "." and "..": what
 * the kernel applies to a casefolded name, whatever it folded to. */
uint32_t f2_tea_hash(const uint8_t *name, size_t len);
#endif
