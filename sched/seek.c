// SPDX-License-Identifier: GPL-2.0
/*
 * Head-movement policy shared by every ctxsched dispatch decision.
 *
 * A rotating disk reads forward cheaply and pays for every jump back, so a
 * request ahead of the head costs its distance, a request behind it costs
 * its distance times a penalty, and one too far behind is not a candidate:
 * the scheduler keeps sweeping forward instead (CFQ's back_seek_max and
 * back_seek_penalty).
 */
#include <linux/export.h>
#include <linux/kernel.h>

#include "seek.h"

/**
 * cs_seek_cost() - cost of moving the head to a request
 * @head: sector following the last dispatched request
 * @pos: first sector of the candidate request
 * @back_max: longest backward move allowed, in sectors
 * @penalty: factor applied to backward distances (at least 1)
 *
 * Return: the forward distance, the backward distance times @penalty, or
 * %CS_SEEK_TOO_FAR when @pos lies more than @back_max sectors behind @head.
 */
u64 cs_seek_cost(sector_t head, sector_t pos, sector_t back_max,
		 unsigned int penalty)
{
	u64 back;

	if (pos >= head)
		return pos - head;
	back = head - pos;
	if (back > back_max)
		return CS_SEEK_TOO_FAR;
	/* A saturated product still ranks behind any forward move. */
	if (back > (CS_SEEK_TOO_FAR - 1) / max(penalty, 1U))
		return CS_SEEK_TOO_FAR - 1;
	return back * max(penalty, 1U);
}

/**
 * cs_seek_pick() - the cheapest of several candidate positions
 * @head: sector following the last dispatched request
 * @pos: start sectors of the candidates
 * @nr: number of candidates
 * @back_max: longest backward move allowed, in sectors
 * @penalty: factor applied to backward distances
 *
 * Ties go to the earlier candidate, so callers list the forward one first.
 *
 * Return: index of the cheapest reachable candidate, or -1 when every
 * candidate is too far behind the head (the caller starts a new sweep).
 */
int cs_seek_pick(sector_t head, const sector_t *pos, unsigned int nr,
		 sector_t back_max, unsigned int penalty)
{
	u64 best = CS_SEEK_TOO_FAR, cost;
	int pick = -1;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		cost = cs_seek_cost(head, pos[i], back_max, penalty);
		if (cost < best) {
			best = cost;
			pick = i;
		}
	}
	return pick;
}
