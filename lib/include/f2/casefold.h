/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/casefold.h - names in casefolded directories (inode flag
 * F2_CASEFOLD_FL, superblock feature casefold): the fold of encoding 1,
 * "utf8-12.1", the hash the kernel stores for a name and when two names
 * are the same name.
 *
 * What the kernel does (read in Linux 6.1.192 and 6.12.118: fs/unicode/,
 * fs/f2fs/dir.c, hash.c, namei.c, fs/libfs.c):
 *  - The fold is utf8_casefold() with the "nfdicf" table: canonical
 *    decomposition, full case folding (CaseFolding.txt status C and F, so
 *    U+0130 becomes "i" U+0307 and U+0131 stays), Hangul syllables
 *    decomposed, Default_Ignorable_Code_Point removed, combining marks put
 *    in canonical order between code points of class 0 (a removed code
 *    point counts as one), on Unicode 12.1 data.  Both kernels ship the
 *    same table (utf8data.c_shipped differs only by a MODULE_DESCRIPTION
 *    line; mkutf8data.c and utf8-norm.c are the same).
 *  - A code point unassigned in 12.1 (so anything assigned later) is NOT
 *    an error: the tables give it a leaf of age 0, so it passes through
 *    unchanged with class 0 (U+A7C7, new in 13.0, does not fold to U+A7C8).
 *  - Errors: a byte that does not start a valid shortest-form sequence of
 *    a scalar value (overlong forms, surrogates, > U+10FFFF, truncated
 *    sequences, 0xC0, 0xC1, 0xF5..0xFF) and a name that starts with a
 *    continuation byte.  A continuation byte after a complete character is
 *    accepted and copied (the fold of "a\x80" is "a\x80"); inside a run of
 *    combining marks the kernel copies it once per ordering pass, and so
 *    does f2_utf8_casefold().  A NUL byte ends the name.
 *  - f2fs folds into a 255-byte buffer (F2FS_NAME_LEN) and needs room for
 *    a terminating NUL: a fold of 255 bytes or more fails, as does an
 *    empty fold (a name of ignorable code points only, cf_name.len <= 0).
 *  - Hash: "." and ".." hash to 0; a name that folds hashes its fold with
 *    TEA (no dot special case: ".\u200b" hashes "."); one that does not
 *    fold is refused (EINVAL) when s_encoding_flags has the strict bit,
 *    else hashed as its raw bytes.  A name that folds is never stored
 *    with its raw hash.
 *  - Lookup (f2fs_match_name, generic_ci_match in 6.12): a lookup name
 *    that folds matches an entry whose fold is the same bytes (6.12 first
 *    accepts equal bytes, which gives the same answer); one that does not
 *    fold matches equal bytes only when not strict, nothing when strict.
 *  - Both kernels, when the hash lookup finds nothing in a casefolded
 *    directory, scan every entry without the hash (dir.c, use_hash =
 *    false): 6.1.192 has it too (a stable backport), so an entry with a
 *    wrong hash or in the wrong bucket is still found by both.
 *  - An unknown s_encoding makes the mount fail ("Encoding requested by
 *    superblock is unknown").
 */
#ifndef F2_CASEFOLD_H
#define F2_CASEFOLD_H
#include <stddef.h>
#include <stdint.h>

/* The buffer f2fs folds into: a fold must be shorter, to leave a NUL. */
#define F2_CASEFOLD_BUF		255

/* "utf8-12.1" for encoding 1, NULL for an encoding this library does not know. */
const char *f2_encoding_name(uint16_t encoding);

/*
 * Fold name[0..len) into out[0..outsz) as the kernel's utf8_casefold()
 * does: the length of the fold (out[len] is then 0), 0 for an empty
 * fold, -EILSEQ when the name is not valid UTF-8 as the kernel reads it,
 * -ENAMETOOLONG when the fold and its NUL do not fit in outsz (pass
 * F2_CASEFOLD_BUF for the kernel's limit).
 */
int f2_utf8_casefold(const uint8_t *name, size_t len, uint8_t *out, size_t outsz);

/* How f2_dentry_hash_casefold() hashed a name. */
enum { F2_CF_FOLDED = 0, F2_CF_RAW = 1 };
/*
 * The hash the kernel stores for name in a casefolded directory
 * (strict: s_encoding_flags has F2_ENC_STRICT_MODE_FL) in *hash:
 * F2_CF_FOLDED when the fold was hashed, F2_CF_RAW for "." and ".." (0)
 * and for a name that does not fold when not strict (its raw bytes),
 * -EINVAL for one the kernel refuses (strict; *hash is not set).
 */
int f2_dentry_hash_casefold(const uint8_t *name, size_t len, int strict, uint32_t *hash);

/*
 * Does a lookup of name a in a casefolded directory find the entry named
 * b?  1 or 0, as the kernel's f2fs_match_name: "." and ".." compare as
 * bytes; a name that folds matches an entry with the same fold (or the
 * same bytes); one that does not matches the same bytes when not strict
 * and nothing when strict (the kernel refuses the lookup).
 */
int f2_casefold_name_eq(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
			int strict);
#endif
