// SPDX-License-Identifier: GPL-2.0-or-later
/* sb.c - superblock: build from a geometry, verify, read and write. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/io.h"
#include "f2/sb.h"

#define F2_MAJOR_VER 1
#define F2_MINOR_VER 15	/* the format revision the reference writes */

/* Extensions whose data goes to the cold log by default: media and
 * archives that are written once.  "db" and VM disk images are hot. */
static const char *const default_cold_ext[] = {
	"mp", "wm", "og", "jp",
	"avi", "m4v", "m4p", "mkv", "mov", "webm",
	"wav", "m4a", "3gp", "opus", "flac",
	"gif", "png", "svg", "webp",
	"jar", "deb", "iso", "gz", "xz", "zst",
	"pdf", "pyc", "ttc", "ttf", "exe",
	"apk", "cnt", "exo", "odex", "vdex", "so",
	NULL,
};
static const char *const default_hot_ext[] = { "db", "vmdk", "vdi", "qcow2", NULL };

static int ext_present(const struct f2_super *sb, unsigned n, const char *e)
{
	for (unsigned i = 0; i < n; i++)
		if (!strncmp((const char *)sb->extension_list[i], e, F2_EXTENSION_LEN))
			return 1;
	return 0;
}

/* Append defaults then user extensions; returns the new count. */
static unsigned add_exts(struct f2_super *sb, unsigned pos,
			 const char *const *defaults, const char *user,
			 f2_warn_fn warn, void *ctx)
{
	for (; *defaults && pos < F2_MAX_EXTENSION; defaults++)
		memcpy(sb->extension_list[pos++], *defaults, strlen(*defaults));
	while (user && *user && pos < F2_MAX_EXTENSION) {
		size_t n = strcspn(user, ", ");
		char e[F2_EXTENSION_LEN + 1];

		if (n >= F2_EXTENSION_LEN) {
			if (warn)
				warn(ctx, "extension '%.*s' is too long, ignored", (int)n, user);
		} else if (n) {
			memcpy(e, user, n);
			e[n] = 0;
			if (!ext_present(sb, pos, e))
				memcpy(sb->extension_list[pos++], e, n);
		}
		user += n;
		user += strspn(user, ", ");
	}
	if (user && *user && warn)
		warn(ctx, "extension list is full (%d entries), '%s' ignored",
		     F2_MAX_EXTENSION, user);
	return pos;
}

int f2_utf8_to_utf16le(const char *in, le16 *out, size_t n)
{
	const uint8_t *p = (const uint8_t *)in;
	size_t o = 0;

	while (*p) {
		uint32_t cp;
		int extra;

		if (*p < 0x80) {
			cp = *p;
			extra = 0;
		} else if ((*p & 0xe0) == 0xc0) {
			cp = *p & 0x1f;
			extra = 1;
		} else if ((*p & 0xf0) == 0xe0) {
			cp = *p & 0x0f;
			extra = 2;
		} else if ((*p & 0xf8) == 0xf0) {
			cp = *p & 0x07;
			extra = 3;
		} else {
			return F2_ERANGE;
		}
		p++;
		for (int i = 0; i < extra; i++, p++) {
			if ((*p & 0xc0) != 0x80)
				return F2_ERANGE;
			cp = cp << 6 | (*p & 0x3f);
		}
		if (cp >= 0x10000) {
			if (o + 2 > n)
				return F2_ERANGE;
			cp -= 0x10000;
			out[o++] = f2_cpu_to_le16((uint16_t)(0xd800 | cp >> 10));
			out[o++] = f2_cpu_to_le16((uint16_t)(0xdc00 | (cp & 0x3ff)));
		} else {
			if (o + 1 > n)
				return F2_ERANGE;
			out[o++] = f2_cpu_to_le16((uint16_t)cp);
		}
	}
	return 0;
}

