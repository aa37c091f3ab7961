// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_read.c - the read API on images in memory made by our mkfs writer:
 * superblock and checkpoint selection (with damaged copies), NAT and SIT
 * lookups and walks, SSA, node and inode reads and their error reasons.
 * With an image path argument it only opens it and checks the counts
 * (used by tests/dump/read.bats on reference-mkfs images).
 */
#include <string.h>
#include <sys/stat.h>
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "f2/mkfs.h"
#include "f2/sb.h"
#include "unit.h"

struct counts {
	uint64_t nodes, inodes, vblocks;
};

static int count_nat(void *ctx, const struct f2_nat_info *ni)
{
	struct counts *c = ctx;

	if (ni->nid > F2_META_INO && ni->blkaddr) {
		c->nodes++;
		if (ni->nid == ni->ino)
			c->inodes++;
	}
	return 0;
}

static int count_sit(void *ctx, const struct f2_sit_info *si)
{
	((struct counts *)ctx)->vblocks += si->vblocks;
	return 0;
}

static void check_counts(struct f2_fs *fs)
{
	struct counts c = { 0 };
	struct f2_inode_ref ir;

	CHECK_EQ(f2_nat_iter(fs, count_nat, &c), 0);
	CHECK_EQ(f2_sit_iter(fs, count_sit, &c), 0);
	CHECK_EQ(c.nodes, f2_le32(fs->cp->valid_node_count));
	CHECK_EQ(c.inodes, f2_le32(fs->cp->valid_inode_count));
	/* reserved blocks of compressed clusters count in the cp, not in SIT */
	if (fs->features & F2_FEAT_COMPRESSION)
		CHECK(c.vblocks <= f2_le64(fs->cp->valid_block_count));
	else
		CHECK_EQ(c.vblocks, f2_le64(fs->cp->valid_block_count));
	CHECK_EQ(f2_inode_read(fs, F2_ROOT_INO, &ir), 0);
	CHECK(S_ISDIR(ir.mode));
}

static struct f2_io *make_image(uint64_t bytes, uint32_t features)
{
	struct f2_mkfs_opts o;
	struct f2_geom g;
	struct f2_super sb;
	struct f2_io *io;

	memset(&o, 0, sizeof(o));
	o.geom.sector_size = 512;
	o.geom.ndevs = 1;
	o.geom.devs[0].total_sectors = bytes / 512;
	o.geom.segs_per_sec = 1;
	o.geom.secs_per_zone = 1;
	o.geom.features = features;
	o.sb.features = features;
	o.timestamp = 1000;
	o.cp_ver = 7;
	memset(o.sb.uuid, 0x5a, 16);
	if (f2_geometry_compute(&o.geom, &g, NULL) || f2_io_open_mem(bytes, &io))
		return NULL;
	if (f2_mkfs_write(io, &o, &g, &sb, NULL, NULL)) {
		f2_io_close(io);
		return NULL;
	}
	return io;
}

static void flip_byte(struct f2_io *io, uint64_t off)
{
	uint8_t b;

	f2_io_read(io, off, &b, 1);
	b ^= 0xff;
	f2_io_write(io, off, &b, 1);
}

