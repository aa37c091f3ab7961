// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * repair.c - the list of recorded repairs and the NAT overlay (repair.h):
 * entries a repair will free or re-own, consulted by every NAT lookup of
 * the check so the rest of the walk sees the repaired file system.
 */
#include <errno.h>
#include <stdlib.h>
#include "f2/errors.h"
#include "fsck.h"
#include "repair.h"

int rep_add(struct fsck_ctx *ctx, uint32_t code, uint8_t kind, uint32_t a, uint32_t b,
	    uint32_t c, uint64_t d)
{
	if (ctx->nacts == ctx->cap_acts) {
		unsigned cap = ctx->cap_acts ? ctx->cap_acts * 2 : 64;
		struct rep_act *n = realloc(ctx->acts, cap * sizeof(*n));

		if (!n) {
			ctx->errors_left++;	/* the repair is then not written */
			return -ENOMEM;
		}
		ctx->acts = n;
		ctx->cap_acts = cap;
	}
	ctx->acts[ctx->nacts++] = (struct rep_act){ code, kind, a, b, c, d };
	return 0;
}

int fsck_nat(struct fsck_ctx *ctx, uint32_t nid, struct f2_nat_info *ni)
{
	int err = f2_nat_lookup(ctx->fs, nid, ni);

	if (err)
		return err;
	if (ctx->nat_cleared.nbits && sbm_test(&ctx->nat_cleared, nid)) {
		ni->blkaddr = F2_NULL_ADDR;
		ni->ino = 0;
		return 0;
	}
	for (unsigned i = 0; i < ctx->nnat_inos; i++)
		if (ctx->nat_inos[i].nid == nid) {
			ni->ino = ctx->nat_inos[i].ino;
			if (ctx->nat_inos[i].blkaddr)
				ni->blkaddr = ctx->nat_inos[i].blkaddr;
		}
	return 0;
}

int rep_nat_clear(struct fsck_ctx *ctx, uint32_t code, uint32_t nid)
{
	if (!ctx->nat_cleared.nbits && sbm_init(&ctx->nat_cleared, ctx->fs->max_nid))
		return -ENOMEM;
	if (sbm_set(&ctx->nat_cleared, nid) < 0)
		return -ENOMEM;
	return rep_add(ctx, code, RA_NAT_CLEAR, nid, 0, 0, 0);
}

int grow_array(void *arr, unsigned n, size_t size)
{
	void **p = arr, *a;

	if (n && (n < 8 || (n & (n - 1))))
		return 0;	/* capacity: 8, then the next power of two */
	a = realloc(*p, (n < 8 ? 8 : 2 * (size_t)n) * size);
	if (!a)
		return -ENOMEM;
	*p = a;
	return 0;
}

int rep_nat_overlay(struct fsck_ctx *ctx, uint32_t nid, uint32_t ino, uint32_t blkaddr)
{
	if (grow_array(&ctx->nat_inos, ctx->nnat_inos, sizeof(*ctx->nat_inos)))
		return -ENOMEM;
	ctx->nat_inos[ctx->nnat_inos].nid = nid;
	ctx->nat_inos[ctx->nnat_inos].ino = ino;
	ctx->nat_inos[ctx->nnat_inos++].blkaddr = blkaddr;
	return 0;
}

int rep_nat_ino(struct fsck_ctx *ctx, uint32_t code, uint32_t nid, uint32_t ino)
{
	return rep_nat_overlay(ctx, nid, ino, 0) ? -ENOMEM :
	       rep_add(ctx, code, RA_NAT_INO, nid, ino, 0, 0);
}

void rep_free(struct fsck_ctx *ctx)
{
	free(ctx->acts);
	free(ctx->nat_inos);
	free(ctx->lost);
	sbm_free(&ctx->nat_cleared);
	ctx->acts = NULL;
	ctx->nat_inos = NULL;
	ctx->lost = NULL;
	ctx->nlost = 0;
	ctx->nacts = ctx->cap_acts = ctx->nnat_inos = 0;
}
