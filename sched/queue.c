// SPDX-License-Identifier: GPL-2.0
/*
 * Per-context queues and the dispatch loop.
 *
 * Every sync request belongs to the queue of the I/O context that issued
 * it; async requests (write-back) share one queue per class and level.  A
 * queue with requests waits on its class's round robin; the first queue of
 * the highest class with work becomes active and owns the disk for a time
 * slice whose length depends on its level (policy.c).  The active queue
 * dispatches its requests in sector order, an expired one first (once per
 * slice), up to quantum at a time.  When a sync queue runs dry before its
 * slice ends, it may keep the disk for a short while (slice_idle) in the
 * hope that its context issues the next request; an hrtimer ends the wait.
 *
 * All of it runs under cs_data.lock.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/ioprio.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "ctxsched.h"
#include "rq.h"

/**
 * cs_prio_of() - class and level of an I/O priority
 * @ioprio: the priority (IOPRIO_PRIO_VALUE)
 * @pclass: the class it maps to
 * @level: the level it maps to
 */
void cs_prio_of(unsigned short ioprio, enum cs_prio_class *pclass,
		unsigned int *level)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		*pclass = CS_CLASS_RT;
		*level = IOPRIO_PRIO_DATA(ioprio) & (CS_NR_LEVELS - 1);
		break;
	case IOPRIO_CLASS_IDLE:
		*pclass = CS_CLASS_IDLE;
		*level = CS_NR_LEVELS - 1;
		break;
	case IOPRIO_CLASS_BE:
		*pclass = CS_CLASS_BE;
		*level = IOPRIO_PRIO_DATA(ioprio) & (CS_NR_LEVELS - 1);
		break;
	default:
		/* Unset: the block layer normally resolves this at submit. */
		*pclass = CS_CLASS_BE;
		*level = CS_DEFAULT_LEVEL;
		break;
	}
}

static void cs_queue_setup(struct cs_data *cd, struct cs_queue *cq,
			   bool sync, enum cs_prio_class pclass,
			   unsigned int level)
{
	cq->cd = cd;
	cq->flags = sync ? CSQ_SYNC : 0;
	cq->prio_class = pclass;
	cq->level = level;
	cq->sort = RB_ROOT;
	INIT_LIST_HEAD(&cq->fifo);
	INIT_LIST_HEAD(&cq->rr);
	INIT_LIST_HEAD(&cq->members);
	INIT_HLIST_NODE(&cq->key_node);
	cq->pid = current->pid;
}

/**
 * cs_alloc_queue() - allocate a queue, without references
 * @cd: the scheduler
 * @sync: a sync queue
 * @pclass: its class
 * @level: its level
 *
 * Return: the queue, or NULL when out of memory.
 */
struct cs_queue *cs_alloc_queue(struct cs_data *cd, bool sync,
				enum cs_prio_class pclass, unsigned int level)
{
	struct cs_queue *cq;

	/* Called under cd->lock from the submission path: no sleeping. */
	cq = kzalloc_node(sizeof(*cq), GFP_NOWAIT | __GFP_NOWARN, cd->q->node);
	if (!cq) {
		cd->stats.alloc_failed++;
		return NULL;
	}
	cs_queue_setup(cd, cq, sync, pclass, level);
	return cq;
}

/**
 * cs_put_queue() - drop a reference to a queue, freeing it with the last
 * @cq: the queue
 */
void cs_put_queue(struct cs_queue *cq)
{
	if (WARN_ON_ONCE(cq->ref <= 0))
		return;
	if (--cq->ref)
		return;
	WARN_ON_ONCE(cq->queued || cq->dispatched || !list_empty(&cq->rr) ||
		     !list_empty(&cq->members) || cq->cd->active == cq ||
		     (cq->flags & CSQ_FALLBACK));
	cs_unkey(cq->cd, cq);
	kfree(cq);
}

/**
 * cs_rr_del() - take a queue off its class's round robin
 * @cd: the scheduler
 * @cq: the queue
 */
void cs_rr_del(struct cs_data *cd, struct cs_queue *cq)
{
	if (cq->flags & CSQ_ON_RR) {
		list_del_init(&cq->rr);
		cq->flags &= ~CSQ_ON_RR;
	}
}