static void test_basic(void)
{
	struct f2_io *io = make_image(256ull << 20, F2_FEAT_EXTRA_ATTR | F2_FEAT_INODE_CHKSUM |
				      F2_FEAT_FLEX_INLINE_XATTR | F2_FEAT_SB_CHKSUM);
	struct f2_fs *fs;
	struct f2_nat_info ni;
	struct f2_inode_ref ir;
	struct f2_node node;
	struct f2_summary_block sum;
	int from_cp;
	uint32_t cp1;

	CHECK(io != NULL);
	if (!io)
		return;
	CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	CHECK_EQ(fs->sb_which, 0);
	check_counts(fs);
	CHECK_EQ(f2_nat_lookup(fs, F2_ROOT_INO, &ni), 0);
	CHECK_EQ(ni.ino, F2_ROOT_INO);
	CHECK(f2_fs_in_main(fs, ni.blkaddr));
	CHECK_EQ(f2_inode_read(fs, F2_ROOT_INO, &ir), 0);
	CHECK_EQ(ir.csum_ok, 1);
	CHECK_EQ(f2_nat_lookup(fs, fs->max_nid, &ni), F2_ERANGE);
	CHECK(strstr(fs->why, "beyond the NAT") != NULL);
	CHECK_EQ(f2_node_read(fs, 100, 0, &node, NULL), -2);	/* free nid */
	CHECK(strstr(fs->why, "nid 100") != NULL);
	CHECK_EQ(f2_ssa_read(fs, fs->curseg[F2_CURSEG_HOT_NODE].segno, &sum, &from_cp), 0);
	CHECK_EQ(from_cp, 1);
	CHECK_EQ(f2_le32(sum.entries[0].nid), F2_ROOT_INO);
	CHECK_EQ(f2_ssa_read(fs, fs->main_segs, &sum, &from_cp), F2_ERANGE);
	cp1 = fs->packs[0].start;
	CHECK(fs->packs[0].valid);
	f2_fs_close(fs);

	/* primary superblock damaged: the backup is used, the reason kept */
	flip_byte(io, F2_SUPER_OFFSET + 0x50);
	CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	CHECK_EQ(fs->sb_which, 1);
	CHECK(strstr(fs->sb_why[0], "checksum") != NULL);
	f2_fs_close(fs);
	flip_byte(io, F2_BLKSIZE + F2_SUPER_OFFSET + 0x50);
	CHECK(f2_fs_open_io(io, NULL, &fs) != 0);
	CHECK(strstr(fs->why, "no valid superblock") != NULL);
	f2_fs_close(fs);
	flip_byte(io, F2_SUPER_OFFSET + 0x50);

	/* the valid pack damaged: the other one (if valid) or none */
	CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	int used = fs->cp_pack, other_valid = fs->packs[!used].valid;
	uint32_t start = fs->packs[used].start;
	f2_fs_close(fs);
	(void)cp1;
	flip_byte(io, (uint64_t)start * F2_BLKSIZE + 8);
	int err = f2_fs_open_io(io, NULL, &fs);
	if (other_valid) {
		CHECK_EQ(err, 0);
		CHECK_EQ(fs->cp_pack, !used);
	} else {
		CHECK_EQ(err, F2_ENOCP);
		CHECK(strstr(fs->why, "checksum mismatch") != NULL);
	}
	f2_fs_close(fs);
	f2_io_close(io);
}

static void test_image(const char *path)
{
	struct f2_fs *fs;
	int err = f2_fs_open(path, NULL, &fs);

	if (err)
		fprintf(stderr, "%s: %s\n", path, fs->why);
	CHECK_EQ(err, 0);
	if (!err)
		check_counts(fs);
	f2_fs_close(fs);
}

static void test_acl(void)
{
	static const uint8_t in[] = { 1, 0, 0, 0,  1, 0, 6, 0,  2, 0, 4, 0, 0xe8, 3, 0, 0,
				      4, 0, 4, 0,  0x10, 0, 4, 0,  0x20, 0, 0, 0 };
	uint8_t out[64];

	CHECK_EQ(f2_acl_to_posix(in, sizeof(in), out, sizeof(out)), 4 + 5 * 8);
	CHECK_EQ(out[0], 2);
	CHECK_EQ(out[4 + 8 + 4], 0xe8);			/* the named user's id */
	CHECK_EQ(out[4 + 4], 0xff);			/* owner: undefined id */
	CHECK_EQ(f2_acl_to_posix(in, sizeof(in) - 2, out, sizeof(out)), F2_ECORRUPT);
	CHECK_EQ(f2_acl_to_posix(in, 12, out, sizeof(out)), F2_ECORRUPT);	/* cut user */
	CHECK_EQ(f2_acl_to_posix(in, sizeof(in), out, 20), F2_ERANGE);
	uint8_t bad[sizeof(in)];
	memcpy(bad, in, sizeof(in));
	bad[0] = 2;
	CHECK_EQ(f2_acl_to_posix(bad, sizeof(bad), out, sizeof(out)), F2_ECORRUPT);
	memcpy(bad, in, sizeof(in));
	bad[4] = 0x40;
	CHECK_EQ(f2_acl_to_posix(bad, sizeof(bad), out, sizeof(out)), F2_ECORRUPT);
}

