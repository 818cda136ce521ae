// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/block/hddsimN/hddsim/: the device's profile and parameters, and
 * counters since it was created, one value per file.  Model counters are
 * what the emulated disk did in model time; completed, achieved_ns and
 * late_* are what the timers really delivered.
 */
#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/sysfs.h>

#include "hddsim.h"
#include "profile.h"

static struct hs_dev *hs_dev_of(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

/* A counter: a u64 of the model's hs_mstats or an atomic64_t of hs_dev. */
struct hs_stat_attr {
	struct device_attribute dattr;
	bool model;
	size_t off;
};

static ssize_t hs_stat_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct hs_stat_attr *sa = container_of(attr, struct hs_stat_attr,
					       dattr);
	struct hs_dev *d = hs_dev_of(dev);
	unsigned long flags;
	u64 v;

	if (!sa->model)
		return sysfs_emit(buf, "%lld\n", (long long)
				  atomic64_read((atomic64_t *)((char *)d +
							       sa->off)));
	spin_lock_irqsave(&d->lock, flags);
	v = *(u64 *)((char *)&d->model->st + sa->off);
	spin_unlock_irqrestore(&d->lock, flags);
	return sysfs_emit(buf, "%llu\n", v);
}

#define HS_STAT(var, name, is_model, offset)				\
static struct hs_stat_attr var = {					\
	.dattr = __ATTR(name, 0444, hs_stat_show, NULL),		\
	.model = is_model,						\
	.off = offset,							\
}

#define HS_MSTAT_OFF(field)	offsetof(struct hs_mstats, field)
#define HS_DEV_OFF(field)	offsetof(struct hs_dev, field)

HS_STAT(hs_reads, reads, true, HS_MSTAT_OFF(reads));
HS_STAT(hs_writes, writes, true, HS_MSTAT_OFF(writes));
HS_STAT(hs_others, others, true, HS_MSTAT_OFF(others));
HS_STAT(hs_read_bytes, read_bytes, true, HS_MSTAT_OFF(read_bytes));
HS_STAT(hs_write_bytes, write_bytes, true, HS_MSTAT_OFF(write_bytes));
HS_STAT(hs_seeks, seeks, true, HS_MSTAT_OFF(seeks));
HS_STAT(hs_seek_ns, seek_ns, true, HS_MSTAT_OFF(seek_ns));
HS_STAT(hs_rotate_ns, rotate_ns, true, HS_MSTAT_OFF(rotate_ns));
HS_STAT(hs_media_ns, media_ns, true, HS_MSTAT_OFF(media_ns));
HS_STAT(hs_cache_hits, cache_hits, true, HS_MSTAT_OFF(cache_hits));
HS_STAT(hs_service_ns, service_ns, true, HS_MSTAT_OFF(service_ns));
HS_STAT(hs_completed, completed, false, HS_DEV_OFF(completed));
HS_STAT(hs_achieved_ns, achieved_ns, false, HS_DEV_OFF(achieved_ns));
HS_STAT(hs_late_ns, late_ns, false, HS_DEV_OFF(late_ns));
HS_STAT(hs_late_max_ns, late_max_ns, false, HS_DEV_OFF(late_max_ns));

static ssize_t profile_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%s\n", hs_dev_of(dev)->profile);
}
static DEVICE_ATTR_RO(profile);

static ssize_t config_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct hs_dev *d = hs_dev_of(dev);
	int n;

	n = hs_format(d->profile, &d->model->p, buf, PAGE_SIZE - 1);
	buf[n++] = '\n';
	return n;
}
static DEVICE_ATTR_RO(config);

static ssize_t cylinders_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", hs_dev_of(dev)->model->cylinders);
}
static DEVICE_ATTR_RO(cylinders);

static struct attribute *hs_attrs[] = {
	&dev_attr_profile.attr,
	&dev_attr_config.attr,
	&dev_attr_cylinders.attr,
	&hs_reads.dattr.attr,
	&hs_writes.dattr.attr,
	&hs_others.dattr.attr,
	&hs_read_bytes.dattr.attr,
	&hs_write_bytes.dattr.attr,
	&hs_seeks.dattr.attr,
	&hs_seek_ns.dattr.attr,
	&hs_rotate_ns.dattr.attr,
	&hs_media_ns.dattr.attr,
	&hs_cache_hits.dattr.attr,
	&hs_service_ns.dattr.attr,
	&hs_completed.dattr.attr,
	&hs_achieved_ns.dattr.attr,
	&hs_late_ns.dattr.attr,
	&hs_late_max_ns.dattr.attr,
	NULL,
};

static const struct attribute_group hs_attr_group = {
	.name = "hddsim",
	.attrs = hs_attrs,
};

const struct attribute_group *hs_attr_groups[] = {
	&hs_attr_group,
	NULL,
};
