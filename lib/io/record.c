/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.c - the recording backend and the write-log reader and replayer.
 *
 * Every write, flush, discard and zero goes to the lower backend first and
 * is appended to the log only if it succeeded, so the log never claims a
 * write that did not happen.  Records go out with plain write(2), unbuffered,
 * so a process killed at any point leaves every completed call in the log.
 *
 * Log format (all little-endian):
 *   file header, 24 bytes
 *     0  magic[8]  "F2IOLOG1"
 *     8  le64      device size in bytes
 *    16  le32      owner   f2_crc32(~0, pid of the recording process as
 *                            le32, then the device path)
 *    20  le32      crc     f2_crc32(~0, bytes 0..19)
 *   or, for several devices joined into one address space (a mkfs -c
 *   volume), the version-2 header, 28 + 8 * ndevs bytes
 *     0  magic[8]  "F2IOLOG2"
 *     8  le64      joined size in bytes (the sum of the device sizes)
 *    16  le32      owner   as above (the first device's path)
 *    20  le32      ndevs   2..F2_MAX_DEVICES
 *    24  le64      size of each device, in order: device i starts where
 *                            device i-1 ends in the joined space
 *  24+8n le32      crc     f2_crc32(~0, every byte before it)
 *   then records, each a 24-byte header
 *     0  le32      op      enum f2_log_op
 *     4  le64      off
 *    12  le64      len     (0 for flush)
 *    20  le32      hcrc    f2_crc32(~0, bytes 0..19)
 *   and, for F2_LOG_WRITE only, len data bytes and le32 dcrc =
 *   f2_crc32(hcrc, data, len).  In a version-2 log off is in the joined
 *   space: a replay joins copies of the devices the same way (lib/io/concat.c)
 *   and applies the records to that, so one ordered log covers every device.
 *
 * A process that opens the same log again for the same device (mkfs
 * --root: mkfs, then populate, each opening the device) appends to it:
 * the header's owner and size say it is its own; any other open, another
 * device of the same process included, starts the log over (a log holds
 * one device, or one join of several: record above the join).
 *
 * The header has its own crc so a damaged length is never trusted.  A record
 * cut short by the end of the file is what a killed recorder leaves behind:
 * the reader treats it as the end of the log.  Anything else that does not
 * check out (bad magic or crc, unknown op, range past the device) is
 * F2_EBADLOG.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "f2/crc.h"
#include "f2/errors.h"
#include "f2/format.h"
#include "io_private.h"

#define LOG_MAGIC	"F2IOLOG1"	/* one device */
#define LOG_MAGIC_JOINED "F2IOLOG2"	/* several devices joined */
/* The longest header: version 2 with every device. */
#define LOG_HEADER_MAX	(28 + 8 * F2_MAX_DEVICES)

struct log_rec {
	le32 op;		/* 0x00 */
	le64 off;		/* 0x04 */
	le64 len;		/* 0x0c */
	le32 hcrc;		/* 0x14 */
} __attribute__((packed));
_Static_assert(sizeof(struct log_rec) == 24, "log_rec");

static uint32_t log_crc(uint32_t seed, const void *buf, size_t len)
{
	return f2_crc32(seed, buf, len);
}

/* ---- recording backend ------------------------------------------------ */

struct record_priv {
	int fd;
	int failed;	/* first log write error; later calls fail with it */
};

static int write_full(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

/* Append one record; data is NULL except for writes. */
static int append(struct record_priv *r, enum f2_log_op op, uint64_t off,
		  uint64_t len, const void *data)
{
	struct log_rec h;
	uint32_t hcrc;
	le32 dcrc;
	int ret;

	f2_set_le32(h.op, op);
	f2_set_le64(h.off, off);
	f2_set_le64(h.len, len);
	hcrc = log_crc(~0u, &h, offsetof(struct log_rec, hcrc));
	f2_set_le32(h.hcrc, hcrc);
	ret = write_full(r->fd, &h, sizeof(h));
	if (!ret && data) {
		dcrc = f2_cpu_to_le32(log_crc(hcrc, data, len));
		ret = write_full(r->fd, data, len);
		if (!ret)
			ret = write_full(r->fd, &dcrc, sizeof(dcrc));
	}
	/* The log has lost sync with the device: stop writing for good. */
	if (ret)
		r->failed = ret;
	return ret;
}

/* Log a call that reached the lower device (ret is its result). */
static int logged(struct f2_io *io, int ret, enum f2_log_op op, uint64_t off,
		  uint64_t len, const void *data)
{
	return ret ? ret : append(io->priv, op, off, len, data);
}

static int record_failed(struct f2_io *io)
{
	return ((struct record_priv *)io->priv)->failed;
}

static int record_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	return f2_io_read(io->lower, off, buf, len);
}

static int record_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	int ret = record_failed(io);

	if (ret)
		return ret;
	return logged(io, f2_io_write(io->lower, off, buf, len), F2_LOG_WRITE, off, len, buf);
}

