/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2sb.c - print an F2FS superblock (and optionally the current checkpoint)
 * as deterministic `name=value` lines, one per line, for tests to compare.
 *
 *   f2sb [--backup] [--cp] IMAGE
 *
 * Reads with plain pread(2) so it depends on nothing but format.h: tests can
 * use it while the library's I/O layer is still being written.  Every count
 * and offset taken from the image is bounded before use, so garbage input
 * yields an error message and exit status 1, never a crash.
 *
 * Output order follows struct f2_super (then struct f2_checkpoint).  Arrays
 * are printed as name[i]=value; the uuid as canonical hex; the volume name
 * decoded from UTF-16LE to UTF-8; version strings as text.  Bytes that are
 * not printable ASCII (and '\') are written as \xNN so each value stays on
 * one line.  Checkpoint lines are prefixed "cp." (checksum_offset exists in
 * both structures).  A few derived lines are not on-disk fields:
 * reserved_nonzero_bytes, crc_valid and cp.pack (1 or 2, the pack chosen:
 * both checksums valid, higher checkpoint_ver).
 *
 * Exit status: 0 printed, 1 unreadable or invalid image, 2 usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "f2/format.h"

#define CP_BLOCK_MAX_TOTAL	F2_BLKS_PER_SEG	/* a cp pack lives in one segment */

/*
 * CRC32 as F2FS uses it: reflected polynomial 0xEDB88320, seeded with the
 * superblock magic by the caller, no pre- or post-inversion.  Bitwise to stay
 * private and tiny; speed is irrelevant for a few blocks.
 */
static uint32_t sb_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return crc;
}

/* Read exactly len bytes at off; 0 on success, -1 on error or short read. */
static int read_full(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return -1;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Print bytes up to the first NUL (at most len), escaping non-printables. */
static void put_text(const uint8_t *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
			putchar(s[i]);
		else
			printf("\\x%02x", s[i]);
	}
}

static void put_hex(const uint8_t *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		printf("%02x", s[i]);
}

static void put_utf8(uint32_t c)
{
	if (c < 0x20 || c == 0x7f || c == '\\') {
		printf("\\x%02x", (unsigned)c);
	} else if (c < 0x80) {
		putchar((int)c);
	} else if (c < 0x800) {
		putchar((int)(0xc0 | c >> 6));
		putchar((int)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		putchar((int)(0xe0 | c >> 12));
		putchar((int)(0x80 | ((c >> 6) & 0x3f)));
		putchar((int)(0x80 | (c & 0x3f)));
	} else {
		putchar((int)(0xf0 | c >> 18));
		putchar((int)(0x80 | ((c >> 12) & 0x3f)));
		putchar((int)(0x80 | ((c >> 6) & 0x3f)));
		putchar((int)(0x80 | (c & 0x3f)));
	}
}

/* Decode UTF-16LE up to the first NUL; unpaired surrogates become U+FFFD. */
static void put_utf16le(const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t c = s[2 * i] | (uint32_t)s[2 * i + 1] << 8;

		if (c == 0)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
			uint32_t lo = s[2 * i + 2] | (uint32_t)s[2 * i + 3] << 8;

			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			} else {
				c = 0xfffd;
			}
		} else if (c >= 0xd800 && c < 0xe000) {
			c = 0xfffd;
		}
		put_utf8(c);
	}
}

#define PR_U(name, v)	printf("%s=%" PRIu64 "\n", name, (uint64_t)(v))
#define PR_X(name, v)	printf("%s=0x%" PRIx64 "\n", name, (uint64_t)(v))
#define SB32(f)		PR_U(#f, f2_le32(sb->f))
#define SB16(f)		PR_U(#f, f2_le16(sb->f))