/**
 * cs_rr_add() - put a queue on its class's round robin
 * @cd: the scheduler
 * @cq: the queue
 * @front: first in line (a preempted queue) rather than last
 */
void cs_rr_add(struct cs_data *cd, struct cs_queue *cq, bool front)
{
	if (cq->flags & CSQ_ON_RR)
		list_del(&cq->rr);
	if (front)
		list_add(&cq->rr, &cd->rr[cq->prio_class]);
	else
		list_add_tail(&cq->rr, &cd->rr[cq->prio_class]);
	cq->flags |= CSQ_ON_RR;
}

/**
 * cs_busy_account() - count a queue in or out of its class's busy queues
 * @cd: the scheduler
 * @cq: the queue, which gained its first or lost its last queued request
 * @d: +1 or -1
 */
void cs_busy_account(struct cs_data *cd, struct cs_queue *cq, int d)
{
	cd->nr_busy[cq->prio_class] += d;
	if (cs_queue_sync(cq))
		cd->nr_busy_sync[cq->prio_class] += d;
}

/* A new request may change a sync queue's class or level (ionice). */
static void cs_update_prio(struct cs_data *cd, struct cs_queue *cq,
			   struct request *rq)
{
	enum cs_prio_class pclass;
	unsigned int level;

	if (!cs_queue_sync(cq) || (cq->flags & CSQ_FALLBACK))
		return;
	cs_prio_of(req_get_ioprio(rq), &pclass, &level);
	if (pclass == cq->prio_class && level == cq->level)
		return;
	if (cq->queued)
		cs_busy_account(cd, cq, -1);
	cq->prio_class = pclass;
	cq->level = level;
	if (cq->queued)
		cs_busy_account(cd, cq, 1);
	if (cq->flags & CSQ_ON_RR)
		cs_rr_add(cd, cq, false);
	cs_log_q(cd, cq, "prio %c%u", cs_class_char(cq), level);
}

/**
 * cs_queue_for_rq() - find or create the queue a new request belongs to
 * @cd: the scheduler
 * @rq: the request, with rq->elv.icq set by ->prepare_request() if the
 *	submitter had an I/O context
 *
 * Return: the queue with a reference taken for @rq; the fallback queue if
 * none could be allocated.
 */
struct cs_queue *cs_queue_for_rq(struct cs_data *cd, struct request *rq)
{
	struct cs_icq *cic = rq->elv.icq ? icq_to_cic(rq->elv.icq) : NULL;
	struct cs_queue *cq, **slot;
	enum cs_prio_class pclass;
	unsigned int level;

	lockdep_assert_held(&cd->lock);

	cs_prio_of(req_get_ioprio(rq), &pclass, &level);
	if (rq_is_sync(rq) && cic) {
		cq = cs_sync_queue(cd, cic, pclass, level);
		if (!cq)
			goto fallback;
	} else {
		slot = &cd->async_q[pclass][level];
		cq = *slot;
		if (!cq) {
			cq = cs_alloc_queue(cd, false, pclass, level);
			if (!cq)
				goto fallback;
			cq->ref = 1;		/* the slot's */
			*slot = cq;
		}
	}
	cq->ref++;
	return cq;

fallback:
	cq = &cd->fallback;
	cq->ref++;
	return cq;
}

/**
 * cs_queue_for_bio() - the queue a bio would join, without creating one
 * @cd: the scheduler
 * @cic: the submitting context's part, or NULL
 * @bio: the bio
 *
 * Return: the queue, or NULL if it does not exist yet.
 */
struct cs_queue *cs_queue_for_bio(struct cs_data *cd, struct cs_icq *cic,
				  struct bio *bio)
{
	enum cs_prio_class pclass;
	unsigned int level;

	lockdep_assert_held(&cd->lock);

	if (op_is_sync(bio->bi_opf))
		return cic ? cic->sync_q : NULL;
	cs_prio_of(bio->bi_ioprio, &pclass, &level);
	return cd->async_q[pclass][level];
}

static u64 cs_deadline(struct cs_data *cd, struct cs_queue *cq, u64 now)
{
	return now + cs_tun(cd, cs_queue_sync(cq) ? CS_T_FIFO_EXPIRE_SYNC :
						    CS_T_FIFO_EXPIRE_ASYNC);
}