static int record_flush(struct f2_io *io)
{
	int ret = record_failed(io);

	if (ret)
		return ret;
	return logged(io, f2_io_flush(io->lower), F2_LOG_FLUSH, 0, 0, NULL);
}

static int record_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	int ret = record_failed(io);

	if (ret)
		return ret;
	return logged(io, f2_io_discard(io->lower, off, len), F2_LOG_DISCARD, off, len, NULL);
}

static int record_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	int ret = record_failed(io);

	if (ret)
		return ret;
	return logged(io, f2_io_zero(io->lower, off, len), F2_LOG_ZERO, off, len, NULL);
}

static void record_close(struct f2_io *io)
{
	struct record_priv *r = io->priv;

	close(r->fd);
	free(r);
}

static const struct f2_io_ops record_ops = {
	.name = "record",
	.read = record_read,
	.write = record_write,
	.flush = record_flush,
	.discard = record_discard,
	.zero = record_zero,
	.close = record_close,
};

/*
 * The file header for a device of size bytes made of n joined devices of
 * lens[] bytes (version 1 when n is 1) into h; returns its length.
 */
static size_t make_header(uint8_t *h, uint64_t size, uint32_t owner, const uint64_t *lens,
			  uint32_t n)
{
	le64 v64 = f2_cpu_to_le64(size);
	le32 v32 = f2_cpu_to_le32(owner);
	size_t at = 20;

	memcpy(h, n > 1 ? LOG_MAGIC_JOINED : LOG_MAGIC, 8);
	memcpy(h + 8, &v64, 8);
	memcpy(h + 16, &v32, 4);
	if (n > 1) {
		v32 = f2_cpu_to_le32(n);
		memcpy(h + at, &v32, 4);
		at += 4;
		for (uint32_t i = 0; i < n; i++, at += 8) {
			v64 = f2_cpu_to_le64(lens[i]);
			memcpy(h + at, &v64, 8);
		}
	}
	v32 = f2_cpu_to_le32(log_crc(~0u, h, at));
	memcpy(h + at, &v32, 4);
	return at + 4;
}

/* True if logpath starts with the len bytes of h (this process's header). */
static bool own_log(const char *logpath, const uint8_t *h, size_t len)
{
	uint8_t old[LOG_HEADER_MAX];
	int fd = open(logpath, O_RDONLY | O_CLOEXEC);
	bool same;

	if (fd < 0)
		return false;
	same = read(fd, old, len) == (ssize_t)len && !memcmp(old, h, len);
	close(fd);
	return same;
}