static void print_super(const struct f2_super *sb)
{
	PR_X("magic", f2_le32(sb->magic));
	SB16(major_ver);
	SB16(minor_ver);
	SB32(log_sectorsize);
	SB32(log_sectors_per_block);
	SB32(log_blocksize);
	SB32(log_blocks_per_seg);
	SB32(segs_per_sec);
	SB32(secs_per_zone);
	SB32(checksum_offset);
	PR_U("block_count", f2_le64(sb->block_count));
	SB32(section_count);
	SB32(segment_count);
	SB32(segment_count_ckpt);
	SB32(segment_count_sit);
	SB32(segment_count_nat);
	SB32(segment_count_ssa);
	SB32(segment_count_main);
	SB32(segment0_blkaddr);
	SB32(cp_blkaddr);
	SB32(sit_blkaddr);
	SB32(nat_blkaddr);
	SB32(ssa_blkaddr);
	SB32(main_blkaddr);
	SB32(root_ino);
	SB32(node_ino);
	SB32(meta_ino);

	const uint8_t *u = sb->uuid;
	printf("uuid=%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	       "%02x%02x%02x%02x%02x%02x\n", u[0], u[1], u[2], u[3], u[4], u[5],
	       u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);

	printf("volume_name=");
	put_utf16le((const uint8_t *)sb + offsetof(struct f2_super, volume_name),
		    F2_MAX_VOLUME_NAME);
	putchar('\n');

	uint32_t ext = f2_le32(sb->extension_count);
	SB32(extension_count);
	/* cold extensions first, then hot_ext_count hot ones; bounded by 64 */
	uint64_t listed = (uint64_t)ext + sb->hot_ext_count;
	if (listed > F2_MAX_EXTENSION)
		listed = F2_MAX_EXTENSION;
	for (uint64_t i = 0; i < listed; i++) {
		printf("extension_list[%" PRIu64 "]=", i);
		put_text(sb->extension_list[i], F2_EXTENSION_LEN);
		putchar('\n');
	}

	SB32(cp_payload);
	printf("version=");
	put_text(sb->version, F2_VERSION_LEN);
	printf("\ninit_version=");
	put_text(sb->init_version, F2_VERSION_LEN);
	putchar('\n');
	PR_X("feature", f2_le32(sb->feature));
	PR_U("encryption_level", sb->encryption_level);
	printf("encrypt_pw_salt=");
	put_hex(sb->encrypt_pw_salt, sizeof(sb->encrypt_pw_salt));
	putchar('\n');

	for (int i = 0; i < F2_MAX_DEVICES; i++) {
		printf("devs[%d].path=", i);
		put_text(sb->devs[i].path, F2_MAX_PATH_LEN);
		printf("\ndevs[%d].total_segments=%" PRIu32 "\n", i,
		       f2_le32(sb->devs[i].total_segments));
	}
	for (int i = 0; i < F2_MAX_QUOTAS; i++)
		printf("qf_ino[%d]=%" PRIu32 "\n", i, f2_le32(sb->qf_ino[i]));
	PR_U("hot_ext_count", sb->hot_ext_count);
	PR_U("s_encoding", f2_le16(sb->s_encoding));
	PR_X("s_encoding_flags", f2_le16(sb->s_encoding_flags));
	printf("s_stop_reason=");
	put_hex(sb->s_stop_reason, sizeof(sb->s_stop_reason));
	printf("\ns_errors=");
	put_hex(sb->s_errors, sizeof(sb->s_errors));
	putchar('\n');

	unsigned nonzero = 0;
	for (size_t i = 0; i < sizeof(sb->reserved); i++)
		nonzero += sb->reserved[i] != 0;
	PR_U("reserved_nonzero_bytes", nonzero);	/* derived */

	PR_X("crc", f2_le32(sb->crc));
	/* derived: does crc match the stored checksum_offset (sb_checksum)? */
	uint32_t off = f2_le32(sb->checksum_offset);
	int valid = off == F2_SB_CHKSUM_OFFSET &&
		    sb_crc32(F2_SUPER_MAGIC, sb, off) == f2_le32(sb->crc);
	PR_U("crc_valid", valid);
}

/* A checkpoint block and whether its own checksum holds. */
static int cp_block_ok(const uint8_t *blk, uint64_t *ver)
{
	const struct f2_checkpoint *cp = (const void *)blk;
	uint32_t off = f2_le32(cp->checksum_offset);
	uint32_t stored;

	if (off < F2_CP_MIN_CHKSUM_OFFSET || off > F2_CP_CHKSUM_OFFSET)
		return 0;
	memcpy(&stored, blk + off, sizeof(stored));
	/*
	 * The crc covers the bytes before checksum_offset and, when the field
	 * sits early (CP_LARGE_NAT_BITMAP puts it at 192), also the bytes
	 * after it to the end of the block.
	 */
	uint32_t crc = sb_crc32(F2_SUPER_MAGIC, blk, off);
	if (off < F2_CP_CHKSUM_OFFSET)
		crc = sb_crc32(crc, blk + off + 4, F2_BLKSIZE - off - 4);
	if (crc != f2_le32(stored))
		return 0;
	*ver = f2_le64(cp->checkpoint_ver);
	return 1;
}

/*
 * A pack is valid when its first block and its last block (the copy at
 * cp_pack_total_block_count - 1) both pass the checksum and agree on the
 * version.  Returns 1 and fills first with the head block when valid.
 */
static int read_pack(int fd, uint64_t blkaddr, uint8_t *first, uint64_t *ver)
{
	uint8_t last[F2_BLKSIZE];
	uint64_t v1, v2;

	if (read_full(fd, first, F2_BLKSIZE, blkaddr * F2_BLKSIZE))
		return 0;
	if (!cp_block_ok(first, &v1))
		return 0;
	uint32_t total = f2_le32(((const struct f2_checkpoint *)first)->
				 cp_pack_total_block_count);
	if (total < 2 || total > CP_BLOCK_MAX_TOTAL)
		return 0;
	if (read_full(fd, last, F2_BLKSIZE, (blkaddr + total - 1) * F2_BLKSIZE))
		return 0;
	if (!cp_block_ok(last, &v2) || v1 != v2)
		return 0;
	*ver = v1;
	return 1;
}

/* checkpoint lines carry a "cp." prefix: checksum_offset exists in both */
#define CP32(f)	PR_U("cp." #f, f2_le32(cp->f))
#define CP64(f)	PR_U("cp." #f, f2_le64(cp->f))

