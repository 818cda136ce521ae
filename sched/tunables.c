// SPDX-License-Identifier: GPL-2.0
/*
 * The tunables' ranges and defaults, in stored units (ns for times), with
 * CFQ's defaults.  sysfs.c shows and checks them; the core starts from the
 * defaults.
 */
#include <linux/kernel.h>

#include "core.h"

#define MS	NSEC_PER_MSEC
#define US	NSEC_PER_USEC

static const struct cs_tunable_desc cs_tunables[CS_NR_TUNABLES] = {
	[CS_T_QUANTUM]		= { 1, 4096, 8 },
	[CS_T_FIFO_EXPIRE_SYNC]	= { 1 * MS, 60000 * MS, 125 * MS },
	[CS_T_FIFO_EXPIRE_ASYNC] = { 1 * MS, 60000 * MS, 250 * MS },
	[CS_T_BACK_SEEK_MAX]	= { 0, 1ULL << 30, 16384 },
	[CS_T_BACK_SEEK_PENALTY] = { 1, 1000, 2 },
	[CS_T_SLICE_SYNC]	= { 1 * US, 60000 * MS, 100 * MS },
	[CS_T_SLICE_ASYNC]	= { 1 * US, 60000 * MS, 40 * MS },
	[CS_T_SLICE_ASYNC_RQ]	= { 1, 4096, 2 },
	[CS_T_SLICE_IDLE]	= { 0, 1000 * MS, 8 * MS },
	[CS_T_GROUP_IDLE]	= { 0, 1000 * MS, 8 * MS },
	[CS_T_LOW_LATENCY]	= { 0, 1, 1 },
	[CS_T_TARGET_LATENCY]	= { 1 * US, 60000 * MS, 300 * MS },
	[CS_T_GROUP_BY]		= { CS_GROUP_THREAD, CS_GROUP_PROCESS,
				    CS_GROUP_THREAD },
	[CS_T_MAX_REQUEST_KB]	= { 0, 1U << 20, 0 },
	[CS_T_DEVICE_MODE]	= { CS_FORCE_AUTO, CS_FORCE_PARALLEL,
				    CS_FORCE_AUTO },
	[CS_T_BOOST]		= { 0, 60000 * MS, 8000 * MS },
};

/**
 * cs_tunable_desc() - range and default of a tunable
 * @t: the tunable
 *
 * Return: its description.
 */
const struct cs_tunable_desc *cs_tunable_desc(enum cs_tunable t)
{
	return &cs_tunables[t];
}

/**
 * cs_tunables_defaults() - the tunables a new queue starts with
 * @tun: filled with CS_NR_TUNABLES values
 */
void cs_tunables_defaults(u64 *tun)
{
	int i;

	for (i = 0; i < CS_NR_TUNABLES; i++)
		tun[i] = cs_tunables[i].def;
}
