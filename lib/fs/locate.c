// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * locate.c - where the structures of an opened volume live (f2/locate.h):
 * NAT and SIT entries in their journals or either copy, summary entries in
 * the checkpoint or the SSA, node blocks, directory entries.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "f2/locate.h"

static void spot(struct f2_spot *s, uint64_t blkaddr, uint32_t off, int home, int copy)
{
	memset(s, 0, sizeof(*s));
	s->blkaddr = blkaddr;
	s->off = off;
	s->home = (uint8_t)home;
	s->copy = (uint8_t)copy;
}

/* Which copy a version bitmap bit selects: 1 or 2. */
static int bitmap_copy(const uint8_t *bitmap, uint32_t bit)
{
	return bitmap && (bitmap[bit / 8] & (0x80u >> (bit % 8))) ? 2 : 1;
}

/* Byte at of the journal log keeps in the pack in use (the hot data
 * log's holds the NAT journal, the cold data log's the SIT journal). */
static int journal_spot(struct f2_fs *fs, int log, size_t at, struct f2_spot *s)
{
	uint64_t b;
	uint32_t o;

	if (f2_cp_sum_locate(fs, log, F2_SUM_AT_JOURNAL, &b, &o))
		return -1;
	spot(s, b, o + (uint32_t)at, F2_HOME_JOURNAL, 0);
	return 0;
}

int f2_locate_nat(struct f2_fs *fs, uint32_t nid, int copy, struct f2_spot *s)
{
	uint32_t blk = nid / F2_NAT_ENTRIES_PER_BLOCK;
	uint32_t at = (uint32_t)((nid % F2_NAT_ENTRIES_PER_BLOCK) * sizeof(struct f2_nat_entry));

	if (nid >= fs->max_nid || copy < 0 || copy > 2)
		return f2_fs_fail(fs, F2_ERANGE, "nid %u: past the NAT's %u entries", nid,
				  fs->max_nid);
	if (copy == 0) {
		for (uint32_t i = 0; i < fs->nat_journal_n; i++)
			if (f2_le32(fs->nat_journal.nat.entries[i].nid) == nid &&
			    !journal_spot(fs, F2_CURSEG_HOT_DATA,
					  offsetof(struct f2_journal, nat.entries) +
					  i * sizeof(struct f2_nat_journal_entry) +
					  offsetof(struct f2_nat_journal_entry, ne), s))
				return 0;
		copy = bitmap_copy(fs->nat_bitmap, blk);
	}
	spot(s, f2_nat_copy_addr(fs, blk, copy == 2), at, F2_HOME_BLOCK, copy);
	return 0;
}

int f2_locate_sit(struct f2_fs *fs, uint32_t segno, int copy, struct f2_spot *s)
{
	uint32_t blk = segno / F2_SIT_ENTRIES_PER_BLOCK;
	uint32_t at = (uint32_t)((segno % F2_SIT_ENTRIES_PER_BLOCK) * sizeof(struct f2_sit_entry));

	if (segno >= fs->main_segs || copy < 0 || copy > 2)
		return f2_fs_fail(fs, F2_ERANGE, "segment %u: past the main area's %u", segno,
				  fs->main_segs);
	if (copy == 0) {
		for (uint32_t i = 0; i < fs->sit_journal_n; i++)
			if (f2_le32(fs->sit_journal.sit.entries[i].segno) == segno &&
			    !journal_spot(fs, F2_CURSEG_COLD_DATA,
					  offsetof(struct f2_journal, sit.entries) +
					  i * sizeof(struct f2_sit_journal_entry) +
					  offsetof(struct f2_sit_journal_entry, se), s))
				return 0;
		copy = bitmap_copy(fs->sit_bitmap, blk);
	}
	spot(s, f2_sit_copy_addr(fs, blk, copy == 2), at, F2_HOME_BLOCK, copy);
	return 0;
}

int f2_locate_sum(struct f2_fs *fs, uint32_t segno, int entry, struct f2_spot *s)
{
	int log = f2_curseg_of(fs, segno);
	uint64_t b;
	uint32_t o;

	if (segno >= fs->main_segs || entry < F2_SUM_AT_FOOTER || entry == F2_SUM_AT_JOURNAL ||
	    entry >= F2_ENTRIES_IN_SUM)
		return f2_fs_fail(fs, F2_ERANGE, "segment %u entry %d: no such summary entry",
				  segno, entry);
	if (log >= 0 && fs->curseg[log].have_sum && !f2_cp_sum_locate(fs, log, entry, &b, &o)) {
		spot(s, b, o, F2_HOME_CP_SUM, 0);
		return 0;
	}
	o = entry == F2_SUM_AT_FOOTER ? (uint32_t)offsetof(struct f2_summary_block, footer) :
	    (uint32_t)entry * F2_SUMMARY_SIZE;
	spot(s, (uint64_t)fs->ssa_blkaddr + segno, o, F2_HOME_BLOCK, 0);
	return 0;
}

