/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2/format.h - the F2FS on-disk format (as written by Linux 6.1).
 *
 * Every structure is little-endian and packed; each carries a static assert
 * on its size and the offsets of important fields are given in comments and
 * pinned by tests/unit/test_format.c.  Read fields with f2_le16/32/64() and
 * write them with f2_set_le16/32/64() so the code is correct on any host.
 */
#ifndef F2_FORMAT_H
#define F2_FORMAT_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>

typedef uint16_t le16;
typedef uint32_t le32;
typedef uint64_t le64;

/* ---- endian accessors ------------------------------------------------- */
static inline uint16_t f2_le16(le16 v)
{
	const uint8_t *p = (const uint8_t *)&v;
	return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t f2_le32(le32 v)
{
	const uint8_t *p = (const uint8_t *)&v;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}
static inline uint64_t f2_le64(le64 v)
{
	const uint8_t *p = (const uint8_t *)&v;
	uint64_t r = 0;
	for (int i = 7; i >= 0; i--)
		r = r << 8 | p[i];
	return r;
}
static inline le16 f2_cpu_to_le16(uint16_t v)
{
	le16 r;
	uint8_t *p = (uint8_t *)&r;
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	return r;
}
static inline le32 f2_cpu_to_le32(uint32_t v)
{
	le32 r;
	uint8_t *p = (uint8_t *)&r;
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return r;
}
static inline le64 f2_cpu_to_le64(uint64_t v)
{
	le64 r;
	uint8_t *p = (uint8_t *)&r;
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return r;
}
/* Little-endian stores at any byte address (headers built byte by byte). */
static inline void f2_put_le16(uint8_t *p, uint16_t v)
{
	le16 r = f2_cpu_to_le16(v);
	memcpy(p, &r, sizeof(r));
}
static inline void f2_put_le32(uint8_t *p, uint32_t v)
{
	le32 r = f2_cpu_to_le32(v);
	memcpy(p, &r, sizeof(r));
}
#define f2_set_le16(field, v) ((field) = f2_cpu_to_le16(v))
#define f2_set_le32(field, v) ((field) = f2_cpu_to_le32(v))
#define f2_set_le64(field, v) ((field) = f2_cpu_to_le64(v))

/* ---- basic geometry constants ---------------------------------------- */
#define F2_SUPER_MAGIC		0xF2F52010u
#define F2_XATTR_MAGIC		0xF2F52011u
#define F2_SUPER_OFFSET		1024	/* byte offset of the sb in blocks 0 and 1 */
#define F2_BLKSIZE		4096
#define F2_LOG_BLKSIZE		12
#define F2_SECTOR_SIZE		512
#define F2_LOG_SECTOR_SIZE	9
#define F2_BLKS_PER_SEG		512
#define F2_LOG_BLKS_PER_SEG	9
#define F2_SEG_SIZE		(F2_BLKSIZE * F2_BLKS_PER_SEG)
#define F2_NULL_ADDR		0u
#define F2_NEW_ADDR		0xFFFFFFFFu
#define F2_COMPRESS_ADDR	0xFFFFFFFEu
#define F2_NULL_SEGNO		0xFFFFFFFFu

#define F2_MAX_VOLUME_NAME	512
#define F2_MAX_EXTENSION	64
#define F2_EXTENSION_LEN	8
#define F2_VERSION_LEN		256
#define F2_MAX_DEVICES		8
#define F2_MAX_PATH_LEN		64
#define F2_MAX_QUOTAS		3
#define F2_MAX_STOP_REASON	32
#define F2_MAX_ERRORS		16
#define F2_MAX_ACTIVE_LOGS	16
#define F2_NR_CURSEG		6
#define F2_NR_CURSEG_DATA	3
#define F2_NR_CURSEG_NODE	3

/* current segment types, in checkpoint order */
enum f2_curseg {
	F2_CURSEG_HOT_DATA = 0,
	F2_CURSEG_WARM_DATA = 1,
	F2_CURSEG_COLD_DATA = 2,
	F2_CURSEG_HOT_NODE = 3,
	F2_CURSEG_WARM_NODE = 4,
	F2_CURSEG_COLD_NODE = 5,
};

/* reserved inode numbers */
#define F2_NODE_INO		1
#define F2_META_INO		2
#define F2_ROOT_INO		3

/* ---- feature bits (superblock 'feature') ----------------------------- */
#define F2_FEAT_ENCRYPT		0x0001u
#define F2_FEAT_BLKZONED	0x0002u
#define F2_FEAT_ATOMIC_WRITE	0x0004u
#define F2_FEAT_EXTRA_ATTR	0x0008u
#define F2_FEAT_PRJQUOTA	0x0010u
#define F2_FEAT_INODE_CHKSUM	0x0020u
#define F2_FEAT_FLEX_INLINE_XATTR 0x0040u
#define F2_FEAT_QUOTA_INO	0x0080u
#define F2_FEAT_INODE_CRTIME	0x0100u
#define F2_FEAT_LOST_FOUND	0x0200u
#define F2_FEAT_VERITY		0x0400u
#define F2_FEAT_SB_CHKSUM	0x0800u
#define F2_FEAT_CASEFOLD	0x1000u
#define F2_FEAT_COMPRESSION	0x2000u
#define F2_FEAT_RO		0x4000u
/* bits of kernels after 6.12, not implemented here (f2/features.h) */
#define F2_FEAT_DEVICE_ALIAS	0x8000u
#define F2_FEAT_PACKED_SSA	0x10000u
/* every bit a kernel defines so far */
#define F2_FEAT_DEFINED		0x1ffffu

/* ---- superblock (at byte 1024 of blocks 0 and 1) -------------------- */
struct f2_device {
	uint8_t path[F2_MAX_PATH_LEN];
	le32 total_segments;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_device) == 68, "f2_device");

