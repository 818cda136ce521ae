// SPDX-License-Identifier: GPL-2.0
/*
 * Which queue serves an I/O context's sync requests.
 *
 * With group_by=thread every context has its own queue, as with CFQ; with
 * group_by=process the contexts of one process share a queue, found by
 * process in cs_core.keyed.  Either way a queue whose request continues the
 * active queue's stream is merged into the active queue: its requests and
 * contexts move there, so the stream gets one slice, one idle window and
 * one think time.  A merged queue whose requests turn seeky is split: each
 * of its contexts leaves at its next request for a queue of its own (its
 * queued requests stay and are served where they are).  A context whose
 * priority differs from its merged queue's leaves the same way, and a
 * change of group_by regroups every context.
 *
 * All under the core's lock.
 */
#include <linux/kernel.h>

#include "core.h"
#include "rq.h"

/**
 * cs_unkey() - stop a queue being its process's queue
 * @core: the scheduler
 * @cq: the queue
 */
void cs_unkey(struct cs_core *core, struct cs_queue *cq)
{
	if (cq->flags & CSQ_KEYED) {
		hash_del(&cq->key_node);
		cq->flags &= ~CSQ_KEYED;
	}
}

static void cs_join(struct cs_core *core, struct cs_ctx *ctx,
		    struct cs_queue *cq)
{
	list_add_tail(&ctx->member, &cq->members);
	cq->nr_members++;
	cq->ref++;
	ctx->sync_q = cq;
	ctx->gen = core->group_gen;
}

/* @ctx leaves its queue.  Return: the active slice ended. */
static bool cs_leave(struct cs_core *core, struct cs_ctx *ctx)
{
	struct cs_queue *cq = ctx->sync_q;
	bool expired = false;

	list_del_init(&ctx->member);
	cq->nr_members--;
	ctx->sync_q = NULL;
	/* Nobody is left to issue requests: do not wait for any. */
	if (!cq->nr_members && core->active == cq &&
	    core->idling != CS_IDLE_NONE) {
		cs_expire_active(core);
		expired = true;
	}
	cs_put_queue(core, cq);
	return expired;
}

static struct cs_queue *cs_keyed_queue(struct cs_core *core,
				       unsigned long key)
{
	struct cs_queue *cq;

	hash_for_each_possible(core->keyed, cq, key_node, key)
		if (cq->key == key)
			return cq;
	return NULL;
}

/* cs_sync_queue() for a context that has no queue or may leave it. */
static struct cs_queue *cs_sync_queue_find(struct cs_core *core,
					   struct cs_ctx *ctx,
					   enum cs_prio_class pclass,
					   unsigned int level)
{
	enum cs_group_by by = core->group_by;
	struct cs_queue *cq = ctx->sync_q;
	u64 done = cq ? cq->last_done : 0;
	unsigned long key;

	if (cq && (cq->flags & CSQ_SPLIT)) {
		cs_log_q(core, cq, "split: context leaves");
		cs_leave(core, ctx);
	} else if (cq && ctx->gen != core->group_gen) {
		cs_leave(core, ctx);
	} else if (cq && (cq->flags & CSQ_MERGED) && cq->nr_members > 1 &&
		   (cq->prio_class != pclass || cq->level != level)) {
		cs_log_q(core, cq, "context leaves for %c%u", "RBI"[pclass],
			 level);
		cs_leave(core, ctx);
	}
	if (ctx->sync_q)
		return ctx->sync_q;

	key = cs_group_key(by, ctx->tgid, ctx->id);
	cq = by == CS_GROUP_PROCESS ? cs_keyed_queue(core, key) : NULL;
	if (!cq) {
		cq = cs_alloc_queue(core, true, pclass, level);
		if (!cq)
			return NULL;
		/* A new competitor: the device model may measure again. */
		cs_model_newcomer(&core->model, ctx->pool &&
				  ctx->pool == core->newcomer_pool);
		core->newcomer_pool = ctx->pool;
		/*
		 * A context that leaves a queue is not a program starting:
		 * without the old queue's last completion its first request
		 * here would start a boost (S9's two dd readers, split 15
		 * times as cooperators, were boosted again each time and
		 * went in beside python's reads as boosted ones).
		 */
		cq->last_done = done;
		if (by == CS_GROUP_PROCESS) {
			cq->key = key;
			hash_add(core->keyed, &cq->key_node, key);
			cq->flags |= CSQ_KEYED;
		}
	}
	cs_join(core, ctx, cq);
	return cq;
}

