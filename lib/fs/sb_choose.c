// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sb_choose.c - which of two superblock copies that both verify, but
 * differ, describes the volume.  The open takes the first valid copy;
 * when the other differs, it is opened too (the same I/O, its own
 * checkpoint) and the evidence weighed, strongest first:
 *   - a copy with which no checkpoint pack loads loses to one with which
 *     one does (a damaged cp_payload or area address);
 *   - a copy whose feature word holds bits no kernel defines loses to
 *     one without (random bytes over the word look like that);
 *   - a copy without sb_checksum loses to one whose crc covers it: a
 *     damaged feature word that lost the flag looks just like that, and
 *     nothing vouches for it;
 *   - a copy with a field set that only an absent feature uses (qf_ino,
 *     s_encoding) loses to one without;
 *   - when the feature words differ, the first inodes of the NAT vote:
 *     against a copy whose features make one unreadable (an extra
 *     attribute area it forbids) or whose inode checksum fails, or that
 *     has no inode_checksum where the inode carries a good one; for a
 *     copy whose checksum verifies.  The higher score wins.
 * Without evidence the first copy stays (the kernel reads the primary
 * first).  When the evidence decides, fs->sb_overruled is set and the
 * loser's sb_why[] says why: a checker rewrites it from the winner.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "internal.h"

#define SAMPLE_INODES	16

/* +1: the handle's features read inode ino right; -1: wrong; 0: no
 * evidence (not readable through the NAT, or nothing to check). */
static int inode_vote(struct f2_fs *fs, uint32_t ino, struct f2_inode_ref *ir)
{
	const struct f2_inode *i = &ir->node.i;
	size_t csum_end = offsetof(struct f2_inode, i_crtime) -
			  offsetof(struct f2_inode, i_extra_isize);

	if (f2_node_read(fs, ino, ino, &ir->node, NULL))
		return 0;
	if (f2_inode_parse(fs, ino, &ir->node, ir))
		return -1;
	if (ir->csum_ok >= 0)
		return ir->csum_ok ? 1 : -1;
	/* no inode_checksum, yet the inode carries a good one */
	if ((i->i_inline & F2_EXTRA_ATTR) && f2_le16(i->i_extra_isize) >= csum_end &&
	    f2_inode_csum(fs->csum_seed, &ir->node) == f2_le32(i->i_inode_checksum))
		return -1;
	return 0;
}

struct sample {
	struct f2_fs *fs;
	struct f2_inode_ref *ir;
	unsigned n;
	int score;
};

static int sample_one(void *arg, const struct f2_nat_info *ni)
{
	struct sample *s = arg;

	if (ni->nid <= F2_META_INO || ni->ino != ni->nid || ni->blkaddr == F2_NULL_ADDR)
		return 0;
	s->score += inode_vote(s->fs, ni->nid, s->ir);
	return ++s->n >= SAMPLE_INODES;
}

/* The votes of the first SAMPLE_INODES inodes for fs's features. */
static int inode_score(struct f2_fs *fs, struct f2_inode_ref *ir)
{
	struct sample s = { fs, ir, 0, 0 };
	char why[F2_WHY_LEN];

	memcpy(why, fs->why, sizeof(why));
	f2_nat_iter(fs, sample_one, &s);
	memcpy(fs->why, why, sizeof(why));
	return s.score;
}

/* A handle on fs's I/O with superblock sb and its checkpoint loaded
 * (*cp_err: the load's result); NULL when sb maps other devices. */
static struct f2_fs *open_copy(struct f2_fs *fs, const struct f2_super *sb, int force_pack,
			       int *cp_err)
{
	struct f2_fs *t;

	if (f2_fs_alloc(&t))
		return NULL;
	t->io = fs->io;
	t->sb = *sb;
	if (f2_fs_layout(t) || t->ndevs != fs->ndevs ||
	    t->io->size / F2_BLKSIZE < t->block_count) {
		f2_fs_close(t);
		return NULL;
	}
	for (uint32_t i = 0; i < t->ndevs; i++)
		if (t->devs[i].start_blk != fs->devs[i].start_blk ||
		    t->devs[i].end_blk != fs->devs[i].end_blk) {
			f2_fs_close(t);
			return NULL;
		}
	*cp_err = f2_cp_load(t, force_pack);
	return t;
}

/* A field only a feature gives a meaning to, set in a copy without that
 * feature (random bytes over an unused field look like that): its name,
 * or NULL. */