int f2_locate_node(struct f2_fs *fs, uint32_t nid, struct f2_spot *s)
{
	struct f2_nat_info ni;
	struct f2_node node;
	int err = f2_nat_lookup(fs, nid, &ni);

	if (err)
		return f2_fs_fail(fs, err, "nid %u: no NAT entry (%s)", nid, f2_strerror(err));
	if (!ni.blkaddr)
		return f2_fs_fail(fs, -ENOENT, "nid %u: not in use", nid);
	if (!f2_fs_in_main(fs, ni.blkaddr))
		return f2_fs_fail(fs, F2_ERANGE, "nid %u: NAT block address %u outside the main area",
				  nid, ni.blkaddr);
	spot(s, ni.blkaddr, 0, F2_HOME_BLOCK, 0);
	if (ni.ino == nid && (fs->features & F2_FEAT_INODE_CHKSUM) &&
	    !f2_fs_read_block(fs, ni.blkaddr, &node) && f2_le32(node.footer.nid) == nid &&
	    f2_node_ofs(&node) == 0)
		s->csum = F2_CSUM_INODE;
	return 0;
}

struct dent_want {
	uint32_t ino;
	int which;
	struct f2_dirent found;
	int hit;
};

static int is_dots(const struct f2_dirent *d, size_t n)
{
	return d->name_len == n && d->name[0] == '.' && (n == 1 || d->name[1] == '.');
}

static int dent_pick(void *ctx, const struct f2_dirent *d)
{
	struct dent_want *w = ctx;

	if (w->which == F2_DENT_DOT ? !is_dots(d, 1) :
	    w->which == F2_DENT_DOTDOT ? !is_dots(d, 2) :
	    (d->ino != w->ino || is_dots(d, 1) || is_dots(d, 2)))
		return 0;
	w->found = *d;
	w->hit = 1;
	return 1;
}

int f2_locate_dentry(struct f2_fs *fs, uint32_t ino, int which, struct f2_dent_spot *d)
{
	struct f2_inode_ref ir;
	struct dent_want w = { .ino = ino, .which = which };
	uint32_t dir = ino, slots;
	int err = f2_inode_read(fs, ino, &ir);

	if (err)
		return err;
	if (which == F2_DENT_CHILD) {
		dir = f2_le32(ir.node.i.i_pino);
		err = f2_inode_read(fs, dir, &ir);
		if (err)
			return err;
	}
	if ((ir.mode & 0170000) != 0040000)
		return f2_fs_fail(fs, F2_ECORRUPT, "inode %u: not a directory", dir);
	err = f2_dir_iter(fs, &ir, dent_pick, &w);
	if (err < 0)
		return err;
	if (!w.hit)
		return f2_fs_fail(fs, -ENOENT, "directory %u: no entry %s", dir,
				  which == F2_DENT_DOT ? "\".\"" : which == F2_DENT_DOTDOT ?
				  "\"..\"" : "for the inode");
	memset(d, 0, sizeof(*d));
	d->slot = w.found.slot;
	d->dir = dir;
	slots = (w.found.name_len + F2_SLOT_LEN - 1) / F2_SLOT_LEN;
	d->slots_free = slots * F2_SLOT_LEN;
	if (w.found.block == UINT64_MAX) {
		struct f2_inline_dentry_geom g;
		uint32_t base = (uint32_t)(f2_inline_data(&ir) - (const uint8_t *)&ir.node);

		f2_inline_dentry_geom(ir.inline_bytes, &g);
		spot(&d->s, ir.blkaddr, 0, F2_HOME_INLINE, 0);
		if (fs->features & F2_FEAT_INODE_CHKSUM)
			d->s.csum = F2_CSUM_INODE;
		d->bitmap_off = base + d->slot / 8;
		d->dentry_off = base + g.dentry_off + d->slot * (uint32_t)sizeof(struct f2_dir_entry);
		d->name_off = base + g.name_off + d->slot * F2_SLOT_LEN;
	} else {
		struct f2_file *file;
		uint32_t addr;

		err = f2_file_open_ref(fs, &ir, &file);
		if (err)
			return err;
		err = f2_file_map(file, w.found.block, &addr, NULL);
		f2_file_close(file);
		if (err)
			return err;
		if (!f2_fs_in_main(fs, addr))
			return f2_fs_fail(fs, F2_ERANGE, "directory %u: block %llu at %u, outside "
					  "the main area", dir, (unsigned long long)w.found.block, addr);
		spot(&d->s, addr, 0, F2_HOME_BLOCK, 0);
		d->bitmap_off = (uint32_t)offsetof(struct f2_dentry_block, dentry_bitmap) + d->slot / 8;
		d->dentry_off = (uint32_t)(offsetof(struct f2_dentry_block, dentry) +
					   d->slot * sizeof(struct f2_dir_entry));
		d->name_off = (uint32_t)offsetof(struct f2_dentry_block, filename) +
			      d->slot * F2_SLOT_LEN;
	}
	return 0;
}
