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

/* Disks remembered at most; the least recently used goes first. */
#define CS_DEVMEM_MAX	64

/**
 * struct cs_devmem - one remembered disk, under cs_devmem_lock
 * @node: entry on cs_devmem_list, most recently saved first
 * @dev: the disk
 * @empty: nothing was saved yet
 * @l: what its model learned
 */
struct cs_devmem {
	struct list_head node;
	dev_t dev;
	bool empty;
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
 * cs_devmem_load() - what was learned about a disk, and room to save it
 * @dev: the disk
 * @mem: set valid with the learned state, if the disk is remembered
 *
 * Makes sure the disk has an entry, so that cs_devmem_save() at the end
 * need not allocate (it runs with the queue frozen).  Out of memory, or
 * with CS_DEVMEM_MAX other disks remembered since, it just will not be
 * remembered.
 */
void cs_devmem_load(dev_t dev, struct cs_model_memory *mem)
{
	struct cs_devmem *e, *fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);

	mutex_lock(&cs_devmem_lock);
	e = cs_devmem_find(dev);
	mem->valid = e;
	if (e) {
		mem->l = e->l;
		kfree(fresh);
	} else if (fresh) {
		if (cs_devmem_nr >= CS_DEVMEM_MAX) {
			e = list_last_entry(&cs_devmem_list, struct cs_devmem,
					    node);
			list_del(&e->node);
			kfree(e);
			cs_devmem_nr--;
		}
		fresh->dev = dev;
		fresh->empty = true;
		list_add(&fresh->node, &cs_devmem_list);
		cs_devmem_nr++;
	}
	/* An entry made but never saved is no memory. */
	if (e && e->empty)
		mem->valid = false;
	mutex_unlock(&cs_devmem_lock);
}

/**
 * cs_devmem_save() - remember what was learned about a disk
 * @dev: the disk
 * @l: the learned state
 *
 * Does not allocate: the entry was made by cs_devmem_load().
 */
void cs_devmem_save(dev_t dev, const struct cs_model_learned *l)
{
	struct cs_devmem *e;

	mutex_lock(&cs_devmem_lock);
	e = cs_devmem_find(dev);
	if (e) {
		e->l = *l;
		e->empty = false;
		list_move(&e->node, &cs_devmem_list);
	}
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