int f2_io_open_record_joined(struct f2_io *lower, const char *logpath, const uint64_t *lens,
			     uint32_t n, struct f2_io **out)
{
	uint8_t h[LOG_HEADER_MAX];
	struct record_priv *r;
	struct f2_io *io;
	uint64_t total = 0;
	size_t hlen;
	bool append;
	le32 pid;
	int ret;

	*out = NULL;
	if (n < 1 || n > F2_MAX_DEVICES)
		return F2_EBADOPT;
	for (uint32_t i = 0; i < n; i++) {
		if (lens[i] > UINT64_MAX - total)
			return F2_EBADOPT;
		total += lens[i];
	}
	if (total != lower->size)
		return F2_EBADOPT;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	f2_set_le32(pid, (uint32_t)getpid());
	hlen = make_header(h, lower->size, log_crc(log_crc(~0u, &pid, sizeof(pid)), lower->name,
						   strlen(lower->name)), lens, n);
	append = own_log(logpath, h, hlen);
	r->fd = open(logpath, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
	if (r->fd < 0) {
		ret = -errno;
		free(r);
		return ret;
	}
	ret = append ? 0 : write_full(r->fd, h, hlen);
	if (ret)
		goto fail;
	io = f2_io_alloc(&record_ops, lower->size, lower->name, lower);
	if (!io) {
		ret = -ENOMEM;
		goto fail;
	}
	io->priv = r;
	*out = io;
	return 0;
fail:
	close(r->fd);
	free(r);
	return ret;
}

int f2_io_open_record(struct f2_io *lower, const char *logpath, struct f2_io **out)
{
	return f2_io_open_record_joined(lower, logpath, &lower->size, 1, out);
}

/* ---- log reader ------------------------------------------------------- */

struct f2_log_reader {
	FILE *f;
	uint64_t devsize;	/* from the file header */
	uint32_t ndevs;		/* 1, or the joined devices of a version-2 log */
	uint64_t lens[F2_MAX_DEVICES];
	uint64_t left;		/* bytes of the file not yet read */
	uint8_t *buf;		/* data of the last write record */
	size_t bufsize;
	bool done;		/* end reached (or a truncated tail) */
	int err;		/* first error; every later call returns it */
};

/* Read exactly len bytes that are known to be in the file. */
static int read_exact(struct f2_log_reader *lr, void *buf, size_t len)
{
	if (fread(buf, 1, len, lr->f) != len)
		return ferror(lr->f) ? -EIO : F2_EBADLOG;
	lr->left -= len;
	return 0;
}

/* The file header (either version) into lr; F2_EBADLOG if it is not one. */
static int read_header(struct f2_log_reader *lr)
{
	uint8_t h[LOG_HEADER_MAX];
	uint64_t total = 0;
	size_t at = 20;
	le32 v32;
	le64 v64;

	if (lr->left < 24 || read_exact(lr, h, 20))
		return F2_EBADLOG;
	memcpy(&v64, h + 8, 8);
	lr->devsize = f2_le64(v64);
	lr->ndevs = 1;
	lr->lens[0] = lr->devsize;
	if (!memcmp(h, LOG_MAGIC_JOINED, 8)) {
		if (read_exact(lr, h + at, 4))
			return F2_EBADLOG;
		memcpy(&v32, h + at, 4);
		lr->ndevs = f2_le32(v32);
		at += 4;
		if (lr->ndevs < 2 || lr->ndevs > F2_MAX_DEVICES ||
		    lr->left < 8 * lr->ndevs + 4 || read_exact(lr, h + at, 8 * lr->ndevs))
			return F2_EBADLOG;
		for (uint32_t i = 0; i < lr->ndevs; i++, at += 8) {
			memcpy(&v64, h + at, 8);
			lr->lens[i] = f2_le64(v64);
			if (lr->lens[i] > UINT64_MAX - total)
				return F2_EBADLOG;
			total += lr->lens[i];
		}
	} else if (memcmp(h, LOG_MAGIC, 8)) {
		return F2_EBADLOG;
	}
	if (read_exact(lr, &v32, 4) || f2_le32(v32) != log_crc(~0u, h, at))
		return F2_EBADLOG;
	return lr->ndevs > 1 && total != lr->devsize ? F2_EBADLOG : 0;
}

int f2_log_open(const char *logpath, struct f2_log_reader **out)
{
	struct f2_log_reader *lr;
	struct stat st;
	int ret;

	*out = NULL;
	lr = calloc(1, sizeof(*lr));
	if (!lr)
		return -ENOMEM;
	lr->f = fopen(logpath, "rbe");
	if (!lr->f) {
		ret = -errno;
		free(lr);
		return ret;
	}
	if (fstat(fileno(lr->f), &st)) {
		ret = -errno;
		goto fail;
	}
	lr->left = st.st_size;
	ret = read_header(lr);
	if (ret)
		goto fail;
	*out = lr;
	return 0;
fail:
	f2_log_close(lr);
	return ret;
}

uint64_t f2_log_size(const struct f2_log_reader *lr)
{
	return lr->devsize;
}

uint32_t f2_log_devices(const struct f2_log_reader *lr, uint64_t *lens)
{
	memcpy(lens, lr->lens, lr->ndevs * sizeof(*lens));
	return lr->ndevs;
}

/* Fill rec from a header whose crc matched, checking what it claims. */
static int decode_rec(const struct f2_log_reader *lr, const struct log_rec *h,
		      struct f2_log_record *rec)
{
	uint32_t op = f2_le32(h->op);

	rec->off = f2_le64(h->off);
	rec->len = f2_le64(h->len);
	rec->data = NULL;
	if (op < F2_LOG_WRITE || op > F2_LOG_ZERO)
		return F2_EBADLOG;
	rec->op = (enum f2_log_op)op;
	if (op == F2_LOG_FLUSH)
		return rec->off || rec->len ? F2_EBADLOG : 0;
	if (rec->off > lr->devsize || rec->len > lr->devsize - rec->off)
		return F2_EBADLOG;
	return 0;
}

/*
 * The next record into rec; with skip, a write's data is stepped over
 * unread and unchecked (rec->data NULL): for records a replay has applied
 * before, and checked then.
 */
static int next_rec(struct f2_log_reader *lr, struct f2_log_record *rec, bool skip)
{
	struct log_rec h;
	uint32_t hcrc;
	le32 dcrc;
	int ret;

	if (lr->done || lr->left < sizeof(h)) {
		lr->done = true;
		return 0;
	}
	ret = read_exact(lr, &h, sizeof(h));
	if (ret)
		return ret;
	hcrc = log_crc(~0u, &h, offsetof(struct log_rec, hcrc));
	if (f2_le32(h.hcrc) != hcrc)
		return F2_EBADLOG;
	ret = decode_rec(lr, &h, rec);
	if (ret)
		return ret;
	if (rec->op != F2_LOG_WRITE)
		return 1;
	/* A write whose data runs past the end of the file is a torn tail. */
	if (rec->len > lr->left || lr->left - rec->len < sizeof(dcrc)) {
		lr->done = true;
		return 0;
	}
	if (skip) {
		if (fseeko(lr->f, (off_t)(rec->len + sizeof(dcrc)), SEEK_CUR))
			return -errno;
		lr->left -= rec->len + sizeof(dcrc);
		return 1;
	}
	if (rec->len > lr->bufsize) {
		uint8_t *nbuf = realloc(lr->buf, rec->len);

		if (!nbuf)
			return -ENOMEM;
		lr->buf = nbuf;
		lr->bufsize = rec->len;
	}
	ret = read_exact(lr, lr->buf, rec->len);
	if (!ret)
		ret = read_exact(lr, &dcrc, sizeof(dcrc));
	if (ret)
		return ret;
	if (f2_le32(dcrc) != log_crc(hcrc, lr->buf, rec->len))
		return F2_EBADLOG;
	rec->data = lr->buf;
	return 1;
}

static int log_next(struct f2_log_reader *lr, struct f2_log_record *rec, bool skip)
{
	int ret = lr->err ? lr->err : next_rec(lr, rec, skip);

	if (ret < 0)
		lr->err = ret;
	return ret;
}

int f2_log_next(struct f2_log_reader *lr, struct f2_log_record *rec)
{
	return log_next(lr, rec, false);
}

void f2_log_close(struct f2_log_reader *lr)
{
	if (!lr)
		return;
	if (lr->f)
		fclose(lr->f);
	free(lr->buf);
	free(lr);
}

long f2_log_count(const char *logpath)
{
	struct f2_log_reader *lr;
	struct f2_log_record rec;
	long n = 0;
	int ret = f2_log_open(logpath, &lr);

	if (ret)
		return ret;
	while ((ret = f2_log_next(lr, &rec)) == 1)
		n++;
	f2_log_close(lr);
	return ret ? ret : n;
}

/* ---- replay ------------------------------------------------------------ */

static int apply(struct f2_io *io, const struct f2_log_record *rec, uint64_t len)
{
	switch (rec->op) {
	case F2_LOG_WRITE:
		return f2_io_write(io, rec->off, rec->data, len);
	case F2_LOG_FLUSH:
		return f2_io_flush(io);
	case F2_LOG_DISCARD:
		return f2_io_discard(io, rec->off, len);
	case F2_LOG_ZERO:
		return f2_io_zero(io, rec->off, len);
	}
	return F2_EBADLOG;
}

int f2_log_replay_from(const char *logpath, struct f2_io *io, long from, long nrec,
		       size_t torn_bytes)
{
	struct f2_log_reader *lr;
	struct f2_log_record rec;
	long i;
	int ret;

	if (from < 0 || (nrec >= 0 && from > nrec))
		return F2_ERANGE;
	ret = f2_log_open(logpath, &lr);
	if (ret)
		return ret;
	for (i = 0; nrec < 0 || i < nrec; i++) {
		/* the first records are on the device already */
		ret = log_next(lr, &rec, i < from);
		if (ret <= 0)
			break;
		ret = i < from ? 0 : apply(io, &rec, rec.len);
		if (ret)
			break;
	}
	/* Running out of records early is fine only when asked for all. */
	if (ret == 0 && ((nrec >= 0 && i < nrec) || i < from))
		ret = F2_ERANGE;
	if (!ret && nrec >= 0 && torn_bytes) {
		ret = f2_log_next(lr, &rec);
		if (ret == 1 && rec.op == F2_LOG_WRITE)
			ret = apply(io, &rec, torn_bytes < rec.len ? torn_bytes : rec.len);
		else if (ret == 1)
			ret = 0;
	}
	f2_log_close(lr);
	return ret;
}

int f2_log_replay(const char *logpath, struct f2_io *io, long nrec, size_t torn_bytes)
{
	return f2_log_replay_from(logpath, io, 0, nrec, torn_bytes);
}
