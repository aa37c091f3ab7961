/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2replay - inspect and replay I/O write logs (made with F2_IO_RECORD).
 *
 *   f2replay count LOG                      number of records
 *   f2replay list LOG                       "index op off len", 1-based
 *   f2replay apply LOG IMAGE N [TORN]       apply records 1..N (N or "all")
 *                                           and TORN bytes of record N+1
 *   f2replay apply LOG IMAGE M:N [TORN]     IMAGE holds records 1..M already
 *                                           (a crash test's cursor): apply
 *                                           M+1..N and the torn bytes
 *     IMAGE is IMG0,IMG1,... for a log of a multi-device volume (mkfs -c):
 *     copies of its devices in order, joined as the log's header says
 *   f2replay same IMAGE1 IMAGE2             exit 0 if both hold the same
 *                                           bytes (holes read as zeroes;
 *                                           holes both have are skipped),
 *                                           1 with the first difference,
 *                                           3 if one cannot be read
 *   f2replay sum FILE...                    one hash of the files' contents
 *                                           (sizes, and every 4 KiB block
 *                                           that is not zero, by offset):
 *                                           "did anything change", reading
 *                                           only the data of sparse files
 *   f2replay run IMAGE OP...                do OPs through f2_io_open(), so
 *                                           F2_IO_RECORD/F2_IO_FAULT apply
 * OP is write:OFF:LEN:BYTE, zero:OFF:LEN, discard:OFF:LEN or flush; numbers
 * may be decimal or 0x-hex.  Exit 0 on success, 1 if an operation or the
 * log fails, 2 on a usage error.
 *
 * apply streams the log (records before a damaged one are applied) and
 * never fsyncs IMAGE, flush records included: it makes scratch copies for
 * crash tests, whose readers see the page cache.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include "f2/errors.h"
#include "f2/format.h"
#include "f2/io.h"
#include "f2/mkfs.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

static const char *const op_names[] = {
	[F2_LOG_WRITE] = "write", [F2_LOG_FLUSH] = "flush",
	[F2_LOG_DISCARD] = "discard", [F2_LOG_ZERO] = "zero",
};

static int usage(void)
{
	fprintf(stderr,
		"usage: f2replay count LOG\n"
		"       f2replay list LOG\n"
		"       f2replay apply LOG IMAGE[,IMAGE...] [M:]N|all [TORN_BYTES]\n"
		"       f2replay same IMAGE1 IMAGE2\n"
		"       f2replay sum FILE...\n"
		"       f2replay run IMAGE OP...\n"
		"OP: write:OFF:LEN:BYTE | zero:OFF:LEN | discard:OFF:LEN | flush\n");
	return EXIT_USAGE;
}

static int fail(const char *what, const char *name, int err)
{
	fprintf(stderr, "f2replay: %s %s: %s\n", what, name, f2_strerror(err));
	return EXIT_FAIL;
}

/* A whole unsigned number (decimal or 0x-hex); *end gets what follows. */
static bool parse_u64(const char *s, uint64_t *v, const char **end)
{
	char *e;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &e, 0);
	if (errno || e == s)
		return false;
	if (end)
		*end = e;
	else if (*e)
		return false;
	return true;
}

static int cmd_count(const char *log)
{
	long n = f2_log_count(log);

	if (n < 0)
		return fail("reading", log, (int)n);
	printf("%ld\n", n);
	return EXIT_OK;
}

static int cmd_list(const char *log)
{
	struct f2_log_reader *lr;
	struct f2_log_record rec;
	long i = 0;
	int ret = f2_log_open(log, &lr);

	if (ret)
		return fail("opening", log, ret);
	while ((ret = f2_log_next(lr, &rec)) == 1)
		printf("%ld %s %" PRIu64 " %" PRIu64 "\n", ++i, op_names[rec.op],
		       rec.off, rec.len);
	f2_log_close(lr);
	if (ret < 0) {
		fprintf(stderr, "f2replay: record %ld of %s: %s\n", i + 1, log, f2_strerror(ret));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* A device that passes everything to priv but flushes: no fsync. */
static int ns_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	return f2_io_read(io->priv, off, buf, len);
}
static int ns_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	return f2_io_write(io->priv, off, buf, len);
}
static int ns_flush(struct f2_io *io)
{
	(void)io;
	return 0;
}
static int ns_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	return f2_io_discard(io->priv, off, len);
}
static int ns_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	return f2_io_zero(io->priv, off, len);
}
static const struct f2_io_ops nosync_ops = {
	.name = "nosync", .read = ns_read, .write = ns_write, .flush = ns_flush,
	.discard = ns_discard, .zero = ns_zero,
};

