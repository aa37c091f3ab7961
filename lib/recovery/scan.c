// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recovery/scan.c - the read-only half of the roll-forward
 * (f2/recovery.h): the walk of the fsync node chain in the warm node log
 * as Linux 6.1 walks it, and the description of each fsync-ed inode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "f2/recovery.h"

/* ---- the walk ------------------------------------------------------------ */

/* Does the footer version match the checkpoint (the driver's rule)? */
static int version_ok(const struct f2_fs *fs, const struct f2_node *n)
{
	uint64_t want = fs->cp_ver, have = f2_le64(n->footer.cp_ver);
	uint32_t off = f2_le32(fs->cp->checksum_offset);

	if (fs->cp_flags & F2_CP_NOCRC_RECOVERY)
		return (uint32_t)want == (uint32_t)have;
	if ((fs->cp_flags & F2_CP_CRC_RECOVERY) && off <= F2_BLKSIZE - 4) {
		uint32_t crc;

		memcpy(&crc, fs->cp_raw + off, 4);
		want = (uint32_t)want | (uint64_t)f2_le32(*(le32 *)&crc) << 32;
	}
	return want == have;
}

static struct f2_rf_ino *find_ino(struct f2_rf *rf, uint32_t ino)
{
	for (size_t i = 0; i < rf->ninos; i++)
		if (rf->inos[i].ino == ino)
			return &rf->inos[i];
	return NULL;
}