/**
 * cs_sync_queue() - the queue that serves a context's next sync request
 * @core: the scheduler
 * @ctx: the context's part
 * @pclass: class of the request
 * @level: level of the request
 *
 * A context whose queue is being split, that joined it under another
 * group_by, or whose priority is not its merged queue's, leaves it first.
 *
 * Return: the queue, or NULL when out of memory.
 */
struct cs_queue *cs_sync_queue(struct cs_core *core, struct cs_ctx *ctx,
			       enum cs_prio_class pclass, unsigned int level)
{
	struct cs_queue *cq = ctx->sync_q;

	cs_env_lock_held(core);

	/* The common case first, without the work of a change: it stays. */
	if (cq && !(cq->flags & (CSQ_SPLIT | CSQ_MERGED)) &&
	    ctx->gen == core->group_gen)
		return cq;
	return cs_sync_queue_find(core, ctx, pclass, level);
}

/**
 * cs_exit_ctx() - an I/O context leaves this disk
 * @core: the scheduler
 * @ctx: the context's part
 *
 * Return: true when the active slice ended because of it.
 */
bool cs_exit_ctx(struct cs_core *core, struct cs_ctx *ctx)
{
	cs_env_lock_held(core);

	return ctx->sync_q ? cs_leave(core, ctx) : false;
}

/**
 * cs_members_alive() - whether a queue's contexts may issue more requests
 * @cq: the queue
 *
 * Return: true if a task still uses one of its contexts.
 */
bool cs_members_alive(const struct cs_queue *cq)
{
	struct cs_ctx *ctx;

	list_for_each_entry(ctx, &cq->members, member)
		if (cs_env_ctx_alive(ctx))
			return true;
	return false;
}

/*
 * Merge @from's FIFO into @into's, both ordered by deadline: one pass over
 * the two lists, not a search per request.
 */
static void cs_fifo_merge(struct list_head *into, struct list_head *from)
{
	struct list_head *pos = into->next;
	struct request *rq, *cur;

	while (!list_empty(from)) {
		rq = list_first_entry(from, struct request, queuelist);
		while (pos != into) {
			cur = list_entry(pos, struct request, queuelist);
			if (cur->fifo_time > rq->fifo_time)
				break;
			pos = pos->next;
		}
		/* Before @pos: after every request with an earlier deadline. */
		list_move_tail(&rq->queuelist, pos);
	}
}

/* Move @from's queued requests and contexts into @into. */
static void cs_merge_queues(struct cs_core *core, struct cs_queue *into,
			    struct cs_queue *from)
{
	unsigned int into_before = into->queued + into->dispatched;
	unsigned int from_before = from->queued + from->dispatched;
	struct request *rq;
	struct cs_ctx *ctx, *tmp;
	struct rb_node *node;
	int refs = 0;

	/* Before the counts change: @into counts in its level from now. */
	if (from->flags & CSQ_READER)
		cs_mark_reader(core, into);
	while ((node = rb_first(&from->sort))) {
		rq = rb_entry(node, struct request, rb_node);
		rb_erase(node, &from->sort);
		RB_CLEAR_NODE(node);
		cs_sort_add(into, rq);
		cs_rq_set_queue(rq, into);
		into->ref++;
		refs++;
	}
	cs_fifo_merge(&into->fifo, &from->fifo);
	if (from->queued) {
		cs_busy_account(core, from, -1);
		cs_rr_del(core, from);
		if (!into->queued)
			cs_busy_account(core, into, 1);
		into->queued += from->queued;
		from->queued = 0;
		into->meta_queued += from->meta_queued;
		from->meta_queued = 0;
	}
	list_for_each_entry_safe(ctx, tmp, &from->members, member) {
		list_move_tail(&ctx->member, &into->members);
		ctx->sync_q = into;
		into->ref++;
		refs++;
	}
	into->nr_members += from->nr_members;
	from->nr_members = 0;
	into->flags |= CSQ_MERGED;
	/* @from no longer stands for its process: the stream does. */
	cs_unkey(core, from);
	/* Present-queue counts, as cs_present_inc() and _dec() keep them. */
	if (!into_before && into->queued + into->dispatched)
		cs_present_account(core, into, 1);
	if (from_before && !(from->queued + from->dispatched))
		cs_present_account(core, from, -1);
	while (refs--)
		cs_put_queue(core, from);
}

