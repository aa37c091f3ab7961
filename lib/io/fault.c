/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fault.c - fault injection: passes every call to the lower backend but
 * fails the Nth read or write (and, unless ":once", every later one of the
 * same kind) with F2_EINJECTED.  Writes, zeroes and discards all count as
 * writes; once a persistent write fault has fired, flushes fail too, as on
 * a device that has died.  A failed call never reaches the lower backend.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "f2/errors.h"
#include "io_private.h"

enum fault_kind { FAULT_READ, FAULT_WRITE };

struct fault_priv {
	enum fault_kind kind;
	uint64_t nth;		/* 1-based call that fails first */
	bool once;
	uint64_t calls;		/* calls of kind seen so far */
	bool dead;		/* a persistent write fault has fired */
};

/* Count one call of kind k; true if it must fail. */
static bool inject(struct f2_io *io, enum fault_kind k)
{
	struct fault_priv *f = io->priv;

	if (f->kind != k)
		return false;
	f->calls++;
	if (f->once ? f->calls != f->nth : f->calls < f->nth)
		return false;
	if (k == FAULT_WRITE && !f->once)
		f->dead = true;
	return true;
}

static int fault_read(struct f2_io *io, uint64_t off, void *buf, size_t len)
{
	return inject(io, FAULT_READ) ? F2_EINJECTED : f2_io_read(io->lower, off, buf, len);
}

static int fault_write(struct f2_io *io, uint64_t off, const void *buf, size_t len)
{
	return inject(io, FAULT_WRITE) ? F2_EINJECTED : f2_io_write(io->lower, off, buf, len);
}

static int fault_flush(struct f2_io *io)
{
	struct fault_priv *f = io->priv;

	return f->dead ? F2_EINJECTED : f2_io_flush(io->lower);
}

static int fault_discard(struct f2_io *io, uint64_t off, uint64_t len)
{
	return inject(io, FAULT_WRITE) ? F2_EINJECTED : f2_io_discard(io->lower, off, len);
}

static int fault_zero(struct f2_io *io, uint64_t off, uint64_t len)
{
	return inject(io, FAULT_WRITE) ? F2_EINJECTED : f2_io_zero(io->lower, off, len);
}

static void fault_close(struct f2_io *io)
{
	free(io->priv);
}

static const struct f2_io_ops fault_ops = {
	.name = "fault",
	.read = fault_read,
	.write = fault_write,
	.flush = fault_flush,
	.discard = fault_discard,
	.zero = fault_zero,
	.close = fault_close,
};

/* "read:N", "write:N", optionally followed by ":once"; N >= 1, decimal. */
static int parse_spec(const char *spec, struct fault_priv *f)
{
	const char *p;
	char *end;

	if (!strncmp(spec, "read:", 5)) {
		f->kind = FAULT_READ;
		p = spec + 5;
	} else if (!strncmp(spec, "write:", 6)) {
		f->kind = FAULT_WRITE;
		p = spec + 6;
	} else {
		return F2_EBADOPT;
	}
	if (*p < '0' || *p > '9')
		return F2_EBADOPT;
	errno = 0;
	f->nth = strtoull(p, &end, 10);
	if (errno || f->nth == 0)
		return F2_EBADOPT;
	if (!strcmp(end, ":once"))
		f->once = true;
	else if (*end)
		return F2_EBADOPT;
	return 0;
}

int f2_io_fault_spec_check(const char *spec)
{
	struct fault_priv f = { 0 };

	return parse_spec(spec, &f);
}

int f2_io_open_fault(struct f2_io *lower, const char *spec, struct f2_io **out)
{
	struct fault_priv *f;
	struct f2_io *io;
	int ret;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	ret = parse_spec(spec, f);
	if (ret) {
		free(f);
		return ret;
	}
	io = f2_io_alloc(&fault_ops, lower->size, lower->name, lower);
	if (!io) {
		free(f);
		return -ENOMEM;
	}
	io->priv = f;
	*out = io;
	return 0;
}