struct f2_super {
	le32 magic;			/* 0x000 */
	le16 major_ver;			/* 0x004 */
	le16 minor_ver;			/* 0x006 */
	le32 log_sectorsize;		/* 0x008 */
	le32 log_sectors_per_block;	/* 0x00c */
	le32 log_blocksize;		/* 0x010 */
	le32 log_blocks_per_seg;	/* 0x014 */
	le32 segs_per_sec;		/* 0x018 */
	le32 secs_per_zone;		/* 0x01c */
	le32 checksum_offset;		/* 0x020 */
	le64 block_count;		/* 0x024 */
	le32 section_count;		/* 0x02c */
	le32 segment_count;		/* 0x030 */
	le32 segment_count_ckpt;	/* 0x034 */
	le32 segment_count_sit;		/* 0x038 */
	le32 segment_count_nat;		/* 0x03c */
	le32 segment_count_ssa;		/* 0x040 */
	le32 segment_count_main;	/* 0x044 */
	le32 segment0_blkaddr;		/* 0x048 */
	le32 cp_blkaddr;		/* 0x04c */
	le32 sit_blkaddr;		/* 0x050 */
	le32 nat_blkaddr;		/* 0x054 */
	le32 ssa_blkaddr;		/* 0x058 */
	le32 main_blkaddr;		/* 0x05c */
	le32 root_ino;			/* 0x060 */
	le32 node_ino;			/* 0x064 */
	le32 meta_ino;			/* 0x068 */
	uint8_t uuid[16];		/* 0x06c */
	le16 volume_name[F2_MAX_VOLUME_NAME]; /* 0x07c, UTF-16LE */
	le32 extension_count;		/* 0x47c */
	uint8_t extension_list[F2_MAX_EXTENSION][F2_EXTENSION_LEN]; /* 0x480 */
	le32 cp_payload;		/* 0x680 */
	uint8_t version[F2_VERSION_LEN];	/* 0x684 */
	uint8_t init_version[F2_VERSION_LEN];	/* 0x784 */
	le32 feature;			/* 0x884 */
	uint8_t encryption_level;	/* 0x888 */
	uint8_t encrypt_pw_salt[16];	/* 0x889 */
	struct f2_device devs[F2_MAX_DEVICES];	/* 0x899 */
	le32 qf_ino[F2_MAX_QUOTAS];	/* 0xab9 */
	uint8_t hot_ext_count;		/* 0xac5 */
	le16 s_encoding;		/* 0xac6 */
	le16 s_encoding_flags;		/* 0xac8 */
	uint8_t s_stop_reason[F2_MAX_STOP_REASON]; /* 0xaca */
	uint8_t s_errors[F2_MAX_ERRORS];	/* 0xaea */
	uint8_t reserved[258];		/* 0xafa */
	le32 crc;			/* 0xbfc */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_super) == 3072, "f2_super");