/*
 * cs_try_cooperate() for a request within CS_COOP_CLOSE (@distance) of
 * the active queue's stream.  Apart, so that the common case does not
 * pay for saving the registers this takes.
 */
static noinline struct cs_queue *
cs_cooperate(struct cs_core *core, struct cs_queue *active,
	     struct cs_queue *cq, u64 distance)
{
	struct cs_coop_input in;

	in.distance = distance;
	in.active_sync = cs_queue_sync(active);
	in.new_sync = cs_queue_sync(cq);
	in.active_class = active->prio_class;
	in.new_class = cq->prio_class;
	in.active_level = active->level;
	in.new_level = cq->level;
	in.new_history = cq->seek.nr;
	in.active_seeky = cs_seeky(&active->seek);
	in.new_seeky = cs_seeky(&cq->seek);
	if (!cs_should_merge(&in))
		return cq;

	core->stats.coop_merged++;
	cs_log_q(core, active, "merge cs%d%c%c (%u contexts) distance %llu",
		 cq->pid, cs_queue_sync(cq) ? 'S' : 'A', cs_class_char(cq),
		 cq->nr_members, (unsigned long long)in.distance);
	cs_merge_queues(core, active, cq);
	return active;
}

/**
 * cs_try_cooperate() - merge a queue into the active one if its new request
 *	continues the active queue's stream
 * @core: the scheduler
 * @cq: the queue that just got @rq
 * @rq: the request
 *
 * Return: the queue that now holds @rq (the active queue after a merge).
 */
struct cs_queue *cs_try_cooperate(struct cs_core *core, struct cs_queue *cq,
				  struct request *rq)
{
	struct cs_queue *active = core->active;
	sector_t pos = blk_rq_pos(rq);
	u64 d_head, d_last;

	cs_env_lock_held(core);

	if (!active || active == cq ||
	    ((active->flags | cq->flags) & (CSQ_FALLBACK | CSQ_SPLIT)))
		return cq;
	/*
	 * The head continues the active queue's stream only where the active
	 * queue put it there: beside it (PARALLEL mode, boosts, write-back)
	 * the head is often @cq's own last request, and @cq's next request
	 * lands on it at distance 0 however far the two streams are apart.
	 */
	d_head = U64_MAX;
	if (core->head_q == active)
		d_head = pos >= core->head ? pos - core->head :
					     core->head - pos;
	d_last = pos >= active->last_end ? pos - active->last_end :
					   active->last_end - pos;
	/*
	 * The cheap test first, before the work of a merge is set up:
	 * cs_should_merge() merges nothing farther.
	 */
	if (min(d_head, d_last) > CS_COOP_CLOSE)
		return cq;
	return cs_cooperate(core, active, cq, min(d_head, d_last));
}

/**
 * cs_check_split() - mark a merged queue for splitting once it turns seeky
 * @core: the scheduler
 * @cq: a queue that just got a request
 */
void cs_check_split(struct cs_core *core, struct cs_queue *cq)
{
	if ((cq->flags & CSQ_SPLIT) ||
	    !cs_should_split(cq->flags & CSQ_MERGED, cq->nr_members,
			     cs_seeky(&cq->seek)))
		return;
	cq->flags |= CSQ_SPLIT;
	core->stats.coop_split++;
	cs_unkey(core, cq);
	cs_log_q(core, cq, "split: %u contexts no longer cooperate",
		 cq->nr_members);
}
