/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit.h - a minimal assertion kit for the C unit tests (TAP-free: exit code). */
#ifndef F2_UNIT_H
#define F2_UNIT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

static int unit_failures;

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		unit_failures++; \
	} } while (0)
#define CHECK_EQ(a, b) do { \
	uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b); \
	if (a_ != b_) { \
		fprintf(stderr, "%s:%d: %s == %" PRIu64 ", expected %s == %" PRIu64 "\n", \
			__FILE__, __LINE__, #a, a_, #b, b_); \
		unit_failures++; \
	} } while (0)
#define UNIT_DONE() do { \
	if (unit_failures) { fprintf(stderr, "%d check(s) failed\n", unit_failures); return 1; } \
	printf("ok\n"); return 0; } while (0)
#endif