static int push_blk(struct f2_rf *rf, const struct f2_rf_blk *b, size_t *cap)
{
	if (rf->nchain == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		struct f2_rf_blk *p = realloc(rf->chain, nc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		rf->chain = p;
		*cap = nc;
	}
	rf->chain[rf->nchain++] = *b;
	return 0;
}

static int push_ino(struct f2_rf *rf, uint32_t ino, size_t *cap)
{
	if (rf->ninos == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct f2_rf_ino *p = realloc(rf->inos, nc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		rf->inos = p;
		*cap = nc;
	}
	memset(&rf->inos[rf->ninos], 0, sizeof(rf->inos[0]));
	rf->inos[rf->ninos].ino = ino;
	rf->inos[rf->ninos].last_dent = -1;
	rf->ninos++;
	return 0;
}

static void skip(struct f2_rf_ino *e, int unsupported, const char *why)
{
	e->skip = 1;
	e->unsupported = unsupported;
	snprintf(e->why, sizeof(e->why), "%s", why);
}

/*
 * Describe each fsync-ed inode from its newest inode node in the chain
 * (or the committed inode); its name and parent come from its last inode
 * node with the dentry mark, the one the driver adds the name from.
 * What the 6.1 driver never logs (directories and other non-regular
 * files, compressed files: their fsync writes a checkpoint) is skipped;
 * what it would replay but we cannot (encrypted files) is marked
 * unsupported, and f2_rf_apply() then refuses to write anything.
 */
static int describe(struct f2_rf *rf)
{
	struct f2_fs *fs = rf->fs;
	struct f2_inode_ref *ir = malloc(sizeof(*ir));
	struct f2_node *n = malloc(sizeof(*n));
	struct f2_nat_info ni;
	int err = 0;

	if (!ir || !n) {
		free(ir);
		free(n);
		return -ENOMEM;
	}
	for (size_t k = 0; k < rf->ninos && !err; k++) {
		struct f2_rf_ino *e = &rf->inos[k];
		long inode_at = -1;

		for (size_t i = 0; i <= e->last_fsync; i++)
			if (rf->chain[i].ino == e->ino) {
				e->nodes++;
				if (rf->chain[i].nid == e->ino && rf->chain[i].ofs == 0)
					inode_at = (long)i;
			}
		e->is_new = f2_nat_lookup(fs, e->ino, &ni) || !ni.blkaddr;
		if (inode_at >= 0) {
			err = f2_fs_read_block(fs, rf->chain[inode_at].addr, n);
			if (err)
				break;
			if (f2_inode_parse(fs, e->ino, n, ir)) {
				skip(e, 1, "newest inode node in the chain is not valid");
				continue;
			}
		} else if (e->is_new) {
			skip(e, 0, "new inode without an inode node in the chain");
			continue;
		} else if (f2_inode_read(fs, e->ino, ir)) {
			skip(e, 1, "committed inode unreadable");
			continue;
		}
		e->size = ir->size;
		e->mode = ir->mode;
		if (e->last_dent >= 0 && e->last_dent != inode_at) {
			err = f2_fs_read_block(fs, rf->chain[e->last_dent].addr, n);
			if (err)
				break;
		} else {
			*n = ir->node;
		}
		e->pino = f2_le32(n->i.i_pino);
		e->namelen = f2_le32(n->i.i_namelen);
		if (e->namelen > F2_NAME_LEN)
			e->namelen = 0;
		memcpy(e->name, n->i.i_name, e->namelen);
		e->name[e->namelen] = 0;
		if ((e->mode & 0170000) != 0100000)
			skip(e, 0, "not a regular file (the 6.1 driver checkpoints on its fsync)");
		else if (ir->cluster_blocks)
			skip(e, 0, "compressed file (the 6.1 driver checkpoints on its fsync)");
		else if (ir->encrypted)
			skip(e, 1, "encrypted file: not supported, mount with the driver to recover it");
		else if (e->is_new && e->last_dent < 0)
			skip(e, 0, "new inode without a dentry mark");
		else if (e->is_new && !e->namelen)
			skip(e, 0, "new inode without a name");
	}
	free(ir);
	free(n);
	return err;
}

int f2_rf_scan(struct f2_fs *fs, struct f2_rf **out)
{
	const struct f2_curseg_info *c = &fs->curseg[F2_CURSEG_WARM_NODE];
	uint64_t main_blocks = (uint64_t)fs->main_segs * F2_BLKS_PER_SEG;
	uint64_t budget, valid;
	size_t ccap = 0, icap = 0;
	uint8_t *seen = NULL;
	struct f2_node n;
	struct f2_rf *rf;
	uint32_t addr;
	int err = 0;

	*out = NULL;
	if (!fs->cp)
		return f2_fs_fail(fs, F2_ENOCP, "roll-forward: no checkpoint loaded");
	rf = calloc(1, sizeof(*rf));
	seen = calloc(main_blocks / 8 + 1, 1);
	if (!rf || !seen) {
		free(rf);
		free(seen);
		return -ENOMEM;
	}
	rf->fs = fs;
	/* the driver's bound on a chain (a loop guard): every block of the
	 * main area the checkpoint does not count valid, overprovision
	 * included, so a full volume still replays */
	valid = f2_le64(fs->cp->valid_block_count);
	budget = main_blocks > valid ? main_blocks - valid : 0;
	if (c->segno >= fs->main_segs || c->blkoff >= F2_BLKS_PER_SEG) {
		snprintf(rf->stop, sizeof(rf->stop), "warm node segment %u offset %u: no chain",
			 c->segno, c->blkoff);
		goto done;
	}
	addr = (uint32_t)f2_fs_seg_start(fs, c->segno) + c->blkoff;
	rf->start = addr;
	for (;;) {
		uint32_t off;
		struct f2_rf_blk b;

		if (!f2_fs_in_main(fs, addr)) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u outside the main area", addr);
			break;
		}
		off = addr - fs->main_blkaddr;
		if (f2_test_bit_lsb(seen, off)) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u: the chain loops", addr);
			break;
		}
		if (rf->nchain >= budget) {
			snprintf(rf->stop, sizeof(rf->stop),
				 "block %u: chain longer than the %llu free blocks", addr,
				 (unsigned long long)budget);
			break;
		}
		f2_set_bit_lsb(seen, off);
		err = f2_fs_read_block(fs, addr, &n);
		if (err)
			goto done;
		if (!version_ok(fs, &n)) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u: footer version %#llx is not the checkpoint's",
				 addr, (unsigned long long)f2_le64(n.footer.cp_ver));
			break;
		}
		b.addr = addr;
		b.nid = f2_le32(n.footer.nid);
		b.ino = f2_le32(n.footer.ino);
		b.ofs = f2_node_ofs(&n);
		b.marks = (uint8_t)(f2_le32(n.footer.flag) & (F2_FOOTER_FSYNC | F2_FOOTER_DENT));
		b.next = f2_le32(n.footer.next_blkaddr);
		if (b.ino < 3 || b.ino >= fs->max_nid || b.nid >= fs->max_nid || !b.nid) {
			snprintf(rf->stop, sizeof(rf->stop), "block %u: nid %u / ino %u out of range",
				 addr, b.nid, b.ino);
			break;
		}
		err = push_blk(rf, &b, &ccap);
		if (err)
			goto done;
		if (b.marks & F2_FOOTER_FSYNC) {
			struct f2_rf_ino *e = find_ino(rf, b.ino);

			if (!e) {
				err = push_ino(rf, b.ino, &icap);
				if (err)
					goto done;
				e = &rf->inos[rf->ninos - 1];
			}
			e->last_fsync = rf->nchain - 1;
			if ((b.marks & F2_FOOTER_DENT) && b.nid == b.ino && b.ofs == 0)
				e->last_dent = (long)(rf->nchain - 1);
		}
		addr = b.next;
	}
	err = describe(rf);
done:
	free(seen);
	if (err) {
		f2_rf_free(rf);
		return err;
	}
	*out = rf;
	return 0;
}

void f2_rf_free(struct f2_rf *rf)
{
	if (!rf)
		return;
	free(rf->chain);
	free(rf->inos);
	free(rf);
}
