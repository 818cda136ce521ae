/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Head-movement policy: which of two queued requests costs the disk less to
 * reach.  Pure functions, no block-layer state, so KUnit can drive them.
 */
#ifndef CTXSCHED_SEEK_H
#define CTXSCHED_SEEK_H

#include <linux/types.h>

/* Cost of a request that lies further behind the head than allowed. */
#define CS_SEEK_TOO_FAR	U64_MAX

u64 cs_seek_cost(sector_t head, sector_t pos, sector_t back_max,
		 unsigned int penalty);
int cs_seek_pick(sector_t head, const sector_t *pos, unsigned int nr,
		 sector_t back_max, unsigned int penalty);

#endif /* CTXSCHED_SEEK_H */
