// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sb_records.c - what the kernel records in the superblock when it meets
 * trouble (Linux 6.1 and later): s_stop_reason[], one 8-bit count per
 * reason it stopped writing checkpoints (it sets CP_ERROR in the
 * checkpoint too), saturating at 255; s_errors[], a bitmap of the kinds
 * of corruption it found, bit n in byte n / 8.  The names are this
 * project's, after the kernel's enum stop_cp_reason and enum f2fs_error
 * (Linux 6.12, and the reasons 10..12 later kernels added).
 */
#include <stdio.h>
#include <string.h>
#include "f2/sb.h"

static const char *const stop_names[] = {
	"shutdown", "fault_inject", "meta_page", "write_fail", "corrupted_summary",
	"update_inode", "flush_fail", "no_segment", "corrupted_free_bitmap",
	"corrupted_nid", "read_meta", "read_node", "read_data",
};

static const char *const error_names[] = {
	"corrupted_cluster", "fail_decompression", "invalid_blkaddr", "corrupted_dirent",
	"corrupted_inode", "inconsistent_summary", "inconsistent_footer",
	"inconsistent_sum_type", "corrupted_journal", "inconsistent_node_count",
	"inconsistent_block_count", "invalid_curseg", "inconsistent_sit",
	"corrupted_verity_xattr", "corrupted_xattr", "invalid_node_reference",
	"inconsistent_nat", "inconsistent_orphan",
};

_Static_assert(sizeof(stop_names) / sizeof(stop_names[0]) <= F2_MAX_STOP_REASON,
	       "stop reasons fit s_stop_reason");
_Static_assert(sizeof(error_names) / sizeof(error_names[0]) <= F2_MAX_ERRORS * 8,
	       "errors fit s_errors");

const char *f2_stop_reason_name(unsigned i)
{
	return i < sizeof(stop_names) / sizeof(stop_names[0]) ? stop_names[i] : NULL;
}

const char *f2_stop_reason_note(unsigned i)
{
	/* 6.1 stable has CORRUPTED_NID right after FLUSH_FAIL; mainline
	 * inserted NO_SEGMENT and CORRUPTED_FREE_BITMAP before it */
	return i == 7 ? "corrupted_nid on Linux 6.1" : NULL;
}

const char *f2_error_name(unsigned bit)
{
	return bit < sizeof(error_names) / sizeof(error_names[0]) ? error_names[bit] : NULL;
}

int f2_sb_error_set(const struct f2_super *sb, unsigned bit)
{
	return bit < F2_MAX_ERRORS * 8 && (sb->s_errors[bit / 8] >> (bit % 8) & 1);
}

int f2_sb_has_records(const struct f2_super *sb)
{
	for (unsigned i = 0; i < F2_MAX_STOP_REASON; i++)
		if (sb->s_stop_reason[i])
			return 1;
	for (unsigned i = 0; i < F2_MAX_ERRORS; i++)
		if (sb->s_errors[i])
			return 1;
	return 0;
}

void f2_sb_clear_records(struct f2_super *sb)
{
	memset(sb->s_stop_reason, 0, sizeof(sb->s_stop_reason));
	memset(sb->s_errors, 0, sizeof(sb->s_errors));
}

/* Append text to buf at *len (snprintf rules: *len counts what would be
 * written). */
static void add(char *buf, size_t size, size_t *len, const char *sep, const char *name,
		const char *fallback, unsigned i, int count, const char *note)
{
	char num[64];
	int n;

	if (count >= 0 && note)
		snprintf(num, sizeof(num), "(%d, or %s)", count, note);
	else if (count >= 0)
		snprintf(num, sizeof(num), "(%d)", count);
	else
		num[0] = 0;
	if (name)
		n = snprintf(buf + *len, *len < size ? size - *len : 0, "%s%s%s",
			     *len ? sep : "", name, num);
	else
		n = snprintf(buf + *len, *len < size ? size - *len : 0, "%s%s_%u%s",
			     *len ? sep : "", fallback, i, num);
	if (n > 0)
		*len += (size_t)n;
}

size_t f2_sb_stop_reasons_format(const struct f2_super *sb, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = 0;
	for (unsigned i = 0; i < F2_MAX_STOP_REASON; i++)
		if (sb->s_stop_reason[i])
			add(buf, size, &len, " ", f2_stop_reason_name(i), "reason", i,
			    sb->s_stop_reason[i], f2_stop_reason_note(i));
	return len;
}

size_t f2_sb_errors_format(const struct f2_super *sb, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = 0;
	for (unsigned b = 0; b < F2_MAX_ERRORS * 8; b++)
		if (f2_sb_error_set(sb, b))
			add(buf, size, &len, " ", f2_error_name(b), "error", b, -1, NULL);
	return len;
}
