// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pop_compress.c - compression in populate (sload.f2fs -c, mkfs.f2fs
 * --compress): the options, shared by both front ends, and which files
 * are compressed (f2fs-tools' -i/-x extension lists).
 */
#include <stdlib.h>
#include <string.h>
#include "f2/file.h"
#include "populate.h"

static const struct {
	const char *name;
	uint8_t algo;
	int level;
} algos[] = {
	{ "lzo", F2_COMPRESS_LZO, 0 },
	{ "lz4", F2_COMPRESS_LZ4, 0 },
	{ "lz4hc", F2_COMPRESS_LZ4, 9 },	/* lz4hc's default level */
	{ "zstd", F2_COMPRESS_ZSTD, 1 },	/* the kernel's default level */
	{ "lzo-rle", F2_COMPRESS_LZORLE, 0 },	/* plain LZO1X, which it reads */
};

void pop_compress_defaults(struct pop_opts *o)
{
	o->copts.algo = F2_COMPRESS_LZ4;
	o->copts.level = 0;
	o->copts.log_cluster = 2;
	o->copts.min_saved = 1;
}

int pop_compress_check(const struct pop_opts *o, const char *given, const char *enable,
		       const char *prog)
{
	if (given && !o->compress) {
		fprintf(stderr, "%s: %s needs %s\n", prog, given, enable);
		return -1;
	}
	if (!o->compress)
		return 0;
	if (!(f2_compress_supported() & (1u << o->copts.algo))) {
		fprintf(stderr, "%s: this build has no %s library; choose another algorithm\n",
			prog, o->copts.algo == F2_COMPRESS_LZ4 ? "lz4" : "such");
		return -1;
	}
	if (o->copts.min_saved >= (1u << o->copts.log_cluster)) {
		fprintf(stderr, "%s: a cluster of %u blocks cannot save %u blocks\n", prog,
			1u << o->copts.log_cluster, o->copts.min_saved);
		return -1;
	}
	return 0;
}

int pop_compress_algo(struct pop_opts *o, const char *name, const char *prog)
{
	for (size_t k = 0; k < sizeof(algos) / sizeof(algos[0]); k++) {
		if (strcmp(name, algos[k].name))
			continue;
		if (!(f2_compress_supported() & (1u << algos[k].algo))) {
			fprintf(stderr, "%s: compression algorithm '%s': this build has no %s "
				"library (configure found none)\n", prog, name,
				algos[k].algo == F2_COMPRESS_LZORLE ? "lzo" : algos[k].name);
			return -1;
		}
		o->copts.algo = algos[k].algo;
		o->copts.level = algos[k].level;
		return 0;
	}
	fprintf(stderr, "%s: compression algorithm '%s' unknown (lzo, lzo-rle, lz4, lz4hc, "
		"zstd)\n", prog, name);
	return -1;
}

static int number(const char *arg, unsigned long lo, unsigned long hi, unsigned long *v)
{
	char *end;

	*v = strtoul(arg, &end, 10);
	return !*arg || *end || *v < lo || *v > hi ? -1 : 0;
}

int pop_compress_log(struct pop_opts *o, const char *arg, const char *prog)
{
	unsigned long v;

	if (number(arg, F2_MIN_CLUSTER_LOG, F2_MAX_CLUSTER_LOG, &v)) {
		fprintf(stderr, "%s: log cluster size '%s': %d to %d (clusters of 4 to 256 "
			"blocks)\n", prog, arg, F2_MIN_CLUSTER_LOG, F2_MAX_CLUSTER_LOG);
		return -1;
	}
	o->copts.log_cluster = (uint8_t)v;
	return 0;
}

int pop_compress_min_saved(struct pop_opts *o, const char *arg, const char *prog)
{
	unsigned long v;

	if (number(arg, 1, 255, &v)) {
		fprintf(stderr, "%s: minimum saved blocks '%s': 1 to 255\n", prog, arg);
		return -1;
	}
	o->copts.min_saved = (uint32_t)v;
	return 0;
}

int pop_compress_ext(struct pop_opts *o, const char *ext, int exclude, const char *prog)
{
	if (o->next && o->ext_exclude != exclude) {
		fprintf(stderr, "%s: -i and -x do not mix (compress only some extensions, or "
			"all but some)\n", prog);
		return -1;
	}
	if (!*ext || strchr(ext, '/') || o->next >= POP_MAX_EXT) {
		fprintf(stderr, "%s: extension '%s': %s\n", prog, ext,
			o->next >= POP_MAX_EXT ? "too many" : "not a file name extension");
		return -1;
	}
	o->ext[o->next++] = ext;
	o->ext_exclude = exclude;
	return 0;
}

int pop_compress_picks(const struct pop_opts *o, const char *name)
{
	const char *dot = strrchr(name, '.');
	int listed = 0;

	if (!o->compress)
		return 0;
	if (!o->next)
		return 1;
	for (uint32_t k = 0; dot && k < o->next && !listed; k++)
		listed = !strcmp(dot + 1, o->ext[k]);
	return o->ext_exclude ? !listed : listed;
}