_Static_assert(offsetof(struct f2_super, block_count) == 0x24, "sb block_count");
_Static_assert(offsetof(struct f2_super, uuid) == 0x6c, "sb uuid");
_Static_assert(offsetof(struct f2_super, cp_payload) == 0x680, "sb cp_payload");
_Static_assert(offsetof(struct f2_super, feature) == 0x884, "sb feature");
_Static_assert(offsetof(struct f2_super, devs) == 0x899, "sb devs");
_Static_assert(offsetof(struct f2_super, qf_ino) == 0xab9, "sb qf_ino");
_Static_assert(offsetof(struct f2_super, crc) == 0xbfc, "sb crc");
#define F2_SB_CHKSUM_OFFSET	offsetof(struct f2_super, crc)

#define F2_ENC_UTF8_12_1	1
#define F2_ENC_STRICT_MODE_FL	0x0001

/* ---- checkpoint ------------------------------------------------------- */
#define F2_CP_RESIZEFS		0x4000u
#define F2_CP_DISABLED_QUICK	0x2000u
#define F2_CP_DISABLED		0x1000u
#define F2_CP_QUOTA_NEED_FSCK	0x0800u
#define F2_CP_LARGE_NAT_BITMAP	0x0400u
#define F2_CP_NOCRC_RECOVERY	0x0200u
#define F2_CP_TRIMMED		0x0100u
#define F2_CP_NAT_BITS		0x0080u
#define F2_CP_CRC_RECOVERY	0x0040u
#define F2_CP_FASTBOOT		0x0020u
#define F2_CP_FSCK		0x0010u
#define F2_CP_ERROR		0x0008u
#define F2_CP_COMPACT_SUM	0x0004u
#define F2_CP_ORPHAN_PRESENT	0x0002u
#define F2_CP_UMOUNT		0x0001u

#define F2_CP_CHKSUM_OFFSET	4092	/* crc sits in the last 4 bytes of the block */
#define F2_MAX_BITMAP_IN_CP	3900	/* sit+nat version bitmaps inside the cp block */
#define F2_MAX_SIT_BITMAP_IN_CP	3836
#define F2_CP_MIN_CHKSUM_OFFSET	offsetof(struct f2_checkpoint, sit_nat_version_bitmap)

struct f2_checkpoint {
	le64 checkpoint_ver;		/* 0   */
	le64 user_block_count;		/* 8   */
	le64 valid_block_count;		/* 16  */
	le32 rsvd_segment_count;	/* 24  */
	le32 overprov_segment_count;	/* 28  */
	le32 free_segment_count;	/* 32  */
	le32 cur_node_segno[8];		/* 36  */
	le16 cur_node_blkoff[8];	/* 68  */
	le32 cur_data_segno[8];		/* 84  */
	le16 cur_data_blkoff[8];	/* 116 */
	le32 ckpt_flags;		/* 132 */
	le32 cp_pack_total_block_count;	/* 136 */
	le32 cp_pack_start_sum;		/* 140 */
	le32 valid_node_count;		/* 144 */
	le32 valid_inode_count;		/* 148 */
	le32 next_free_nid;		/* 152 */
	le32 sit_ver_bitmap_bytesize;	/* 156 */
	le32 nat_ver_bitmap_bytesize;	/* 160 */
	le32 checksum_offset;		/* 164 */
	le64 elapsed_time;		/* 168 */
	uint8_t alloc_type[F2_MAX_ACTIVE_LOGS];	/* 176 */
	uint8_t sit_nat_version_bitmap[];	/* 192 */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_checkpoint) == 192, "f2_checkpoint");