static void cs_cancel_idle(struct cs_data *cd)
{
	if (cd->idling == CS_IDLE_NONE)
		return;
	/* A running callback sees CS_IDLE_NONE and only kicks the queue. */
	hrtimer_try_to_cancel(&cd->idle_timer);
	cd->idling = CS_IDLE_NONE;
}

/* End the active queue's slice; a preempted queue goes first next time. */
static void cs_expire(struct cs_data *cd, bool preempted)
{
	struct cs_queue *cq = cd->active;

	cs_cancel_idle(cd);
	cd->active = NULL;
	cs_log_q(cd, cq, "slice expired%s dispatched=%u", preempted ?
		 " (preempted)" : "", cq->slice_dispatch);
	cq->slice_end = 0;
	cq->slice_dispatch = 0;
	cq->flags &= ~CSQ_FIFO_USED;
	if (cq->queued)
		cs_rr_add(cd, cq, preempted);
	cs_put_queue(cq);
}

static bool cs_should_preempt_active(struct cs_data *cd, struct cs_queue *cq)
{
	struct cs_queue *active = cd->active;
	struct cs_preempt_input in;

	if (!active || active == cq)
		return false;
	in.new_class = cq->prio_class;
	in.new_sync = cs_queue_sync(cq);
	in.active_class = active->prio_class;
	in.active_sync = cs_queue_sync(active);
	return cs_should_preempt(&in);
}

/**
 * cs_add_request() - queue a request in its context's queue
 * @cd: the scheduler
 * @cq: the request's queue (rq->elv.priv[0])
 * @rq: the request
 * @now: current time, ns
 *
 * Updates the context's think time and the queue's seek history, puts a
 * queue that had nothing on its class's round robin, ends idling when the
 * active queue gets its awaited request, and lets a queue of a higher class
 * (or a sync queue over an async one) take the disk at once.
 */
void cs_add_request(struct cs_data *cd, struct cs_queue *cq,
		    struct request *rq, u64 now)
{
	struct request_queue *q = cd->q;
	u64 dist;

	lockdep_assert_held(&cd->lock);

	cs_update_prio(cd, cq, rq);
	/* It was thinking if nothing of it was queued or in flight. */
	if (cq->last_done && !cq->queued && !cq->dispatched && now > cq->last_done)
		cs_ttime_add(&cq->ttime, now - cq->last_done,
			     cs_tun(cd, CS_T_SLICE_IDLE));
	dist = 0;
	if (cq->last_end || cq->seek.nr)
		dist = blk_rq_pos(rq) >= cq->last_end ?
		       blk_rq_pos(rq) - cq->last_end :
		       cq->last_end - blk_rq_pos(rq);
	cs_seek_add(&cq->seek, dist, blk_rq_sectors(rq), cs_queue_rotational(q));
	cq->last_end = blk_rq_pos(rq) + blk_rq_sectors(rq);

	elv_rb_add(&cq->sort, rq);
	/* The core's merge lookups skip requests that cannot merge. */
	elv_rqhash_add(q, rq);
	if (!q->last_merge)
		q->last_merge = rq;
	rq->fifo_time = cs_deadline(cd, cq, now);
	list_add_tail(&rq->queuelist, &cq->fifo);
	cs_rq_set(rq, CS_RQ_QUEUED, cs_queue_sync(cq));
	cd->nr_queued++;
	if (!cq->queued++) {
		cs_busy_account(cd, cq, 1);
		if (cd->active != cq)
			cs_rr_add(cd, cq, false);
	}

	cs_check_split(cd, cq);
	/* Continuing the active queue's stream: join it (members.c). */
	cq = cs_try_cooperate(cd, cq, rq);

	if (cd->active == cq) {
		if (cd->idling != CS_IDLE_NONE) {
			cs_cancel_idle(cd);
			cd->stats.idle_hit++;
			cs_log_q(cd, cq, "idle hit");
		}
	} else if (cs_should_preempt_active(cd, cq)) {
		cd->stats.preempted++;
		cs_log_q(cd, cq, "preempts cs%d%c%c", cd->active->pid,
			 cs_queue_sync(cd->active) ? 'S' : 'A',
			 cs_class_char(cd->active));
		cs_expire(cd, true);
		cs_rr_add(cd, cq, true);
	} else if (cd->idling == CS_IDLE_GROUP && cs_queue_sync(cq) &&
		   cd->active && cq->prio_class == cd->active->prio_class) {
		/* The class waited for more sync work, and here it is. */
		cs_expire(cd, false);
		cd->stats.idle_hit++;
	}
}