void f2_utf16le_to_utf8(const le16 *in, size_t n, char *out, size_t out_len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < out_len; i++) {
		uint32_t c = f2_le16(in[i]);

		if (!c)
			break;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
			uint32_t lo = f2_le16(in[i + 1]);

			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i++;
			}
		}
		if (c < 0x80) {
			out[o++] = (char)c;
		} else if (c < 0x800) {
			out[o++] = (char)(0xc0 | c >> 6);
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			out[o++] = (char)(0xe0 | c >> 12);
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[o++] = (char)(0xf0 | c >> 18);
			out[o++] = (char)(0x80 | ((c >> 12) & 0x3f));
			out[o++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[o < out_len ? o : out_len - 1] = 0;
}

void f2_sb_build(const struct f2_geom *g, const struct f2_sb_opts *o,
		 struct f2_super *sb, f2_warn_fn warn, void *ctx)
{
	unsigned n;

	memset(sb, 0, sizeof(*sb));
	f2_set_le32(sb->magic, F2_SUPER_MAGIC);
	f2_set_le16(sb->major_ver, F2_MAJOR_VER);
	f2_set_le16(sb->minor_ver, F2_MINOR_VER);
	f2_set_le32(sb->log_sectorsize, g->log_sectorsize);
	f2_set_le32(sb->log_sectors_per_block, g->log_sectors_per_block);
	f2_set_le32(sb->log_blocksize, F2_LOG_BLKSIZE);
	f2_set_le32(sb->log_blocks_per_seg, F2_LOG_BLKS_PER_SEG);
	f2_set_le32(sb->segs_per_sec, g->segs_per_sec);
	f2_set_le32(sb->secs_per_zone, g->secs_per_zone);
	f2_set_le64(sb->block_count, g->block_count);
	f2_set_le32(sb->section_count, g->section_count);
	f2_set_le32(sb->segment_count, g->segment_count);
	f2_set_le32(sb->segment_count_ckpt, g->segment_count_ckpt);
	f2_set_le32(sb->segment_count_sit, g->segment_count_sit);
	f2_set_le32(sb->segment_count_nat, g->segment_count_nat);
	f2_set_le32(sb->segment_count_ssa, g->segment_count_ssa);
	f2_set_le32(sb->segment_count_main, g->segment_count_main);
	f2_set_le32(sb->segment0_blkaddr, g->segment0_blkaddr);
	f2_set_le32(sb->cp_blkaddr, g->cp_blkaddr);
	f2_set_le32(sb->sit_blkaddr, g->sit_blkaddr);
	f2_set_le32(sb->nat_blkaddr, g->nat_blkaddr);
	f2_set_le32(sb->ssa_blkaddr, g->ssa_blkaddr);
	f2_set_le32(sb->main_blkaddr, g->main_blkaddr);
	f2_set_le32(sb->root_ino, F2_ROOT_INO);
	f2_set_le32(sb->node_ino, F2_NODE_INO);
	f2_set_le32(sb->meta_ino, F2_META_INO);
	memcpy(sb->uuid, o->uuid, 16);
	if (o->label) {
		le16 name[F2_MAX_VOLUME_NAME] = { 0 };

		f2_utf8_to_utf16le(o->label, name, F2_MAX_VOLUME_NAME);
		memcpy(sb->volume_name, name, sizeof(name));
	}
	n = add_exts(sb, 0, default_cold_ext, o->cold_ext, warn, ctx);
	f2_set_le32(sb->extension_count, n);
	sb->hot_ext_count = (uint8_t)(add_exts(sb, n, default_hot_ext, o->hot_ext,
					       warn, ctx) - n);
	f2_set_le32(sb->cp_payload, g->cp_payload);
	if (o->version) {
		strncpy((char *)sb->version, o->version, F2_VERSION_LEN - 1);
		memcpy(sb->init_version, sb->version, F2_VERSION_LEN);
	}
	f2_set_le32(sb->feature, o->features);
	if (o->ndevs > 1) {
		for (uint32_t i = 0; i < o->ndevs && i < F2_MAX_DEVICES; i++) {
			strncpy((char *)sb->devs[i].path, o->dev_paths[i],
				F2_MAX_PATH_LEN - 1);
			f2_set_le32(sb->devs[i].total_segments, g->dev_total_segments[i]);
		}
	}
	if (o->features & F2_FEAT_CASEFOLD) {
		f2_set_le16(sb->s_encoding, o->encoding);
		f2_set_le16(sb->s_encoding_flags, o->encoding_flags);
	}
}

uint32_t f2_sb_assign_inos(struct f2_super *sb, uint32_t *lpf_ino)
{
	uint32_t feat = f2_le32(sb->feature), nid = F2_ROOT_INO + 1;

	if (feat & F2_FEAT_QUOTA_INO) {
		f2_set_le32(sb->qf_ino[0], nid++);	/* user */
		f2_set_le32(sb->qf_ino[1], nid++);	/* group */
		if (feat & F2_FEAT_PRJQUOTA)
			f2_set_le32(sb->qf_ino[2], nid++);
	}
	*lpf_ino = (feat & F2_FEAT_LOST_FOUND) ? nid++ : 0;
	return nid;
}

void f2_sb_set_crc(struct f2_super *sb)
{
	if (f2_le32(sb->feature) & F2_FEAT_SB_CHKSUM) {
		f2_set_le32(sb->checksum_offset, F2_SB_CHKSUM_OFFSET);
		f2_set_le32(sb->crc, f2_crc32(F2_SUPER_MAGIC, sb, F2_SB_CHKSUM_OFFSET));
	}
}


int f2_sb_verify(const struct f2_super *sb, uint64_t dev_blocks,
		 char *why, size_t wl)
{
	uint32_t segs_per_sec = f2_le32(sb->segs_per_sec);
	uint32_t secs_per_zone = f2_le32(sb->secs_per_zone);
	uint32_t seg0 = f2_le32(sb->segment0_blkaddr);
	uint32_t segs = f2_le32(sb->segment_count);
	uint32_t main_segs = f2_le32(sb->segment_count_main);
	uint64_t blocks = f2_le64(sb->block_count);
	uint32_t area_segs[] = {
		f2_le32(sb->segment_count_ckpt), f2_le32(sb->segment_count_sit),
		f2_le32(sb->segment_count_nat), f2_le32(sb->segment_count_ssa),
		main_segs,
	};
	uint32_t area_addr[] = {
		f2_le32(sb->cp_blkaddr), f2_le32(sb->sit_blkaddr),
		f2_le32(sb->nat_blkaddr), f2_le32(sb->ssa_blkaddr),
		f2_le32(sb->main_blkaddr),
	};
	static const char *const area_name[] = { "checkpoint", "SIT", "NAT", "SSA", "main" };
	uint64_t next = seg0;

	if (f2_le32(sb->magic) != F2_SUPER_MAGIC)
		return f2_why(why, wl, F2_EBADMAGIC, "magic 0x%08x is not f2fs", f2_le32(sb->magic));
	if (f2_le32(sb->feature) & F2_FEAT_SB_CHKSUM) {
		uint32_t off = f2_le32(sb->checksum_offset);

		if (off != F2_SB_CHKSUM_OFFSET)
			return f2_why(why, wl, F2_ECORRUPT, "checksum_offset %u, expected %zu",
				   off, F2_SB_CHKSUM_OFFSET);
		if (f2_crc32(F2_SUPER_MAGIC, sb, off) != f2_le32(sb->crc))
			return f2_why(why, wl, F2_EBADCRC, "superblock checksum mismatch");
	}
	if (f2_le32(sb->log_blocksize) != F2_LOG_BLKSIZE) {
		uint32_t lb = f2_le32(sb->log_blocksize);

		/* Linux 6.12 makes blocks as large as pages: 16 KiB, 64 KiB */
		if (lb >= 9 && lb <= 16)
			return f2_why(why, wl, F2_EUNSUPP, "block size %u is not supported (this "
				      "version handles 4096-byte blocks only)", 1u << lb);
		return f2_why(why, wl, F2_ECORRUPT, "log_blocksize %u is no block size", lb);
	}
	if (f2_le32(sb->log_blocks_per_seg) != F2_LOG_BLKS_PER_SEG)
		return f2_why(why, wl, F2_EUNSUPP, "2^%u blocks per segment is not 512",
			   f2_le32(sb->log_blocks_per_seg));
	if (f2_le32(sb->log_sectorsize) < 9 || f2_le32(sb->log_sectorsize) > 12 ||
	    f2_le32(sb->log_sectorsize) + f2_le32(sb->log_sectors_per_block) != 12)
		return f2_why(why, wl, F2_ECORRUPT, "sector size fields %u/%u inconsistent",
			   f2_le32(sb->log_sectorsize), f2_le32(sb->log_sectors_per_block));
	if (!segs_per_sec || !secs_per_zone || segs_per_sec > segs ||
	    secs_per_zone > segs / segs_per_sec)
		return f2_why(why, wl, F2_ECORRUPT, "segs_per_sec %u / secs_per_zone %u invalid",
			   segs_per_sec, secs_per_zone);
	if (blocks > 0xFFFFFFFFull || (dev_blocks && blocks > dev_blocks))
		return f2_why(why, wl, F2_ERANGE, "block_count %llu exceeds the device (%llu blocks)",
			   (unsigned long long)blocks, (unsigned long long)dev_blocks);
	if ((uint64_t)seg0 + (uint64_t)segs * F2_BLKS_PER_SEG > blocks)
		return f2_why(why, wl, F2_ERANGE, "%u segments from block %u exceed block_count %llu",
			   segs, seg0, (unsigned long long)blocks);
	for (int i = 0; i < 5; i++) {
		if (area_addr[i] != next)
			return f2_why(why, wl, F2_ECORRUPT, "%s area starts at block %u, expected %llu",
				   area_name[i], area_addr[i], (unsigned long long)next);
		next += (uint64_t)area_segs[i] * F2_BLKS_PER_SEG;
	}
	if (next > (uint64_t)seg0 + (uint64_t)segs * F2_BLKS_PER_SEG)
		return f2_why(why, wl, F2_ECORRUPT, "areas end at block %llu past segment_count",
			   (unsigned long long)next);
	if (area_segs[0] != 2 || area_segs[1] % 2 || area_segs[2] % 2 ||
	    !area_segs[1] || !area_segs[2])
		return f2_why(why, wl, F2_ECORRUPT, "area sizes ckpt %u sit %u nat %u invalid",
			   area_segs[0], area_segs[1], area_segs[2]);
	if (main_segs != f2_le32(sb->section_count) * (uint64_t)segs_per_sec || !main_segs)
		return f2_why(why, wl, F2_ECORRUPT, "segment_count_main %u != section_count %u x %u",
			   main_segs, f2_le32(sb->section_count), segs_per_sec);
	if ((uint64_t)area_segs[1] / 2 * F2_BLKS_PER_SEG * F2_SIT_ENTRIES_PER_BLOCK < main_segs)
		return f2_why(why, wl, F2_ECORRUPT, "SIT area too small for %u segments", main_segs);
	/* a read-only volume (feature ro) has no SSA: its blocks never move */
	if (!(f2_le32(sb->feature) & F2_FEAT_RO) &&
	    (uint64_t)area_segs[3] * F2_ENTRIES_IN_SUM < main_segs)
		return f2_why(why, wl, F2_ECORRUPT, "SSA area too small for %u segments", main_segs);
	if (f2_le32(sb->cp_payload) > F2_BLKS_PER_SEG - 8)
		return f2_why(why, wl, F2_ERANGE, "cp_payload %u too large", f2_le32(sb->cp_payload));
	if (f2_le32(sb->root_ino) != F2_ROOT_INO || f2_le32(sb->node_ino) != F2_NODE_INO ||
	    f2_le32(sb->meta_ino) != F2_META_INO)
		return f2_why(why, wl, F2_ECORRUPT, "reserved inode numbers %u/%u/%u unexpected",
			   f2_le32(sb->root_ino), f2_le32(sb->node_ino), f2_le32(sb->meta_ino));
	if (f2_le32(sb->extension_count) + sb->hot_ext_count > F2_MAX_EXTENSION)
		return f2_why(why, wl, F2_ERANGE, "%u+%u extensions exceed %d",
			   f2_le32(sb->extension_count), sb->hot_ext_count, F2_MAX_EXTENSION);
	return 0;
}

/*
 * A 4 KiB write can tear: a copy cut after its first sectors could carry
 * a good magic over a half-written superblock, which readers would take.
 * So each copy goes down in two steps: the whole block (its first 1024
 * bytes, boot code, kept as they are) with the magic field as it is on
 * the device now, a flush, then the one 512-byte sector holding the new
 * magic (sector writes are atomic), and a flush.  A copy without a good
 * magic (a new volume's zeroed block, a damaged copy) thus gets one only
 * once the rest of it is down; a copy that has one (a valid backup
 * being reconciled) keeps it, and is never made invalid on the way.
 * Each copy is complete before the next is touched.
 */
int f2_sb_write_copies(struct f2_io *io, struct f2_super *sb, unsigned which)
{
	uint8_t blk[F2_BLKSIZE];
	int err = 0;

	f2_sb_set_crc(sb);
	for (int i = 0; i < 2 && !err; i++) {
		uint64_t at = (uint64_t)i * F2_BLKSIZE;
		uint8_t magic[sizeof(sb->magic)];

		if (!(which & (1u << i)))
			continue;
		err = f2_io_read_block(io, (uint64_t)i, blk);
		if (err)
			break;
		memcpy(magic, blk + F2_SUPER_OFFSET, sizeof(magic));
		memcpy(blk + F2_SUPER_OFFSET, sb, sizeof(*sb));
		memcpy(blk + F2_SUPER_OFFSET, magic, sizeof(magic));
		err = f2_io_write(io, at, blk, F2_BLKSIZE);
		if (!err)
			err = f2_io_flush(io);
		memcpy(blk + F2_SUPER_OFFSET, sb, sizeof(sb->magic));
		if (!err)
			err = f2_io_write(io, at + F2_SUPER_OFFSET, blk + F2_SUPER_OFFSET, 512);
		if (!err)
			err = f2_io_flush(io);
	}
	return err;
}

int f2_sb_read(struct f2_io *io, struct f2_super *sb, int *which,
	       char *why, size_t why_len)
{
	uint8_t blk[F2_BLKSIZE];
	int err = F2_EBADMAGIC;
	uint64_t dev_blocks = io->size / F2_BLKSIZE;

	for (int i = 0; i < 2; i++) {
		int rerr = f2_io_read_block(io, (uint64_t)i, blk);

		if (rerr) {
			err = rerr;
			f2_why(why, why_len, rerr, "cannot read superblock %d: %s", i,
			    f2_strerror(rerr));
			continue;
		}
		memcpy(sb, blk + F2_SUPER_OFFSET, sizeof(*sb));
		err = f2_sb_verify(sb, dev_blocks, why, why_len);
		if (!err) {
			if (which)
				*which = i;
			return 0;
		}
	}
	return err;
}