_Static_assert(offsetof(struct f2_checkpoint, ckpt_flags) == 132, "cp flags");
_Static_assert(offsetof(struct f2_checkpoint, alloc_type) == 176, "cp alloc_type");

/* alloc_type values */
#define F2_LFS	0
#define F2_SSR	1

/* ---- orphan block ----------------------------------------------------- */
#define F2_ORPHANS_PER_BLOCK	1020
struct f2_orphan_block {
	le32 ino[F2_ORPHANS_PER_BLOCK];
	le32 reserved;
	le16 blk_addr;		/* index of this block in the orphan area */
	le16 blk_count;		/* number of orphan blocks */
	le32 entry_count;	/* inos in this block */
	le32 check_sum;		/* crc32 of the first 4092 bytes */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_orphan_block) == F2_BLKSIZE, "f2_orphan_block");

/* ---- node blocks ------------------------------------------------------ */
struct f2_extent {
	le32 fofs;
	le32 blk;
	le32 len;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_extent) == 12, "f2_extent");

#define F2_NAME_LEN		255
#define F2_INLINE_XATTR_ADDRS	50	/* default inline xattr area, in 4-byte words */
#define F2_ADDRS_PER_INODE	923
#define F2_NIDS_PER_INODE	5
#define F2_ADDRS_PER_BLOCK	1018
#define F2_NIDS_PER_BLOCK	1018
#define F2_NODE_DIR1_BLOCK	0	/* index into i_nid[] */
#define F2_NODE_DIR2_BLOCK	1
#define F2_NODE_IND1_BLOCK	2
#define F2_NODE_IND2_BLOCK	3
#define F2_NODE_DIND_BLOCK	4

/* i_inline flags */
#define F2_INLINE_XATTR		0x01
#define F2_INLINE_DATA		0x02
#define F2_INLINE_DENTRY	0x04
#define F2_DATA_EXIST		0x08
#define F2_INLINE_DOTS		0x10
#define F2_EXTRA_ATTR		0x20
#define F2_PIN_FILE		0x40
#define F2_COMPRESS_RELEASED	0x80

/* i_advise flags */
#define F2_ADVISE_COLD		0x01
#define F2_ADVISE_LOST_PINO	0x02
#define F2_ADVISE_ENCRYPT	0x04
#define F2_ADVISE_ENC_NAME	0x08
#define F2_ADVISE_KEEP_SIZE	0x10
#define F2_ADVISE_HOT		0x20
#define F2_ADVISE_VERITY	0x40

struct f2_inode {
	le16 i_mode;			/* 0   */
	uint8_t i_advise;		/* 2   */
	uint8_t i_inline;		/* 3   */
	le32 i_uid;			/* 4   */
	le32 i_gid;			/* 8   */
	le32 i_links;			/* 12  */
	le64 i_size;			/* 16  */
	le64 i_blocks;			/* 24, in 512-byte sectors */
	le64 i_atime;			/* 32  */
	le64 i_ctime;			/* 40  */
	le64 i_mtime;			/* 48  */
	le32 i_atime_nsec;		/* 56  */
	le32 i_ctime_nsec;		/* 60  */
	le32 i_mtime_nsec;		/* 64  */
	le32 i_generation;		/* 68  */
	le32 i_current_depth;		/* 72, or i_gc_failures for files */
	le32 i_xattr_nid;		/* 76  */
	le32 i_flags;			/* 80  */
	le32 i_pino;			/* 84  */
	le32 i_namelen;			/* 88  */
	uint8_t i_name[F2_NAME_LEN];	/* 92  */
	uint8_t i_dir_level;		/* 347 */
	struct f2_extent i_ext;		/* 348 */
	union {				/* 360 */
		struct {
			le16 i_extra_isize;	/* 360 */
			le16 i_inline_xattr_size; /* 362, in 4-byte words */
			le32 i_projid;		/* 364 */
			le32 i_inode_checksum;	/* 368 */
			le64 i_crtime;		/* 372 */
			le32 i_crtime_nsec;	/* 380 */
			le64 i_compr_blocks;	/* 384 */
			uint8_t i_compress_algorithm; /* 392 */
			uint8_t i_log_cluster_size;   /* 393 */
			le16 i_compress_flag;	/* 394 */
			le32 i_extra_end[0];	/* 396 */
		} __attribute__((packed));
		le32 i_addr[F2_ADDRS_PER_INODE];
	};
	le32 i_nid[F2_NIDS_PER_INODE];	/* 4052 */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_inode) == 4072, "f2_inode");
