/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cfnames.h - the names of one casefolded directory met so far by the
 * walk (pass_dir.c), to find a name the kernel takes for an earlier one:
 * one it could never have created next to it.  Names are kept by the
 * hash of their fold (two names the kernel takes for each other fold to
 * the same bytes, or are the same bytes, so they share it) and compared
 * with the library's lookup rule, both ways.
 */
#ifndef FSCK_CFNAMES_H
#define FSCK_CFNAMES_H
#include <stdint.h>
#include "f2/map.h"

struct cf_name {
	uint32_t next;		/* 1 + index of the previous name with its key, or 0 */
	uint32_t off, ino;	/* its bytes at text[off], the inode it names */
	uint16_t len;
};

struct cf_names {
	struct f2_map heads;	/* key -> 1 + index of the latest name with it */
	struct cf_name *v;
	uint32_t n, cap;
	uint8_t *text;
	size_t used, tcap;
	int strict;		/* the encoding's strict flag */
};

void cf_names_init(struct cf_names *s);
/* Forget every name (a new directory); "." and ".." are there from the
 * start, as the kernel always finds them. */
int cf_names_reset(struct cf_names *s, int strict, uint32_t dir);
/* The key of a name: the TEA hash of its fold, or of its bytes when it
 * does not fold (and for "." and ".."). */
uint32_t cf_names_key(const uint8_t *name, uint32_t len);
/* An earlier name the kernel takes for this one (or this one for it):
 * its index, or -1. */
int cf_names_find(const struct cf_names *s, uint32_t key, const uint8_t *name, uint32_t len);
int cf_names_add(struct cf_names *s, uint32_t key, const uint8_t *name, uint32_t len,
		 uint32_t ino);
void cf_names_free(struct cf_names *s);
#endif
