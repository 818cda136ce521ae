// SPDX-License-Identifier: GPL-2.0
/*
 * Which queue serves an I/O context's sync requests.
 *
 * With group_by=thread every context has its own queue, as with CFQ; with
 * group_by=process the contexts of one process share a queue, found by
 * process in cs_data.keyed.  Either way a queue whose request continues the
 * active queue's stream is merged into the active queue: its requests and
 * contexts move there, so the stream gets one slice, one idle window and
 * one think time.  A merged queue whose requests turn seeky is split: each
 * of its contexts leaves at its next request for a queue of its own (its
 * queued requests stay and are served where they are).  A change of
 * group_by regroups every context the same way.
 *
 * All under cs_data.lock.
 */
#include <linux/blkdev.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/slab.h>

#include "ctxsched.h"
#include "rq.h"

/**
 * cs_unkey() - stop a queue being its process's queue
 * @cd: the scheduler
 * @cq: the queue
 */
void cs_unkey(struct cs_data *cd, struct cs_queue *cq)
{
	if (cq->flags & CSQ_KEYED) {
		hash_del(&cq->key_node);
		cq->flags &= ~CSQ_KEYED;
	}
}

static void cs_join(struct cs_data *cd, struct cs_icq *cic, struct cs_queue *cq)
{
	list_add_tail(&cic->member, &cq->members);
	cq->nr_members++;
	cq->ref++;
	cic->sync_q = cq;
	cic->gen = cd->group_gen;
}

static void cs_leave(struct cs_data *cd, struct cs_icq *cic)
{
	struct cs_queue *cq = cic->sync_q;

	list_del_init(&cic->member);
	cq->nr_members--;
	cic->sync_q = NULL;
	/* Nobody is left to issue requests: do not wait for any. */
	if (!cq->nr_members && cd->active == cq && cd->idling != CS_IDLE_NONE)
		cs_expire_active(cd);
	cs_put_queue(cq);
}

static struct cs_queue *cs_keyed_queue(struct cs_data *cd, unsigned long key)
{
	struct cs_queue *cq;

	hash_for_each_possible(cd->keyed, cq, key_node, key)
		if (cq->key == key)
			return cq;
	return NULL;
}

/**
 * cs_sync_queue() - the queue that serves a context's next sync request
 * @cd: the scheduler
 * @cic: the context's part
 * @pclass: class of the request
 * @level: level of the request
 *
 * A context whose queue is being split, or that joined it under another
 * group_by, leaves it first.
 *
 * Return: the queue, or NULL when out of memory.
 */
struct cs_queue *cs_sync_queue(struct cs_data *cd, struct cs_icq *cic,
			       enum cs_prio_class pclass, unsigned int level)
{
	enum cs_group_by by = cs_tun(cd, CS_T_GROUP_BY);
	struct cs_queue *cq = cic->sync_q;
	unsigned long key;

	lockdep_assert_held(&cd->lock);

	if (cq && (cq->flags & CSQ_SPLIT)) {
		cs_log_q(cd, cq, "split: context leaves");
		cs_leave(cd, cic);
	} else if (cq && cic->gen != READ_ONCE(cd->group_gen)) {
		cs_leave(cd, cic);
	}
	if (cic->sync_q)
		return cic->sync_q;

	key = cs_group_key(by, cic->tgid, (unsigned long)cic->icq.ioc);
	cq = by == CS_GROUP_PROCESS ? cs_keyed_queue(cd, key) : NULL;
	if (!cq) {
		cq = cs_alloc_queue(cd, true, pclass, level);
		if (!cq)
			return NULL;
		if (by == CS_GROUP_PROCESS) {
			cq->key = key;
			hash_add(cd->keyed, &cq->key_node, key);
			cq->flags |= CSQ_KEYED;
		}
	}
	cs_join(cd, cic, cq);
	return cq;
}

/**
 * cs_exit_cic() - an I/O context leaves this request queue
 * @cd: the scheduler
 * @cic: the context's part
 */
void cs_exit_cic(struct cs_data *cd, struct cs_icq *cic)
{
	lockdep_assert_held(&cd->lock);

	if (cic->sync_q)
		cs_leave(cd, cic);
}

/**
 * cs_members_alive() - whether a queue's contexts may issue more requests
 * @cq: the queue
 *
 * Return: true if a task still uses one of its contexts.
 */