/**
 * cs_remove_request() - take a queued request out of its queue
 * @cd: the scheduler
 * @cq: the request's queue
 * @rq: the request
 */
void cs_remove_request(struct cs_data *cd, struct cs_queue *cq,
		       struct request *rq)
{
	struct request_queue *q = cd->q;

	lockdep_assert_held(&cd->lock);

	list_del_init(&rq->queuelist);
	elv_rb_del(&cq->sort, rq);
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
	cd->nr_queued--;
	cs_rq_set(rq, 0, cs_queue_sync(cq));
	if (!--cq->queued) {
		cs_busy_account(cd, cq, -1);
		cs_rr_del(cd, cq);
	}
}

/**
 * cs_reposition_request() - re-sort a request whose start sector moved
 * @cq: the request's queue
 * @rq: the request, grown by a front merge
 */
void cs_reposition_request(struct cs_queue *cq, struct request *rq)
{
	elv_rb_del(&cq->sort, rq);
	elv_rb_add(&cq->sort, rq);
}

/* First request at or after @pos in @root, or NULL. */
static struct request *cs_first_from(struct rb_root *root, sector_t pos)
{
	struct rb_node *node = root->rb_node;
	struct request *rq, *found = NULL;

	while (node) {
		rq = rb_entry_rq(node);
		if (blk_rq_pos(rq) >= pos) {
			found = rq;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return found;
}

/* The queue's next request in sector order, allowing short back seeks. */
static struct request *cs_next_by_position(struct cs_data *cd,
					   struct cs_queue *cq)
{
	struct request *cand[2];
	struct rb_node *prev;
	unsigned int nr = 0;
	sector_t pos[2];
	int pick;

	cand[0] = cs_first_from(&cq->sort, cd->head);
	if (cand[0]) {
		pos[nr++] = blk_rq_pos(cand[0]);
		prev = rb_prev(&cand[0]->rb_node);
	} else {
		prev = rb_last(&cq->sort);
	}
	if (prev) {
		cand[nr] = rb_entry_rq(prev);
		pos[nr] = blk_rq_pos(cand[nr]);
		nr++;
	}
	if (!nr)
		return NULL;
	pick = cs_seek_pick(cd->head, pos, nr,
			    (sector_t)cs_tun(cd, CS_T_BACK_SEEK_MAX) * 2,
			    cs_tun(cd, CS_T_BACK_SEEK_PENALTY));
	if (pick >= 0)
		return cand[pick];
	/* Everything lies far behind the head: start a new sweep. */
	return rb_entry_rq(rb_first(&cq->sort));
}

static struct request *cs_choose_request(struct cs_data *cd,
					 struct cs_queue *cq, u64 now)
{
	struct request *rq;

	/* One expired request per slice, so deadlines cannot cause a seek storm. */
	if (!(cq->flags & CSQ_FIFO_USED)) {
		rq = list_first_entry_or_null(&cq->fifo, struct request,
					      queuelist);
		if (rq && cs_fifo_expired(rq->fifo_time, now)) {
			cq->flags |= CSQ_FIFO_USED;
			cd->stats.fifo_expired++;
			cs_log_q(cd, cq, "fifo expired");
			return rq;
		}
	}
	return cs_next_by_position(cd, cq);
}

static unsigned int cs_busy_queues(struct cs_data *cd)
{
	return cd->nr_busy[CS_CLASS_RT] + cd->nr_busy[CS_CLASS_BE] +
	       cd->nr_busy[CS_CLASS_IDLE];
}

/* Requests the active queue may have in the driver at once. */
static unsigned int cs_max_dispatch(struct cs_data *cd, struct cs_queue *cq,
				    u64 now)
{
	unsigned int quantum = cs_tun(cd, CS_T_QUANTUM);
	u64 since;

	if (cq->prio_class == CS_CLASS_IDLE)
		return 1;
	if (!cs_queue_sync(cq)) {
		since = cd->last_delayed_sync ? now - cd->last_delayed_sync :
						U64_MAX;
		return cs_async_max_dispatch(quantum,
					     cs_tun(cd, CS_T_LOW_LATENCY),
					     cd->in_driver[1], since,
					     cs_tun(cd, CS_T_SLICE_SYNC),
					     cq->dispatched);
	}
	/* Alone on the disk, a sync queue may fill the device queue. */
	if (cs_busy_queues(cd) == 1)
		return UINT_MAX;
	return quantum;
}

static u64 cs_slice_for(struct cs_data *cd, struct cs_queue *cq)
{
	bool sync = cs_queue_sync(cq);
	u64 slice;

	slice = cs_slice_len(cs_tun(cd, sync ? CS_T_SLICE_SYNC :
					       CS_T_SLICE_ASYNC), cq->level);
	if (cs_tun(cd, CS_T_LOW_LATENCY))
		slice = cs_scaled_slice(slice, cs_tun(cd, CS_T_SLICE_SYNC),
					cd->nr_busy[cq->prio_class],
					cs_tun(cd, CS_T_TARGET_LATENCY),
					cs_tun(cd, CS_T_SLICE_IDLE));
	return slice;
}

/* A queue whose contexts cooperate on one stream (see members.c). */
static bool cs_queue_coop(const struct cs_queue *cq)
{
	return (cq->flags & CSQ_MERGED) && !(cq->flags & CSQ_SPLIT) &&
	       cq->nr_members > 1;
}

static enum cs_idle cs_idle_for(struct cs_data *cd, struct cs_queue *cq)
{
	struct cs_idle_input in = {
		.sync = cs_queue_sync(cq) && !(cq->flags & CSQ_FALLBACK),
		.rotational = cs_queue_rotational(cd->q),
		.ctx_alive = cs_members_alive(cq),
		.seeky = cs_seeky(&cq->seek),
		.ttime_valid = cs_ttime_valid(&cq->ttime),
		.ttime_mean = cq->ttime.mean,
		.merged = cs_queue_coop(cq),
		.slice_idle = cs_tun(cd, CS_T_SLICE_IDLE),
		.group_idle = cs_tun(cd, CS_T_GROUP_IDLE),
		/* The active queue itself is counted as busy only if queued. */
		.last_sync_in_class =
			cd->nr_busy_sync[cq->prio_class] == (cq->queued ? 1 : 0),
	};

	return cs_idle_decision(&in);
}

/* Keep the disk for the active queue's next request, if worth it. */
static bool cs_arm_idle(struct cs_data *cd, struct cs_queue *cq, u64 now)
{
	enum cs_idle kind = cs_idle_for(cd, cq);
	u64 wait, left;

	if (kind == CS_IDLE_NONE)
		return false;
	wait = cs_idle_window(kind, cs_queue_coop(cq),
			      cs_tun(cd, CS_T_SLICE_IDLE),
			      cs_tun(cd, CS_T_GROUP_IDLE));
	if (cq->slice_end) {
		left = cq->slice_end > now ? cq->slice_end - now : 0;
		/* Not worth it if the context thinks longer than what is left. */
		if (!left || (cs_ttime_valid(&cq->ttime) &&
			      cq->ttime.mean > left))
			return false;
		wait = min(wait, left);
	}
	cd->idling = kind;
	cd->stats.idle_armed++;
	hrtimer_start(&cd->idle_timer, ns_to_ktime(wait), HRTIMER_MODE_REL);
	cs_log_q(cd, cq, "arm %s idle %llu us",
		 kind == CS_IDLE_QUEUE ? "slice" : "group",
		 div_u64(wait, NSEC_PER_USEC));
	return true;
}

static void cs_set_active(struct cs_data *cd, struct cs_queue *cq)
{
	/* A pending IDLE-class grace timer no longer applies. */
	cs_cancel_idle(cd);
	cs_rr_del(cd, cq);
	cq->ref++;
	cq->slice_end = 0;
	cq->slice_dispatch = 0;
	cq->flags &= ~CSQ_FIFO_USED;
	cd->active = cq;
	cd->stats.slices++;
	cs_log_q(cd, cq, "set_active level=%u queued=%u", cq->level,
		 cq->queued);
}

/* What the active queue does now. */
enum cs_keep {
	CS_KEEP_DISPATCH,	/* it has requests and slice left */
	CS_KEEP_WAIT,		/* it waits for its next request */
	CS_KEEP_RELEASE,	/* it gives up the disk */
};

static enum cs_keep cs_active_keeps(struct cs_data *cd, struct cs_queue *cq,
				    u64 now)
{
	if (cs_slice_expired(cq->slice_end, now))
		return CS_KEEP_RELEASE;
	if (cq->queued)
		return CS_KEEP_DISPATCH;
	if (cd->idling != CS_IDLE_NONE)
		return CS_KEEP_WAIT;
	/* Nobody else wants the disk: keep the slice going. */
	if (!cs_busy_queues(cd))
		return CS_KEEP_WAIT;
	/* With requests in the driver, decide when the last one completes. */
	if (cq->dispatched)
		return cs_idle_for(cd, cq) != CS_IDLE_NONE ? CS_KEEP_WAIT :
							     CS_KEEP_RELEASE;
	return cs_arm_idle(cd, cq, now) ? CS_KEEP_WAIT : CS_KEEP_RELEASE;
}

/* Pick the queue that may dispatch now; NULL if the disk should wait. */
static struct cs_queue *cs_select_queue(struct cs_data *cd, u64 now)
{
	struct cs_queue *cq = cd->active;
	enum cs_prio_class pclass;
	u64 wait;

	if (cq) {
		switch (cs_active_keeps(cd, cq, now)) {
		case CS_KEEP_DISPATCH:
			return cq;
		case CS_KEEP_WAIT:
			return NULL;
		case CS_KEEP_RELEASE:
			cs_expire(cd, false);
			break;
		}
	}

	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++) {
		cq = list_first_entry_or_null(&cd->rr[pclass], struct cs_queue,
					      rr);
		if (!cq)
			continue;
		if (pclass == CS_CLASS_IDLE &&
		    !cs_idle_class_may_run(cd->last_busy, now,
					   CS_IDLE_CLASS_GRACE)) {
			/* Let the disk stay free of other work for a while. */
			if (cd->idling == CS_IDLE_NONE) {
				wait = cd->last_busy + CS_IDLE_CLASS_GRACE - now;
				cd->idling = CS_IDLE_GROUP;
				hrtimer_start(&cd->idle_timer, ns_to_ktime(wait),
					      HRTIMER_MODE_REL);
			}
			return NULL;
		}
		cs_set_active(cd, cq);
		return cq;
	}
	return NULL;
}

/**
 * cs_dispatch_from_queues() - the next request the active queue dispatches
 * @cd: the scheduler
 * @now: current time, ns
 *
 * Return: a request taken off its queue and counted as in the driver, or
 * NULL when nothing may be dispatched now (no work, idling, or the active
 * queue has as many requests in the driver as it may).
 */
struct request *cs_dispatch_from_queues(struct cs_data *cd, u64 now)
{
	struct cs_queue *cq;
	struct request *rq;
	unsigned int max_rq;