/* Every data block of path maps back to its file block through its
 * summary entry, its node's offset and f2_file_node_start(). */
static void test_owner(const char *img, const char *path)
{
	struct f2_fs *fs;
	struct f2_inode_ref ir;
	struct f2_file *f;
	struct f2_node node;
	struct f2_summary_block sum;
	uint64_t checked = 0;

	CHECK_EQ(f2_fs_open(img, NULL, &fs), 0);
	CHECK_EQ(f2_path_lookup(fs, path, &ir), 0);
	CHECK_EQ(f2_file_open_ref(fs, &ir, &f), 0);
	for (uint64_t b = f2_file_next_data(f, 0); b < (ir.size + 4095) / 4096;
	     b = f2_file_next_data(f, b + 1)) {
		uint32_t a, segno, nid, ofs;
		int64_t start;

		if (f2_file_map(f, b, &a, NULL) || !f2_fs_in_main(fs, a))
			continue;
		segno = f2_fs_segno(fs, a);
		CHECK_EQ(f2_ssa_read(fs, segno, &sum, NULL), 0);
		ofs = (uint32_t)(a - f2_fs_seg_start(fs, segno));
		nid = f2_le32(sum.entries[ofs].nid);
		CHECK_EQ(f2_node_read(fs, nid, ir.ino, &node, NULL), 0);
		start = f2_file_node_start(f, f2_node_ofs(&node));
		if ((uint64_t)(start + f2_le16(sum.entries[ofs].ofs_in_node)) != b) {
			fprintf(stderr, "block %llu: owner says %lld\n", (unsigned long long)b,
				(long long)(start + f2_le16(sum.entries[ofs].ofs_in_node)));
			unit_failures++;
			break;
		}
		checked++;
	}
	printf("%s: %llu blocks map back\n", path, (unsigned long long)checked);
	CHECK(checked > 0);
	f2_file_close(f);
	f2_fs_close(fs);
}

/* The one superblock writer: the chosen copy only, its crc renewed, the
 * 1024 bytes before it kept; the volume opens on it again. */
static void test_sb_write(void)
{
	struct f2_io *io = make_image(64ull << 20, F2_FEAT_SB_CHKSUM);
	uint8_t blk[2][F2_BLKSIZE], boot[F2_SUPER_OFFSET];
	struct f2_super sb;
	struct f2_fs *fs;
	char why[128];

	CHECK(io != NULL);
	memset(boot, 0xab, sizeof(boot));
	f2_io_write(io, F2_BLKSIZE, boot, sizeof(boot));
	f2_io_read(io, F2_SUPER_OFFSET, &sb, sizeof(sb));
	sb.volume_name[0] = f2_cpu_to_le16('Q');
	flip_byte(io, F2_BLKSIZE + F2_SUPER_OFFSET);	/* backup magic */
	CHECK_EQ(f2_sb_write_copies(io, &sb, F2_SB_BACKUP), 0);
	f2_io_read(io, 0, blk, sizeof(blk));
	CHECK_EQ(memcmp(blk[1], boot, sizeof(boot)), 0);
	CHECK_EQ(memcmp(blk[1] + F2_SUPER_OFFSET, &sb, sizeof(sb)), 0);
	CHECK_EQ(f2_sb_verify((struct f2_super *)(blk[1] + F2_SUPER_OFFSET), 0, why,
			      sizeof(why)), 0);
	CHECK(memcmp(blk[0] + F2_SUPER_OFFSET, &sb, sizeof(sb)) != 0);	/* primary untouched */
	flip_byte(io, F2_SUPER_OFFSET);			/* primary magic: the backup is used */
	CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	CHECK_EQ(fs->sb_which, 1);
	CHECK_EQ(f2_le16(fs->sb.volume_name[0]), 'Q');
	f2_fs_close(fs);
	f2_io_close(io);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--owner")) {
		test_owner(argv[2], argv[3]);
	} else if (argc > 1) {
		for (int i = 1; i < argc; i++)
			test_image(argv[i]);
	} else {
		test_basic();
		test_acl();
		test_sb_write();
	}
	UNIT_DONE();
}
