// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_read_multidev.c - reading file data that lives on the second
 * device of a two-device volume: both devices in memory, joined by the
 * concat backend, formatted by our mkfs writer and filled through the
 * write engine until data spills past device 0; then a fresh read-only
 * open must return every byte, and some of them must come from blocks
 * inside device 1's range.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "f2/engine.h"
#include "f2/errors.h"
#include "f2/file.h"
#include "f2/fs.h"
#include "f2/io.h"
#include "f2/mkfs.h"
#include "unit.h"

#define DEV0	(64ull << 20)
#define DEV1	(192ull << 20)
#define FILE_MB	120

static uint8_t pattern(uint64_t off)
{
	return (uint8_t)((off * 2654435761u) >> 13);
}

int main(void)
{
	struct f2_io *d[2], *io;
	uint64_t lens[2];
	struct f2_mkfs_opts o;
	struct f2_geom g;
	struct f2_super sb;
	struct f2_fs *fs;
	struct f2_engine *w;
	struct f2_file *f;
	uint32_t ino = 0;
	size_t chunk = 1 << 20;
	uint8_t *buf = malloc(chunk), *back = malloc(chunk);
	int on_dev1 = 0;

	memset(&o, 0, sizeof(o));
	o.geom.sector_size = 512;
	o.geom.ndevs = 2;
	o.geom.devs[0].total_sectors = DEV0 / 512;
	o.geom.devs[1].total_sectors = DEV1 / 512;
	o.geom.segs_per_sec = 1;
	o.geom.secs_per_zone = 1;
	o.timestamp = 1000;
	o.cp_ver = 3;
	o.sb.ndevs = 2;
	o.sb.dev_paths[0] = "/dev/mem0";
	o.sb.dev_paths[1] = "/dev/mem1";
	memset(o.sb.uuid, 7, 16);
	CHECK_EQ(f2_geometry_compute(&o.geom, &g, NULL), 0);
	CHECK_EQ(f2_io_open_mem(DEV0, &d[0]), 0);
	CHECK_EQ(f2_io_open_mem(DEV1, &d[1]), 0);
	for (int i = 0; i < 2; i++)
		lens[i] = (g.dev_end_blkaddr[i] - g.dev_start_blkaddr[i] + 1) * F2_BLKSIZE;
	CHECK_EQ(f2_io_open_concat(d, lens, 2, &io), 0);
	CHECK_EQ(f2_mkfs_write(io, &o, &g, &sb, NULL, NULL), 0);

	/* fill through the write engine */
	CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	CHECK_EQ(fs->ndevs, 2);
	CHECK_EQ(f2_engine_open(fs, NULL, &w), 0);
	struct f2_wattr a = { .mode = S_IFREG | 0644, .mtime = 1000 };
	CHECK_EQ(f2_engine_create(w, F2_ROOT_INO, "big", 3, &a, &ino), 0);
	for (uint64_t off = 0; off < (uint64_t)FILE_MB << 20; off += chunk) {
		for (size_t i = 0; i < chunk; i++)
			buf[i] = pattern(off + i);
		if (f2_engine_write(w, ino, off, buf, chunk)) {
			fprintf(stderr, "write at %llu: %s\n", (unsigned long long)off, f2_engine_why(w));
			unit_failures++;
			break;
		}
	}
	CHECK_EQ(f2_engine_checkpoint(w), 0);
	f2_engine_close(w);
	f2_fs_close(fs);

	/* read it back through a fresh open */
	CHECK_EQ(f2_fs_open_io(io, NULL, &fs), 0);
	CHECK_EQ(fs->ndevs, 2);
	CHECK(fs->devs[1].start_blk > 0);
	CHECK_EQ(f2_file_open(fs, ino, &f), 0);
	CHECK_EQ(f->ir.size, (uint64_t)FILE_MB << 20);
	for (uint64_t b = 0; b < ((uint64_t)FILE_MB << 20) / F2_BLKSIZE; b++) {
		uint32_t addr;

		if (f2_file_map(f, b, &addr, NULL))
			break;
		if (addr >= fs->devs[1].start_blk && addr <= fs->devs[1].end_blk)
			on_dev1++;
	}
	CHECK(on_dev1 > 0);
	for (uint64_t off = 0; off < (uint64_t)FILE_MB << 20; off += chunk) {
		long n = f2_file_pread(f, off, back, chunk);
		size_t bad = chunk;

		CHECK_EQ(n, (long)chunk);
		for (size_t i = 0; i < chunk && bad == chunk; i++)
			if (back[i] != pattern(off + i))
				bad = i;
		if (bad != chunk) {
			fprintf(stderr, "mismatch at byte %llu\n", (unsigned long long)(off + bad));
			unit_failures++;
			break;
		}
	}
	printf("%d blocks of the file on device 1\n", on_dev1);
	f2_file_close(f);
	f2_fs_close(fs);
	f2_io_close(io);
	free(buf);
	free(back);
	UNIT_DONE();
}