	lockdep_assert_held(&cd->lock);

	cq = cs_select_queue(cd, now);
	if (!cq || cq->dispatched >= cs_max_dispatch(cd, cq, now))
		return NULL;
	rq = cs_choose_request(cd, cq, now);
	if (WARN_ON_ONCE(!rq))
		return NULL;

	cs_remove_request(cd, cq, rq);
	cq->dispatched++;
	cq->slice_dispatch++;
	if (cq->prio_class != CS_CLASS_IDLE)
		cd->last_busy = now;
	if (!cq->slice_end) {
		cq->slice_end = now + cs_slice_for(cd, cq) + cq->slice_credit;
		cq->slice_credit = 0;
		cs_log_q(cd, cq, "slice %llu us",
			 div_u64(cq->slice_end - now, NSEC_PER_USEC));
	}
	/*
	 * While other queues wait, async queues get a request budget per
	 * slice and IDLE queues one request.
	 */
	if (cs_busy_queues(cd) > (cq->queued ? 1 : 0)) {
		max_rq = cs_async_slice_rq(cs_tun(cd, CS_T_SLICE_ASYNC_RQ),
					   cq->level);
		if ((!cs_queue_sync(cq) && cq->slice_dispatch >= max_rq) ||
		    (cq->prio_class == CS_CLASS_IDLE && cs_busy_queues(cd) > 1))
			cs_expire(cd, false);
	}
	return rq;
}

/**
 * cs_request_done() - account a request the driver finished
 * @cd: the scheduler
 * @cq: its queue
 * @rq: the request
 * @sync: it was counted as sync when dispatched
 * @now: current time, ns
 *
 * When the active queue's last request completes and it has nothing
 * queued, this is where it starts idling for its context's next request,
 * or gives up the disk.
 */
void cs_request_done(struct cs_data *cd, struct cs_queue *cq,
		     struct request *rq, bool sync, u64 now)
{
	lockdep_assert_held(&cd->lock);

