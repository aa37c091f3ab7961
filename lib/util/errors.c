// SPDX-License-Identifier: GPL-2.0-or-later
/* errors.c - text for the library's error codes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "f2/errors.h"

static const struct {
	int code;
	const char *text;
} f2_errors[] = {
	{ F2_ECORRUPT, "structure is corrupt" },
	{ F2_EBADMAGIC, "bad magic number" },
	{ F2_EBADCRC, "checksum mismatch" },
	{ F2_ERANGE, "value out of range" },
	{ F2_ESHORTIO, "unexpected end of device" },
	{ F2_ETOOSMALL, "device is too small" },
	{ F2_ETOOBIG, "device is too large for f2fs" },
	{ F2_EBADOPT, "invalid option" },
	{ F2_EUNSUPP, "not supported" },
	{ F2_EINJECTED, "injected I/O failure" },
	{ F2_ENOSPC, "no space left" },
	{ F2_EBADLOG, "malformed write log" },
	{ F2_ENOCP, "no valid checkpoint" },
	{ F2_EENCRYPTED, "file is encrypted" },
	{ F2_ECOMPRESS, "compressed cluster is corrupt" },
	{ F2_ESPARSE, "malformed Android sparse image" },
};

const char *f2_strerror(int err)
{
	for (size_t i = 0; i < sizeof(f2_errors) / sizeof(f2_errors[0]); i++)
		if (f2_errors[i].code == err)
			return f2_errors[i].text;
	if (err < 0 && err > -F2_EBASE)
		return strerror(-err);
	return "unknown error";
}

int f2_why(char *why, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return err;
}
