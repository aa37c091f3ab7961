/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * f2replay - inspect and replay I/O write logs (made with F2_IO_RECORD).
 *
 *   f2replay count LOG                      number of records
 *   f2replay list LOG                       "index op off len", 1-based
 *   f2replay apply LOG IMAGE N [TORN]       apply records 1..N (N or "all")
 *                                           and TORN bytes of record N+1
 *   f2replay run IMAGE OP...                do OPs through f2_io_open(), so
 *                                           F2_IO_RECORD/F2_IO_FAULT apply
 * OP is write:OFF:LEN:BYTE, zero:OFF:LEN, discard:OFF:LEN or flush; numbers
 * may be decimal or 0x-hex.  Exit 0 on success, 1 if an operation or the
 * log fails, 2 on a usage error.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f2/errors.h"
#include "f2/io.h"

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
		"       f2replay apply LOG IMAGE N|all [TORN_BYTES]\n"
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

static int cmd_apply(int argc, char **argv)
{
	const char *log = argv[0], *image = argv[1];
	struct f2_log_reader *lr;
	struct f2_io *io;
	uint64_t n = 0, torn = 0, logsize;
	long nrec, count;
	int ret;

	if (argc < 3 || argc > 4)
		return usage();
	if (!strcmp(argv[2], "all"))
		nrec = -1;
	else if (parse_u64(argv[2], &n, NULL) && n <= LONG_MAX)
		nrec = (long)n;
	else
		return usage();
	if (argc == 4 && (!parse_u64(argv[3], &torn, NULL) || torn > SIZE_MAX))
		return usage();

	ret = f2_log_open(log, &lr);
	if (ret)
		return fail("opening", log, ret);
	logsize = f2_log_size(lr);
	f2_log_close(lr);
	count = f2_log_count(log);
	if (count < 0)
		return fail("reading", log, (int)count);
	if (nrec > count) {
		fprintf(stderr, "f2replay: %s holds only %ld records\n", log, count);
		return EXIT_FAIL;
	}
	ret = f2_io_open_unix(image, F2_IO_RDWR, &io);
	if (ret)
		return fail("opening", image, ret);
	if (io->size != logsize)
		fprintf(stderr, "f2replay: warning: %s has %" PRIu64 " bytes, the log was "
			"recorded on %" PRIu64 "\n", image, io->size, logsize);
	ret = f2_log_replay(log, io, nrec, (size_t)torn);
	if (!ret)
		ret = f2_io_flush(io);
	f2_io_close(io);
	return ret ? fail("replaying", log, ret) : EXIT_OK;
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

int main(int argc, char **argv)
{
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "count") && argc == 3)
		return cmd_count(argv[2]);
	if (!strcmp(argv[1], "list") && argc == 3)
		return cmd_list(argv[2]);
	if (!strcmp(argv[1], "apply"))
		return cmd_apply(argc - 2, argv + 2);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	return usage();
}