	cq->dispatched--;
	cq->last_done = now;
	if (cq->prio_class != CS_CLASS_IDLE)
		cd->last_busy = now;
	if (sync && now > rq->fifo_time)
		cd->last_delayed_sync = now;
	if (cd->active != cq || cq->queued || cq->dispatched ||
	    cd->idling != CS_IDLE_NONE)
		return;
	if (cs_slice_expired(cq->slice_end, now) ||
	    (cs_busy_queues(cd) && !cs_arm_idle(cd, cq, now)))
		cs_expire(cd, false);
}

/**
 * cs_idle_timer_fn() - the active queue's idle window (or the IDLE class's
 *	grace period) is over
 * @timer: cs_data.idle_timer
 *
 * Return: HRTIMER_NORESTART.
 */
enum hrtimer_restart cs_idle_timer_fn(struct hrtimer *timer)
{
	struct cs_data *cd = container_of(timer, struct cs_data, idle_timer);
	struct cs_queue *cq;
	unsigned long flags;
	enum cs_idle kind;
	u64 credit;

	spin_lock_irqsave(&cd->lock, flags);
	kind = cd->idling;
	cq = cd->active;
	if (kind != CS_IDLE_NONE) {
		cd->idling = CS_IDLE_NONE;
		if (cq && !cq->queued) {
			cd->stats.idle_expired++;
			credit = kind != CS_IDLE_QUEUE ? 0 :
				 cs_idle_credit(cs_queue_coop(cq),
						cq->slice_end, ktime_get_ns(),
						cs_slice_for(cd, cq));
			if (credit) {
				cq->slice_credit = credit;
				cd->stats.idle_credit++;
			}
			cs_log_q(cd, cq, "idle expired credit=%llu us",
				 div_u64(credit, NSEC_PER_USEC));
			cs_expire(cd, false);
		}
	}
	spin_unlock_irqrestore(&cd->lock, flags);
	blk_mq_run_hw_queues(cd->q, true);
	return HRTIMER_NORESTART;
}

/**
 * cs_expire_active() - end the active queue's slice now
 * @cd: the scheduler
 */
void cs_expire_active(struct cs_data *cd)
{
	if (cd->active)
		cs_expire(cd, false);
}

/**
 * cs_queue_init_data() - set up the queue-management part of a scheduler
 * @cd: the scheduler
 */
void cs_queue_init_data(struct cs_data *cd)
{
	enum cs_prio_class pclass;

	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++)
		INIT_LIST_HEAD(&cd->rr[pclass]);
	hash_init(cd->keyed);
	cs_queue_setup(cd, &cd->fallback, false, CS_CLASS_BE,
		       CS_DEFAULT_LEVEL);
	cd->fallback.flags |= CSQ_FALLBACK;
	cd->fallback.ref = 1;
	cs_hrtimer_setup(&cd->idle_timer, cs_idle_timer_fn);
}

/**
 * cs_queue_exit_data() - tear down the queue-management part
 * @cd: the scheduler, whose request queue is frozen and empty
 */
void cs_queue_exit_data(struct cs_data *cd)
{
	enum cs_prio_class pclass;
	unsigned int level;

	hrtimer_cancel(&cd->idle_timer);
	spin_lock_irq(&cd->lock);
	if (cd->active)
		cs_expire(cd, false);
	for (pclass = CS_CLASS_RT; pclass < CS_NR_CLASSES; pclass++) {
		for (level = 0; level < CS_NR_LEVELS; level++) {
			if (cd->async_q[pclass][level])
				cs_put_queue(cd->async_q[pclass][level]);
			cd->async_q[pclass][level] = NULL;
		}
	}
	spin_unlock_irq(&cd->lock);
	WARN_ON_ONCE(cd->fallback.ref != 1);
}