/* "N", "all" or "M:N" (M <= N): *from = M (else 0), *nrec = N or -1. */
static bool parse_range(const char *s, long *from, long *nrec)
{
	const char *colon = strchr(s, ':');
	uint64_t m = 0, n;

	*from = 0;
	if (colon) {
		char head[32];

		if ((size_t)(colon - s) >= sizeof(head))
			return false;
		memcpy(head, s, colon - s);
		head[colon - s] = 0;
		if (!parse_u64(head, &m, NULL) || m > LONG_MAX)
			return false;
		s = colon + 1;
	}
	if (!colon && !strcmp(s, "all")) {
		*nrec = -1;
		return true;
	}
	if (!parse_u64(s, &n, NULL) || n > LONG_MAX || m > n)
		return false;
	*from = (long)m;
	*nrec = (long)n;
	return true;
}

/*
 * The images of list ("A" or "A,B,..."), read-write, joined as the log's
 * devices (n of lens[]) when there are several.  Prints why not.
 */
static int open_images(char *list, uint32_t n, const uint64_t *lens, struct f2_io **out)
{
	struct f2_io *devs[F2_MAX_DEVICES];
	uint32_t k = 0;
	int ret = 0;

	for (char *p = strtok(list, ","); p; p = strtok(NULL, ",")) {
		if (k == n) {
			fprintf(stderr, "f2replay: the log holds %u device(s), more images given\n", n);
			ret = F2_EBADOPT;
			break;
		}
		ret = f2_io_open_unix(p, F2_IO_RDWR, &devs[k]);
		if (ret) {
			fail("opening", p, ret);
			break;
		}
		k++;
	}
	if (!ret && k < n) {
		fprintf(stderr, "f2replay: the log holds %u devices, %u image(s) given\n", n, k);
		ret = F2_EBADOPT;
	}
	if (!ret && n == 1) {
		*out = devs[0];
		return 0;
	}
	if (!ret) {
		ret = f2_io_open_concat(devs, lens, n, out);
		if (!ret)
			return 0;
		fail("joining", "the images", ret);
	}
	while (k)
		f2_io_close(devs[--k]);
	return ret;
}

static int cmd_apply(int argc, char **argv)
{
	const char *log = argv[0];
	struct f2_log_reader *lr;
	struct f2_io *io, ns = { .ops = &nosync_ops };
	uint64_t torn = 0, logsize, lens[F2_MAX_DEVICES];
	uint32_t ndevs;
	long from, nrec;
	int ret;

	if (argc < 3 || argc > 4 || !parse_range(argv[2], &from, &nrec))
		return usage();
	if (argc == 4 && (!parse_u64(argv[3], &torn, NULL) || torn > SIZE_MAX))
		return usage();

	ret = f2_log_open(log, &lr);
	if (ret)
		return fail("opening", log, ret);
	logsize = f2_log_size(lr);
	ndevs = f2_log_devices(lr, lens);
	f2_log_close(lr);
	if (open_images(argv[1], ndevs, lens, &io))
		return EXIT_FAIL;
	if (io->size != logsize)
		fprintf(stderr, "f2replay: warning: %s has %" PRIu64 " bytes, the log was "
			"recorded on %" PRIu64 "\n", io->name, io->size, logsize);
	ns.size = io->size;
	ns.name = io->name;
	ns.priv = io;
	ret = f2_log_replay_from(log, &ns, from, nrec, (size_t)torn);
	f2_io_close(io);
	if (ret == F2_ERANGE && nrec >= 0 && f2_log_count(log) >= 0) {
		fprintf(stderr, "f2replay: %s holds only %ld records\n", log, f2_log_count(log));
		return EXIT_FAIL;
	}
	return ret ? fail("replaying", log, ret) : EXIT_OK;
}