_Static_assert(offsetof(struct f2_inode, i_ext) == 348, "inode i_ext");
_Static_assert(offsetof(struct f2_inode, i_addr) == 360, "inode i_addr");
_Static_assert(offsetof(struct f2_inode, i_inode_checksum) == 368, "inode csum");
_Static_assert(offsetof(struct f2_inode, i_extra_end) == 396, "inode extra end");
_Static_assert(offsetof(struct f2_inode, i_nid) == 4052, "inode i_nid");
#define F2_EXTRA_ISIZE		36	/* offsetof(i_extra_end) - offsetof(i_extra_isize) */
/* The largest i_inline_xattr_size (words) the kernel accepts: room is left
 * for the whole extra area, the reserved word and a minimal inline dentry. */
#define F2_MAX_INLINE_XATTR_WORDS (F2_ADDRS_PER_INODE - F2_EXTRA_ISIZE / 4 - 1 - 40 / 4)
#define F2_INODE_CSUM_OFFSET	offsetof(struct f2_inode, i_inode_checksum)

struct f2_direct_node {
	le32 addr[F2_ADDRS_PER_BLOCK];
} __attribute__((packed));
_Static_assert(sizeof(struct f2_direct_node) == 4072, "f2_direct_node");

struct f2_indirect_node {
	le32 nid[F2_NIDS_PER_BLOCK];
} __attribute__((packed));
_Static_assert(sizeof(struct f2_indirect_node) == 4072, "f2_indirect_node");

/* footer flag bits: the low 3 bits are marks, the rest is the node offset */
#define F2_FOOTER_COLD		0x1
#define F2_FOOTER_FSYNC		0x2
#define F2_FOOTER_DENT		0x4
#define F2_FOOTER_OFFSET_SHIFT	3

struct f2_node_footer {
	le32 nid;		/* 4072 */
	le32 ino;		/* 4076 */
	le32 flag;		/* 4080 */
	le64 cp_ver;		/* 4084 */
	le32 next_blkaddr;	/* 4092 */
} __attribute__((packed));
_Static_assert(sizeof(struct f2_node_footer) == 24, "f2_node_footer");

struct f2_node {
	union {
		struct f2_inode i;
		struct f2_direct_node dn;
		struct f2_indirect_node in;
	};
	struct f2_node_footer footer;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_node) == F2_BLKSIZE, "f2_node");
_Static_assert(offsetof(struct f2_node, footer) == 4072, "node footer");

/* ---- NAT -------------------------------------------------------------- */
struct f2_nat_entry {
	uint8_t version;
	le32 ino;
	le32 block_addr;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_nat_entry) == 9, "f2_nat_entry");
#define F2_NAT_ENTRIES_PER_BLOCK (F2_BLKSIZE / sizeof(struct f2_nat_entry))	/* 455 */
/* nids a NAT of segment_count_nat segments addresses (one copy is half) */
#define F2_NAT_NID_CAPACITY(segment_count_nat) \
	((uint64_t)((segment_count_nat) / 2) * F2_BLKS_PER_SEG * F2_NAT_ENTRIES_PER_BLOCK)

struct f2_nat_block {
	struct f2_nat_entry entries[F2_NAT_ENTRIES_PER_BLOCK];
	uint8_t pad[F2_BLKSIZE - F2_NAT_ENTRIES_PER_BLOCK * sizeof(struct f2_nat_entry)];
} __attribute__((packed));
_Static_assert(sizeof(struct f2_nat_block) == F2_BLKSIZE, "f2_nat_block");

