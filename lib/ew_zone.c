// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ew_zone.c - where the engine opens new sections, beyond its own
 * round-robin choice (ew_seg.c): placement near a target section, for
 * defrag.f2fs's range moves (struct ew_place), and the hook run on every
 * section a log opens (ew_zone_open), where a zoned volume's section (one
 * zone) must start empty at its write pointer.
 */
#include "f2/bitmap.h"
#include "f2/errors.h"
#include "engine_int.h"

static int sec_is_free(const struct f2_wfs *w, uint32_t sec)
{
	uint32_t first = sec * w->segs_per_sec;

	for (uint32_t i = 0; i < w->segs_per_sec; i++)
		if (first + i >= w->fs->main_segs || !f2_test_bit_lsb(w->freemap, first + i))
			return 0;
	return 1;
}

int ew_place_section(struct f2_wfs *w, int t, uint32_t *out)
{
	const struct ew_place *p = &w->place;
	uint32_t nsec = w->fs->main_segs / w->segs_per_sec;
	uint32_t sec = p->from_sec < nsec ? p->from_sec : nsec - 1;

	if (!nsec)
		return ew_fail(w, F2_ENOSPC, "no section in the main area");
	for (;;) {
		if ((sec < p->skip_lo || sec >= p->skip_hi) && sec_is_free(w, sec)) {
			*out = sec;
			return 0;
		}
		if (p->left ? sec == 0 : sec + 1 >= nsec)
			break;
		sec = p->left ? sec - 1 : sec + 1;
	}
	return ew_fail(w, F2_ENOSPC, "no free section %s section %u for log %d",
		       p->left ? "at or below" : "at or above", p->from_sec, t);
}

int ew_zone_open(struct f2_wfs *w, uint32_t sec)
{
	(void)w;
	(void)sec;
	return 0;
}
