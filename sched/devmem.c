// SPDX-License-Identifier: GPL-2.0
/*
 * What the device model learned about each disk, kept while the module is
 * loaded so that selecting ctxsched again on a disk (a udev rule, an admin
 * trying schedulers) starts from what is known instead of the prior.  The
 * mode is still measured again after its hold; `echo auto >
 * queue/iosched/device_mode` forgets it.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "ctxsched.h"

/* Disks remembered at most; the least recently saved goes first. */
#define CS_DEVMEM_MAX	64

/**
 * struct cs_devmem - one remembered disk, under cs_devmem_lock
 * @node: entry on cs_devmem_list, most recently saved first
 * @dev: the disk
 * @l: what its model learned
 */
struct cs_devmem {
	struct list_head node;
	dev_t dev;
	struct cs_model_learned l;
};

static DEFINE_MUTEX(cs_devmem_lock);
static LIST_HEAD(cs_devmem_list);
static unsigned int cs_devmem_nr;

static struct cs_devmem *cs_devmem_find(dev_t dev)
{
	struct cs_devmem *e;

	list_for_each_entry(e, &cs_devmem_list, node)
		if (e->dev == dev)
			return e;
	return NULL;
}

/**
 * cs_devmem_load() - what was learned about a disk
 * @dev: the disk
 * @mem: set valid with the learned state, if the disk is remembered
 */
void cs_devmem_load(dev_t dev, struct cs_model_memory *mem)
{
	struct cs_devmem *e;

	mutex_lock(&cs_devmem_lock);
	e = cs_devmem_find(dev);
	mem->valid = e;
	if (e)
		mem->l = e->l;
	mutex_unlock(&cs_devmem_lock);
}

/**
 * cs_devmem_save() - remember what was learned about a disk
 * @dev: the disk
 * @l: the learned state
 *
 * Out of memory, the disk is not remembered: its next selection starts
 * from the prior.
 */
void cs_devmem_save(dev_t dev, const struct cs_model_learned *l)
{
	struct cs_devmem *e;

	mutex_lock(&cs_devmem_lock);
	e = cs_devmem_find(dev);
	if (!e && cs_devmem_nr >= CS_DEVMEM_MAX) {
		e = list_last_entry(&cs_devmem_list, struct cs_devmem, node);
		e->dev = dev;
	} else if (!e) {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		if (!e)
			goto out;
		e->dev = dev;
		list_add(&e->node, &cs_devmem_list);
		cs_devmem_nr++;
	}
	e->l = *l;
	list_move(&e->node, &cs_devmem_list);
out:
	mutex_unlock(&cs_devmem_lock);
}

/**
 * cs_devmem_exit() - forget every disk (module unload)
 */
void cs_devmem_exit(void)
{
	struct cs_devmem *e, *tmp;

	mutex_lock(&cs_devmem_lock);
	list_for_each_entry_safe(e, tmp, &cs_devmem_list, node) {
		list_del(&e->node);
		kfree(e);
	}
	cs_devmem_nr = 0;
	mutex_unlock(&cs_devmem_lock);
}