/* Where the data at or after off starts in fd (size if none). */
static off_t next_data(int fd, off_t off, off_t size)
{
	off_t d = lseek(fd, off, SEEK_DATA);

	return d < 0 ? size : d;
}

/* Where the data run at off ends (size at most). */
static off_t next_hole(int fd, off_t off, off_t size)
{
	off_t h = lseek(fd, off, SEEK_HOLE);

	return h < 0 || h > size ? size : h;
}

/* Compare [off, end) of both files; 1 at the first difference. */
static int same_range(int fa, int fb, off_t off, off_t end, off_t *diff)
{
	static uint8_t a[1 << 16], b[1 << 16];

	while (off < end) {
		size_t n = end - off < (off_t)sizeof(a) ? (size_t)(end - off) : sizeof(a);

		if (pread(fa, a, n, off) != (ssize_t)n || pread(fb, b, n, off) != (ssize_t)n)
			return -EIO;
		if (memcmp(a, b, n)) {
			size_t i = 0;

			while (a[i] == b[i])
				i++;
			*diff = off + (off_t)i;
			return 1;
		}
		off += (off_t)n;
	}
	return 0;
}

static int cmd_same(const char *pa, const char *pb)
{
	struct stat sa, sb;
	int fa = open(pa, O_RDONLY | O_CLOEXEC), fb = open(pb, O_RDONLY | O_CLOEXEC);
	off_t off = 0, size, diff = 0;
	int ret = 0;

	if (fa < 0 || fb < 0 || fstat(fa, &sa) || fstat(fb, &sb)) {
		fprintf(stderr, "f2replay: cannot read %s or %s\n", pa, pb);
		ret = -EIO;
		goto out;
	}
	if (sa.st_size != sb.st_size) {
		printf("%s and %s differ in size\n", pa, pb);
		ret = 1;
		goto out;
	}
	size = sa.st_size;
	while (!ret && off < size) {
		off_t da = next_data(fa, off, size), db = next_data(fb, off, size);
		off_t start = da < db ? da : db, ea, eb;

		if (start >= size)
			break;
		/* up to where either file changes between data and hole */
		ea = da == start ? next_hole(fa, start, size) : da;
		eb = db == start ? next_hole(fb, start, size) : db;
		off = ea < eb ? ea : eb;
		ret = same_range(fa, fb, start, off, &diff);
	}
	if (ret == 1)
		printf("%s and %s differ at byte %lld\n", pa, pb, (long long)diff);
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return ret < 0 ? EXIT_USAGE + 1 : ret ? EXIT_FAIL : EXIT_OK;
}

/* One OP of "run", parsed before the device is opened. */
struct op {
	enum f2_log_op kind;
	uint64_t off, len, byte;
};

static bool parse_op(const char *s, struct op *op)
{
	const char *p;

	memset(op, 0, sizeof(*op));
	if (!strcmp(s, "flush")) {
		op->kind = F2_LOG_FLUSH;
		return true;
	}
	if (!strncmp(s, "write:", 6))
		op->kind = F2_LOG_WRITE;
	else if (!strncmp(s, "zero:", 5))
		op->kind = F2_LOG_ZERO;
	else if (!strncmp(s, "discard:", 8))
		op->kind = F2_LOG_DISCARD;
	else
		return false;
	p = strchr(s, ':') + 1;
	if (!parse_u64(p, &op->off, &p) || *p++ != ':')
		return false;
	if (op->kind != F2_LOG_WRITE)
		return parse_u64(p, &op->len, NULL);
	return parse_u64(p, &op->len, &p) && *p++ == ':' &&
	       parse_u64(p, &op->byte, NULL) && op->byte <= 255 && op->len <= SIZE_MAX;
}

