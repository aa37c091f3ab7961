/* SPDX-License-Identifier: GPL-2.0-or-later */
/* f2/sb.h - building, verifying, reading and writing the superblock. */
#ifndef F2_SB_H
#define F2_SB_H
#include <stddef.h>
#include <stdint.h>
#include "f2/format.h"
#include "f2/geometry.h"

struct f2_io;

/* What a new superblock needs beyond the geometry. */
struct f2_sb_opts {
	uint8_t uuid[16];
	const char *label;		/* UTF-8, may be NULL */
	const char *cold_ext;		/* extra cold extensions "a,b", may be NULL */
	const char *hot_ext;		/* extra hot extensions, may be NULL */
	const char *version;		/* kernel version text, may be NULL */
	uint16_t encoding, encoding_flags;	/* casefold */
	uint32_t features;
	const char *dev_paths[F2_MAX_DEVICES];	/* recorded when ndevs > 1 */
	uint32_t ndevs;
};

/* Extensions that could not be added (too long, table full) are reported
 * through warn(ctx, ext) when warn is not NULL. */
typedef void (*f2_warn_fn)(void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void f2_sb_build(const struct f2_geom *g, const struct f2_sb_opts *o,
		 struct f2_super *sb, f2_warn_fn warn, void *ctx);
/* Next free nid after the reserved, quota and lost+found inodes; fills
 * sb->qf_ino[] and *lpf_ino (0 when the feature is off). */
uint32_t f2_sb_assign_inos(struct f2_super *sb, uint32_t *lpf_ino);
void f2_sb_set_crc(struct f2_super *sb);
/* Neither copy a nor b verifies: one superblock out of the two (the bytes
 * where they differ taken from either, in every combination, crc redone)
 * when exactly one such superblock verifies.  sb_merge.c */
int f2_sb_merge(const struct f2_super *a, const struct f2_super *b, uint64_t dev_blocks,
		struct f2_super *out);

/*
 * Check a superblock read from a device of dev_blocks 4 KiB blocks:
 * magic, sizes, area order and bounds, crc when sb_checksum is set.
 * Returns 0 or a negative code with a reason in why[].
 */
int f2_sb_verify(const struct f2_super *sb, uint64_t dev_blocks,
		 char *why, size_t why_len);

/* The superblock copies: block 0 (primary) and block 1 (backup). */
#define F2_SB_PRIMARY	1u
#define F2_SB_BACKUP	2u
#define F2_SB_BOTH	(F2_SB_PRIMARY | F2_SB_BACKUP)
/* Write sb, its crc set first when sb_checksum is on (f2_sb_set_crc),
 * into the copies in which (at byte 1024 of each block; the bytes before
 * it are kept), one after the other, each flushed; a copy without a good
 * magic gets one only once the rest of it is down.  The one superblock
 * writer: mkfs and fsck.f2fs's repairs use it. */
int f2_sb_write_copies(struct f2_io *io, struct f2_super *sb, unsigned which);
/* Read the first valid of the two copies; which = 0 or 1. */
int f2_sb_read(struct f2_io *io, struct f2_super *sb, int *which,
	       char *why, size_t why_len);

/*
 * The kernel's records of trouble (lib/fs/sb_records.c): s_stop_reason[i]
 * counts the times it stopped checkpoints for reason i; bit b of s_errors
 * says it met corruption of kind b.  Names are NULL past the known ones.
 */
const char *f2_stop_reason_name(unsigned i);
/* What else an older kernel meant by reason i, or NULL. */
const char *f2_stop_reason_note(unsigned i);
const char *f2_error_name(unsigned bit);
int f2_sb_error_set(const struct f2_super *sb, unsigned bit);
/* Any reason counted or error bit set. */
int f2_sb_has_records(const struct f2_super *sb);
void f2_sb_clear_records(struct f2_super *sb);
/* The set ones, space separated: "shutdown(1) write_fail(3)" (unnamed:
 * "reason_20(2)"), "corrupted_inode inconsistent_nat" (unnamed:
 * "error_100"); "" when none.  Return the length snprintf would. */
size_t f2_sb_stop_reasons_format(const struct f2_super *sb, char *buf, size_t size);
size_t f2_sb_errors_format(const struct f2_super *sb, char *buf, size_t size);

/* Encode UTF-8 text as UTF-16LE into out (n units); returns 0 or F2_ERANGE. */
int f2_utf8_to_utf16le(const char *in, le16 *out, size_t n);
/* Decode the volume name into UTF-8. */
void f2_utf16le_to_utf8(const le16 *in, size_t n, char *out, size_t out_len);
#endif