static void print_cp(const struct f2_checkpoint *cp, int pack)
{
	const uint8_t *blk = (const void *)cp;
	uint32_t off = f2_le32(cp->checksum_offset);
	uint32_t stored;

	PR_U("cp.pack", pack);		/* derived: 1 or 2 */
	CP64(checkpoint_ver);
	CP64(user_block_count);
	CP64(valid_block_count);
	CP32(rsvd_segment_count);
	CP32(overprov_segment_count);
	CP32(free_segment_count);
	for (int i = 0; i < 8; i++)
		printf("cp.cur_node_segno[%d]=%" PRIu32 "\n", i,
		       f2_le32(cp->cur_node_segno[i]));
	for (int i = 0; i < 8; i++)
		printf("cp.cur_node_blkoff[%d]=%u\n", i,
		       (unsigned)f2_le16(cp->cur_node_blkoff[i]));
	for (int i = 0; i < 8; i++)
		printf("cp.cur_data_segno[%d]=%" PRIu32 "\n", i,
		       f2_le32(cp->cur_data_segno[i]));
	for (int i = 0; i < 8; i++)
		printf("cp.cur_data_blkoff[%d]=%u\n", i,
		       (unsigned)f2_le16(cp->cur_data_blkoff[i]));
	PR_X("cp.ckpt_flags", f2_le32(cp->ckpt_flags));
	CP32(cp_pack_total_block_count);
	CP32(cp_pack_start_sum);
	CP32(valid_node_count);
	CP32(valid_inode_count);
	CP32(next_free_nid);
	CP32(sit_ver_bitmap_bytesize);
	CP32(nat_ver_bitmap_bytesize);
	CP32(checksum_offset);
	CP64(elapsed_time);
	for (int i = 0; i < F2_MAX_ACTIVE_LOGS; i++)
		printf("cp.alloc_type[%d]=%u\n", i, (unsigned)cp->alloc_type[i]);
	/* off was bounded by cp_block_ok() before we got here */
	memcpy(&stored, blk + off, sizeof(stored));
	PR_X("cp.crc", f2_le32(stored));
}

static int dump_cp(int fd, const struct f2_super *sb, const char *path)
{
	uint8_t a[F2_BLKSIZE], b[F2_BLKSIZE];
	uint64_t va = 0, vb = 0;

	if (f2_le32(sb->log_blocksize) != F2_LOG_BLKSIZE ||
	    f2_le32(sb->log_blocks_per_seg) != F2_LOG_BLKS_PER_SEG) {
		fprintf(stderr, "f2sb: %s: unsupported block or segment size\n",
			path);
		return 1;
	}
	uint64_t cp0 = f2_le32(sb->cp_blkaddr);
	uint64_t blocks = f2_le64(sb->block_count);
	if (cp0 == 0 || cp0 + 2 * F2_BLKS_PER_SEG > blocks) {
		fprintf(stderr, "f2sb: %s: cp_blkaddr %" PRIu64
			" out of range\n", path, cp0);
		return 1;
	}
	int oka = read_pack(fd, cp0, a, &va);
	int okb = read_pack(fd, cp0 + F2_BLKS_PER_SEG, b, &vb);

	if (!oka && !okb) {
		fprintf(stderr, "f2sb: %s: no valid checkpoint pack\n", path);
		return 1;
	}
	if (oka && (!okb || va >= vb))
		print_cp((const void *)a, 1);
	else
		print_cp((const void *)b, 2);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: f2sb [--backup] [--cp] IMAGE\n"
		"  --backup  read the second superblock copy (block 1)\n"
		"  --cp      also print the current checkpoint pack\n");
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	int want_cp = 0, backup = 0;
	union {
		struct f2_super sb;
		uint8_t raw[sizeof(struct f2_super)];
	} u;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cp")) {
			want_cp = 1;
		} else if (!strcmp(argv[i], "--backup")) {
			backup = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage();
			return 0;
		} else if (argv[i][0] == '-' || path) {
			usage();
			return 2;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		usage();
		return 2;
	}

	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "f2sb: %s: %s\n", path, strerror(errno));
		return 1;
	}
	uint64_t off = (backup ? F2_BLKSIZE : 0) + F2_SUPER_OFFSET;
	if (read_full(fd, u.raw, sizeof(u.raw), off)) {
		fprintf(stderr, "f2sb: %s: cannot read superblock at byte %"
			PRIu64 "\n", path, off);
		close(fd);
		return 1;
	}
	if (f2_le32(u.sb.magic) != F2_SUPER_MAGIC) {
		fprintf(stderr, "f2sb: %s: bad magic 0x%08" PRIx32
			" at byte %" PRIu64 "\n", path, f2_le32(u.sb.magic), off);
		close(fd);
		return 1;
	}
	print_super(&u.sb);
	int rc = want_cp ? dump_cp(fd, &u.sb, path) : 0;
	close(fd);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "f2sb: write error\n");
		return 1;
	}
	return rc;
}