static int run_op(struct f2_io *io, const struct op *op)
{
	void *buf;
	int ret;

	switch (op->kind) {
	case F2_LOG_FLUSH:
		return f2_io_flush(io);
	case F2_LOG_ZERO:
		return f2_io_zero(io, op->off, op->len);
	case F2_LOG_DISCARD:
		return f2_io_discard(io, op->off, op->len);
	case F2_LOG_WRITE:
		break;
	}
	buf = malloc(op->len ? op->len : 1);
	if (!buf)
		return -ENOMEM;
	memset(buf, (int)op->byte, op->len);
	ret = f2_io_write(io, op->off, buf, op->len);
	free(buf);
	return ret;
}

static int cmd_run(int argc, char **argv)
{
	struct f2_io *io;
	struct op *ops;
	int i, ret = 0;

	if (argc < 2)
		return usage();
	ops = calloc(argc, sizeof(*ops));
	if (!ops)
		return fail("running", argv[0], -ENOMEM);
	for (i = 1; i < argc; i++) {
		if (!parse_op(argv[i], &ops[i])) {
			fprintf(stderr, "f2replay: bad operation '%s'\n", argv[i]);
			free(ops);
			return usage();
		}
	}
	ret = f2_io_open(argv[0], F2_IO_RDWR, &io);
	if (ret) {
		free(ops);
		if (ret == F2_EBADOPT)
			fprintf(stderr, "f2replay: bad F2_IO_FAULT spec '%s'\n",
				getenv("F2_IO_FAULT") ? getenv("F2_IO_FAULT") : "");
		return fail("opening", argv[0], ret);
	}
	for (i = 1; i < argc && !ret; i++)
		ret = run_op(io, &ops[i]);
	f2_io_close(io);
	free(ops);
	return ret ? fail("operation", argv[i - 1], ret) : EXIT_OK;
}

/* One 64-bit step of the content hash of cmd_sum. */
static uint64_t sum_mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static int sum_file(const char *path, uint64_t *h)
{
	static uint64_t buf[(1 << 20) / 8];
	struct stat st;
	off_t off = 0, end, size;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "f2replay: cannot read %s\n", path);
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	size = st.st_size;
	*h = sum_mix(*h, (uint64_t)size);
	while ((off = next_data(fd, off, size)) < size) {
		end = next_hole(fd, off, size);
		off &= ~(off_t)4095;	/* whole blocks: SEEK_DATA may be finer */
		while (off < end) {
			size_t want = end - off < (off_t)sizeof(buf) ? (size_t)(end - off) : sizeof(buf);
			ssize_t got = pread(fd, buf, want, off);
			size_t b, w;

			if (got <= 0) {
				close(fd);
				return -EIO;
			}
			for (b = 0; b * 4096 < (size_t)got; b++) {
				uint64_t *blk = buf + b * 512, any = 0, bh;
				size_t left = (size_t)got - b * 4096;

				if (left < 4096)	/* a short tail reads as zeroes */
					memset((uint8_t *)blk + left, 0, 4096 - left);
				for (w = 0; w < 512; w++)
					any |= blk[w];
				if (!any)
					continue;
				bh = sum_mix(0x243f6a8885a308d3ULL, (uint64_t)off + b * 4096);
				for (w = 0; w < 512; w++)
					bh = sum_mix(bh, blk[w] + w);
				*h = sum_mix(*h, bh);
			}
			off += got;
		}
	}
	close(fd);
	return 0;
}

/* f2replay sum: the hash of FILE... in order, as 16 hex digits. */
static int cmd_sum(int argc, char **argv)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	int i;

	for (i = 0; i < argc; i++)
		if (sum_file(argv[i], &h))
			return EXIT_FAIL;
	printf("%016llx\n", (unsigned long long)h);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "count") && argc == 3)
		return cmd_count(argv[2]);
	if (!strcmp(argv[1], "list") && argc == 3)
		return cmd_list(argv[2]);
	if (!strcmp(argv[1], "same") && argc == 4)
		return cmd_same(argv[2], argv[3]);
	if (!strcmp(argv[1], "sum"))
		return cmd_sum(argc - 2, argv + 2);
	if (!strcmp(argv[1], "apply"))
		return cmd_apply(argc - 2, argv + 2);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	return usage();
}