bool cs_members_alive(const struct cs_queue *cq)
{
	struct cs_icq *cic;

	list_for_each_entry(cic, &cq->members, member)
		if (atomic_read(&cic->icq.ioc->active_ref) > 0)
			return true;
	return false;
}

/* Queue @rq in @cq's FIFO by deadline. */
static void cs_fifo_insert(struct cs_queue *cq, struct request *rq)
{
	struct request *pos;

	list_for_each_entry_reverse(pos, &cq->fifo, queuelist) {
		if (pos->fifo_time <= rq->fifo_time) {
			list_add(&rq->queuelist, &pos->queuelist);
			return;
		}
	}
	list_add(&rq->queuelist, &cq->fifo);
}

/* Move @from's queued requests and contexts into @into. */
static void cs_merge_queues(struct cs_data *cd, struct cs_queue *into,
			    struct cs_queue *from)
{
	struct request *rq, *next;
	struct cs_icq *cic, *tmp;
	int refs = 0;

	list_for_each_entry_safe(rq, next, &from->fifo, queuelist) {
		list_del_init(&rq->queuelist);
		elv_rb_del(&from->sort, rq);
		elv_rb_add(&into->sort, rq);
		cs_fifo_insert(into, rq);
		rq->elv.priv[0] = into;
		into->ref++;
		refs++;
	}
	if (from->queued) {
		cs_busy_account(cd, from, -1);
		cs_rr_del(cd, from);
		if (!into->queued)
			cs_busy_account(cd, into, 1);
		into->queued += from->queued;
		from->queued = 0;
	}
	list_for_each_entry_safe(cic, tmp, &from->members, member) {
		list_move_tail(&cic->member, &into->members);
		cic->sync_q = into;
		into->ref++;
		refs++;
	}
	into->nr_members += from->nr_members;
	from->nr_members = 0;
	into->flags |= CSQ_MERGED;
	/* @from no longer stands for its process: the stream does. */
	cs_unkey(cd, from);
	while (refs--)
		cs_put_queue(from);
}

/**
 * cs_try_cooperate() - merge a queue into the active one if its new request
 *	continues the active queue's stream
 * @cd: the scheduler
 * @cq: the queue that just got @rq
 * @rq: the request
 *
 * Return: the queue that now holds @rq (the active queue after a merge).
 */
struct cs_queue *cs_try_cooperate(struct cs_data *cd, struct cs_queue *cq,
				  struct request *rq)
{
	struct cs_queue *active = cd->active;
	struct cs_coop_input in;
	sector_t pos = blk_rq_pos(rq);
	u64 d_head, d_last;

	lockdep_assert_held(&cd->lock);

	if (!active || active == cq ||
	    ((active->flags | cq->flags) & (CSQ_FALLBACK | CSQ_SPLIT)))
		return cq;
	d_head = pos >= cd->head ? pos - cd->head : cd->head - pos;
	d_last = pos >= active->last_end ? pos - active->last_end :
					   active->last_end - pos;
	in.active_sync = cs_queue_sync(active);
	in.new_sync = cs_queue_sync(cq);
	in.active_class = active->prio_class;
	in.new_class = cq->prio_class;
	in.active_seeky = cs_seeky(&active->seek);
	in.new_seeky = cs_seeky(&cq->seek);
	in.distance = min(d_head, d_last);
	if (!cs_should_merge(&in))
		return cq;

	cd->stats.coop_merged++;
	cs_log_q(cd, active, "merge cs%d%c%c (%u contexts) distance %llu",
		 cq->pid, cs_queue_sync(cq) ? 'S' : 'A', cs_class_char(cq),
		 cq->nr_members, in.distance);
	cs_merge_queues(cd, active, cq);
	return active;
}

/**
 * cs_check_split() - mark a merged queue for splitting once it turns seeky
 * @cd: the scheduler
 * @cq: a queue that just got a request
 */
void cs_check_split(struct cs_data *cd, struct cs_queue *cq)
{
	if ((cq->flags & CSQ_SPLIT) ||
	    !cs_should_split(cq->flags & CSQ_MERGED, cq->nr_members,
			     cs_seeky(&cq->seek)))
		return;
	cq->flags |= CSQ_SPLIT;
	cd->stats.coop_split++;
	cs_unkey(cd, cq);
	cs_log_q(cd, cq, "split: %u contexts no longer cooperate",
		 cq->nr_members);
}
