/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine/recover.h - write-engine primitives the roll-forward (recovery/replay.c)
 * needs beyond f2/engine.h: keeping the inode numbers the driver gave to
 * fsync-ed files, punching single blocks, and replacing an inode's xattr
 * areas with the newest ones of the chain.  Internal to libf2core.
 */
#ifndef F2_EW_RECOVER_H
#define F2_EW_RECOVER_H
#include <stdint.h>
#include <stddef.h>
#include "f2/engine.h"

/*
 * Keep nid out of the free-nid search until eng_rf_release_nid() or
 * eng_rf_create() takes it: it must be free (no block in the NAT, not
 * touched by the engine), else F2_ECORRUPT.  A held nid is never written
 * by a checkpoint: release every hold before committing.
 */
int eng_rf_hold_nid(struct f2_engine *w, uint32_t nid);
void eng_rf_release_nid(struct f2_engine *w, uint32_t nid);
/* f2_engine_create() giving the new inode exactly the number ino (held or
 * free); fails, with the engine's reason, when ino cannot be had. */
int eng_rf_create(struct f2_engine *w, uint32_t dir, const char *name, size_t len,
		 const struct f2_wattr *a, uint32_t ino);
/* Make file block fofs of ino a hole (its block freed; the node stays,
 * as the driver's recovery leaves it).  A hole already is fine. */
int eng_rf_punch(struct f2_engine *w, uint32_t ino, uint64_t fofs);
/*
 * Replace ino's xattr areas as the driver's roll-forward does: with inl
 * (not NULL) the inline area gets its inl_len bytes (which must be the
 * inode's inline xattr size, else F2_EUNSUPP); with xnode (not NULL) the
 * old xattr node is freed and a new one holds its F2_XATTR_BLOCK_SIZE
 * bytes.  A NULL keeps that area as it is.
 */
int eng_rf_xattr_set(struct f2_engine *w, uint32_t ino, const uint8_t *inl, size_t inl_len,
		    const uint8_t *xnode);

/* Set ino's raw i_flags and i_advise (the driver's recover_inode copies
 * both from the newest inode node). */
int eng_rf_set_flags(struct f2_engine *w, uint32_t ino, uint32_t flags, uint8_t advise);

#endif /* F2_EW_RECOVER_H */