/* ---- SIT -------------------------------------------------------------- */
#define F2_SIT_VBLOCK_MAP_SIZE	64
#define F2_SIT_VBLOCKS_SHIFT	10
#define F2_SIT_VBLOCKS_MASK	((1u << F2_SIT_VBLOCKS_SHIFT) - 1)
struct f2_sit_entry {
	le16 vblocks;		/* valid block count | segment type << 10 */
	uint8_t valid_map[F2_SIT_VBLOCK_MAP_SIZE];
	le64 mtime;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_sit_entry) == 74, "f2_sit_entry");
#define F2_SIT_ENTRIES_PER_BLOCK (F2_BLKSIZE / sizeof(struct f2_sit_entry))	/* 55 */

struct f2_sit_block {
	struct f2_sit_entry entries[F2_SIT_ENTRIES_PER_BLOCK];
	uint8_t pad[F2_BLKSIZE - F2_SIT_ENTRIES_PER_BLOCK * sizeof(struct f2_sit_entry)];
} __attribute__((packed));
_Static_assert(sizeof(struct f2_sit_block) == F2_BLKSIZE, "f2_sit_block");

/* ---- SSA summary blocks and journals --------------------------------- */
#define F2_ENTRIES_IN_SUM	512
#define F2_SUMMARY_SIZE		7
#define F2_SUM_FOOTER_SIZE	5
#define F2_SUM_ENTRY_SIZE	(F2_SUMMARY_SIZE * F2_ENTRIES_IN_SUM)
#define F2_SUM_JOURNAL_SIZE	(F2_BLKSIZE - F2_SUM_FOOTER_SIZE - F2_SUM_ENTRY_SIZE) /* 507 */
#define F2_SUM_TYPE_NODE	1
#define F2_SUM_TYPE_DATA	0

struct f2_summary {
	le32 nid;		/* owner node */
	union {
		uint8_t reserved[3];
		struct {
			uint8_t version;
			le16 ofs_in_node;
		} __attribute__((packed));
	};
} __attribute__((packed));
_Static_assert(sizeof(struct f2_summary) == F2_SUMMARY_SIZE, "f2_summary");

struct f2_summary_footer {
	uint8_t entry_type;
	le32 check_sum;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_summary_footer) == F2_SUM_FOOTER_SIZE, "sum footer");

struct f2_nat_journal_entry {
	le32 nid;
	struct f2_nat_entry ne;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_nat_journal_entry) == 13, "nat journal entry");

struct f2_sit_journal_entry {
	le32 segno;
	struct f2_sit_entry se;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_sit_journal_entry) == 78, "sit journal entry");

#define F2_NAT_JOURNAL_ENTRIES	((F2_SUM_JOURNAL_SIZE - 2) / 13)	/* 38 */
#define F2_SIT_JOURNAL_ENTRIES	((F2_SUM_JOURNAL_SIZE - 2) / 78)	/* 6 */
#define F2_EXTRA_INFO_SIZE	(F2_SUM_JOURNAL_SIZE - 2)		/* 505 */

struct f2_journal {
	union {
		le16 n_nats;
		le16 n_sits;
	};
	union {
		struct {
			struct f2_nat_journal_entry entries[F2_NAT_JOURNAL_ENTRIES];
			uint8_t reserved[F2_EXTRA_INFO_SIZE - F2_NAT_JOURNAL_ENTRIES * 13];
		} __attribute__((packed)) nat;
		struct {
			struct f2_sit_journal_entry entries[F2_SIT_JOURNAL_ENTRIES];
			uint8_t reserved[F2_EXTRA_INFO_SIZE - F2_SIT_JOURNAL_ENTRIES * 78];
		} __attribute__((packed)) sit;
		struct {
			le64 kbytes_written;
			uint8_t reserved[F2_EXTRA_INFO_SIZE - 8];
		} __attribute__((packed)) info;
	};
} __attribute__((packed));
_Static_assert(sizeof(struct f2_journal) == F2_SUM_JOURNAL_SIZE, "f2_journal");

struct f2_summary_block {
	struct f2_summary entries[F2_ENTRIES_IN_SUM];
	struct f2_journal journal;
	struct f2_summary_footer footer;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_summary_block) == F2_BLKSIZE, "f2_summary_block");
_Static_assert(offsetof(struct f2_summary_block, journal) == 3584, "sum journal");

