/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctxsched's readahead companion: accounting of the kernel's readahead
 * calls (debugfs ctxsched/readahead/stats), the ctxsched:readahead trace
 * event, and ra_autotune, which sizes the readahead window of disks run by
 * ctxsched.
 */
#ifndef CTXSCHED_RA_H
#define CTXSCHED_RA_H

#include <linux/blkdev.h>
#include <linux/fs.h>

#include "policy.h"

struct cs_ra_dev;

/* Files under queue/iosched/ that belong to ra/. */
enum cs_ra_knob {
	CS_RA_K_AUTOTUNE,
	CS_RA_K_MIN_KB,
	CS_RA_K_MAX_KB,
};

/* Defaults of ra_min_kb and ra_max_kb, and the largest ra_max_kb. */
#define CS_RA_MIN_KB_DEFAULT	128
#define CS_RA_MAX_KB_DEFAULT	4096
#define CS_RA_MAX_KB_LIMIT	65536

/* hooks.c */
int cs_ra_init(void);
void cs_ra_exit(void);
int cs_ra_hooks_get(void);
void cs_ra_hooks_put(void);

/* tune.c */
struct cs_ra_dev *cs_ra_attach(struct gendisk *disk);
void cs_ra_detach(struct cs_ra_dev *rd);
ssize_t cs_ra_knob_show(struct cs_ra_dev *rd, enum cs_ra_knob k, char *page);
ssize_t cs_ra_knob_store(struct cs_ra_dev *rd, enum cs_ra_knob k,
			 const char *page, size_t count);
void cs_ra_tune_account(struct gendisk *disk, struct file_ra_state *ra,
			const struct cs_ra_call *c, enum cs_ra_pattern p,
			unsigned long actual);

#endif /* CTXSCHED_RA_H */