static const char *stray_field(const struct f2_super *sb)
{
	uint32_t f = f2_le32(sb->feature);

	if (!(f & F2_FEAT_QUOTA_INO))
		for (int i = 0; i < F2_MAX_QUOTAS; i++)
			if (f2_le32(sb->qf_ino[i]))
				return "qf_ino";
	if (!(f & F2_FEAT_CASEFOLD) && (f2_le16(sb->s_encoding) || f2_le16(sb->s_encoding_flags)))
		return "s_encoding";
	return NULL;
}

/*
 * > 0 for b, < 0 for a (a and b opened with their checkpoints' results
 * ea and eb), 0 without evidence; why (the loser's reason) is set.
 */
static int weigh(struct f2_fs *a, int ea, struct f2_fs *b, int eb, char *why, size_t len)
{
	uint32_t fa = f2_le32(a->sb.feature), fb = f2_le32(b->sb.feature);
	struct f2_inode_ref *ir;
	const char *stray_a, *stray_b;
	int sa, sb;

	if (!ea != !eb) {
		snprintf(why, len, "with it, %.200s", ea ? a->why : b->why);
		return ea ? 1 : -1;
	}
	if (!(fa & ~F2_FEAT_DEFINED) != !(fb & ~F2_FEAT_DEFINED)) {
		snprintf(why, len, "its features 0x%x hold bits no kernel defines",
			 fa & ~F2_FEAT_DEFINED ? fa : fb);
		return fa & ~F2_FEAT_DEFINED ? 1 : -1;
	}
	if (ea)
		return 0;
	if ((fa ^ fb) & F2_FEAT_SB_CHKSUM) {
		snprintf(why, len, "it has no sb_checksum; the other copy's crc covers it");
		return fa & F2_FEAT_SB_CHKSUM ? -1 : 1;
	}
	stray_a = stray_field(&a->sb);
	stray_b = stray_field(&b->sb);
	if (!stray_a != !stray_b) {
		snprintf(why, len, "its %s is set without the feature that uses it",
			 stray_a ? stray_a : stray_b);
		return stray_a ? 1 : -1;
	}
	if (fa == fb || !(ir = malloc(sizeof(*ir))))
		return 0;
	sa = inode_score(a, ir);
	sb = inode_score(b, ir);
	free(ir);
	if (sa == sb)
		return 0;
	snprintf(why, len, "the inodes disagree with its features 0x%x (score %d; the other "
		 "copy's 0x%x: %d)", sa < sb ? fa : fb, sa < sb ? sa : sb, sa < sb ? fb : fa,
		 sa < sb ? sb : sa);
	return sa < sb ? 1 : -1;
}

/* fs becomes the handle t opened, keeping what belongs to the open. */
static void take(struct f2_fs *fs, struct f2_fs *t)
{
	struct f2_fs keep = *fs;

	*fs = *t;
	*t = keep;
	fs->own_io = keep.own_io;
	t->own_io = 0;
	memcpy(fs->sb_why, keep.sb_why, sizeof(fs->sb_why));
	memcpy(fs->sb_valid, keep.sb_valid, sizeof(fs->sb_valid));
	fs->sb_which = 1 - keep.sb_which;
	fs->warn = keep.warn;
	fs->warn_ctx = keep.warn_ctx;
}

int f2_sb_choose(struct f2_fs *fs, int force_pack, int err)
{
	uint8_t blk[F2_BLKSIZE];
	struct f2_super other;
	struct f2_fs *t;
	char why[F2_WHY_LEN];
	int terr = 0, pick;

	if (err == -12 || fs->sb_merged || !fs->sb_valid[0] || !fs->sb_valid[1] ||
	    f2_io_read_block(fs->io, (uint64_t)(1 - fs->sb_which), blk))
		return err;
	memcpy(&other, blk + F2_SUPER_OFFSET, sizeof(other));
	if (!memcmp(&other, &fs->sb, sizeof(other)) || !(t = open_copy(fs, &other, force_pack,
								       &terr)))
		return err;
	pick = weigh(fs, err, t, terr, why, sizeof(why));
	if (pick > 0) {
		take(fs, t);
		err = terr;
		if (fs->warn)
			fs->warn(fs->warn_ctx, "superblock %d overruled (%s): using superblock %d",
				 1 - fs->sb_which, why, fs->sb_which);
	}
	f2_fs_close(t);
	if (pick) {
		fs->sb_overruled = 1;
		snprintf(fs->sb_why[1 - fs->sb_which], F2_WHY_LEN, "%s", why);
	}
	return err;
}