/* ---- directories ------------------------------------------------------ */
#define F2_SLOT_LEN		8
#define F2_SLOT_LEN_BITS	3
#define F2_NR_DENTRY_IN_BLOCK	214
#define F2_DENTRY_BITMAP_SIZE	27	/* ceil(214 / 8) */
#define F2_DENTRY_RESERVED	3
#define F2_MAX_DIR_HASH_DEPTH	63

enum f2_ftype {
	F2_FT_UNKNOWN = 0,
	F2_FT_REG_FILE = 1,
	F2_FT_DIR = 2,
	F2_FT_CHRDEV = 3,
	F2_FT_BLKDEV = 4,
	F2_FT_FIFO = 5,
	F2_FT_SOCK = 6,
	F2_FT_SYMLINK = 7,
	F2_FT_MAX
};

/* The dentry file type of an inode mode (POSIX S_IFMT values, which the
 * on-disk i_mode uses). */
static inline uint8_t f2_ftype_of_mode(uint16_t mode)
{
	switch (mode & 0170000) {
	case 0100000: return F2_FT_REG_FILE;
	case 0040000: return F2_FT_DIR;
	case 0020000: return F2_FT_CHRDEV;
	case 0060000: return F2_FT_BLKDEV;
	case 0010000: return F2_FT_FIFO;
	case 0140000: return F2_FT_SOCK;
	case 0120000: return F2_FT_SYMLINK;
	}
	return F2_FT_UNKNOWN;
}

struct f2_dir_entry {
	le32 hash_code;
	le32 ino;
	le16 name_len;
	uint8_t file_type;
} __attribute__((packed));
_Static_assert(sizeof(struct f2_dir_entry) == 11, "f2_dir_entry");

struct f2_dentry_block {
	uint8_t dentry_bitmap[F2_DENTRY_BITMAP_SIZE];
	uint8_t reserved[F2_DENTRY_RESERVED];
	struct f2_dir_entry dentry[F2_NR_DENTRY_IN_BLOCK];
	uint8_t filename[F2_NR_DENTRY_IN_BLOCK][F2_SLOT_LEN];
} __attribute__((packed));
_Static_assert(sizeof(struct f2_dentry_block) == F2_BLKSIZE, "f2_dentry_block");

/*
 * Inline dentries live in the inline-data area of an inode.  Their count
 * depends on that area's size (see f2_inline_dentry_geom() in layout.h):
 * each slot costs 11 + 8 bytes plus one bitmap bit.
 */

/* ---- xattrs ----------------------------------------------------------- */
struct f2_xattr_header {
	le32 magic;
	le32 refcount;
	le32 reserved[4];
} __attribute__((packed));
_Static_assert(sizeof(struct f2_xattr_header) == 24, "f2_xattr_header");

struct f2_xattr_entry {
	uint8_t name_index;
	uint8_t name_len;
	le16 value_size;
	char name[];
} __attribute__((packed));
_Static_assert(sizeof(struct f2_xattr_entry) == 4, "f2_xattr_entry");
#define F2_XATTR_ALIGN(n)	(((n) + 3u) & ~3u)
#define F2_XATTR_BLOCK_SIZE	(F2_BLKSIZE - sizeof(struct f2_node_footer))	/* 4072 */

enum f2_xattr_index {
	F2_XATTR_INDEX_USER = 1,
	F2_XATTR_INDEX_POSIX_ACL_ACCESS = 2,
	F2_XATTR_INDEX_POSIX_ACL_DEFAULT = 3,
	F2_XATTR_INDEX_TRUSTED = 4,
	F2_XATTR_INDEX_LUSTRE = 5,
	F2_XATTR_INDEX_SECURITY = 6,
	F2_XATTR_INDEX_ADVISE = 7,
	F2_XATTR_INDEX_ENCRYPTION = 9,
	F2_XATTR_INDEX_VERITY = 11,
};

/* ---- NAT bits (the optional area at the end of a cp pack) ----------- */
#define F2_NAT_BITS_CRC_SIZE	8	/* le64 cp_ver ^ crc at the start */

#endif /* F2_FORMAT_H */
