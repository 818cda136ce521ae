/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel interfaces ctxsched's scheduling core (sched/core.c and the
 * policy files) and its KUnit suites use, for building them in userspace:
 * the simulator (tools/sim) and the host run of the KUnit cases.  Every
 * linux/ header here includes only this file.  Lists and hash tables work
 * as in the kernel; the "red-black" tree is a plain binary search tree with
 * the same interface (the simulator's trees are small).
 */
#ifndef CS_SIM_SHIM_H
#define CS_SIM_SHIM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <assert.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 sector_t;
typedef unsigned int gfp_t;
typedef unsigned int blk_opf_t;

#define NSEC_PER_USEC	1000ULL
#define NSEC_PER_MSEC	1000000ULL
#define NSEC_PER_SEC	1000000000ULL
#define U64_MAX		UINT64_MAX
#define U32_MAX		UINT32_MAX
#ifndef UINT_MAX
#define UINT_MAX	(~0U)
#endif

#define GFP_KERNEL	0u
#define GFP_ATOMIC	0u
#define GFP_NOWAIT	0u
#define __GFP_NOWARN	0u

#define BIT(n)		(1UL << (n))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __maybe_unused	__attribute__((unused))
#define noinline	__attribute__((__noinline__))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define READ_ONCE(x)	(*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#define lockdep_assert_held(l) do { } while (0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#define min(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(type, a, b) ({ type _a = (a); type _b = (b); _a < _b ? _a : _b; })
#define max_t(type, a, b) ({ type _a = (a); type _b = (b); _a > _b ? _a : _b; })
#define clamp(v, lo, hi) min(max(v, lo), hi)

/* Warnings count; a simulation or test run fails when any was seen. */
extern unsigned long cs_sim_warnings;
void cs_sim_warn(const char *file, int line, const char *what);
#define WARN_ON_ONCE(c) ({						\
	bool __c = !!(c);						\
	if (__c)							\
		cs_sim_warn(__FILE__, __LINE__, #c);			\
	__c;								\
})
#define WARN_ON(c)	WARN_ON_ONCE(c)
#define WARN(c, ...)	WARN_ON_ONCE(c)

#define pr_debug(fmt, ...)	({ if (0) printf(fmt, ##__VA_ARGS__); })
#define pr_info(...)	printf(__VA_ARGS__)
#define pr_err(...)	fprintf(stderr, __VA_ARGS__)

static inline void *kzalloc(size_t n, gfp_t gfp)
{
	return calloc(1, n);
}

static inline void *kzalloc_node(size_t n, gfp_t gfp, int node)
{
	return calloc(1, n);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return calloc(n, size);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

static inline u64 div_u64(u64 a, u32 b)
{
	return a / b;
}

static inline u64 div64_u64(u64 a, u64 b)
{
	return a / b;
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)((unsigned __int128)a * b / c);
}

static inline unsigned int hweight32(u32 w)
{
	return __builtin_popcount(w);
}

/* Doubly linked lists, as <linux/list.h>. */
struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void __list_add(struct list_head *n, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *head)
{
	__list_add(n, head, head->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *head)
{
	__list_add(n, head->prev, head);
}

static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = NULL;
	e->prev = NULL;
}

static inline void list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	INIT_LIST_HEAD(e);
}

static inline void list_move(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add(e, head);
}

static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	list_del_init(e);
	list_add_tail(e, head);
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member) \
	list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member) \
	(list_empty(ptr) ? NULL : list_first_entry(ptr, type, member))
#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, typeof(*(pos)), member)
#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, typeof(*(pos)), member)
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_first_entry(head, typeof(*pos), member);	\
	     &pos->member != (head); pos = list_next_entry(pos, member))
#define list_for_each_entry_reverse(pos, head, member)			\
	for (pos = list_last_entry(head, typeof(*pos), member);	\
	     &pos->member != (head); pos = list_prev_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, typeof(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (head);					\
	     pos = n, n = list_next_entry(n, member))

/* Hash lists and tables, as <linux/hashtable.h>. */
struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

static inline void INIT_HLIST_NODE(struct hlist_node *h)
{
	h->next = NULL;
	h->pprev = NULL;
}

static inline int hlist_unhashed(const struct hlist_node *h)
{
	return !h->pprev;
}

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	n->next = h->first;
	if (h->first)
		h->first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

static inline void hlist_del_init(struct hlist_node *n)
{
	if (hlist_unhashed(n))
		return;
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	INIT_HLIST_NODE(n);
}

#define DECLARE_HASHTABLE(name, bits)	struct hlist_head name[1 << (bits)]
#define HASH_SIZE(name)			ARRAY_SIZE(name)
#define hash_init(t)	memset(t, 0, sizeof(t))
#define hash_min(val, bits) \
	((unsigned int)(((u64)(val) * 0x61c8864680b583ebULL) >> (64 - (bits))))
#define hash_bits(t)	(__builtin_ctz(HASH_SIZE(t)))
#define hash_add(t, node, key) \
	hlist_add_head(node, &(t)[hash_min(key, hash_bits(t))])
#define hash_del(node)	hlist_del_init(node)
#define hlist_entry_safe(ptr, type, member) \
	({ typeof(ptr) ____p = (ptr); ____p ? container_of(____p, type, member) : NULL; })
#define hlist_for_each_entry(pos, head, member)				\
	for (pos = hlist_entry_safe((head)->first, typeof(*(pos)), member); \
	     pos;							\
	     pos = hlist_entry_safe((pos)->member.next, typeof(*(pos)), member))
#define hash_for_each_possible(t, obj, member, key) \
	hlist_for_each_entry(obj, &(t)[hash_min(key, hash_bits(t))], member)

/* Search trees with the interface of <linux/rbtree.h>, not balanced. */
struct rb_node {
	struct rb_node *parent, *rb_left, *rb_right;
	bool linked;
};

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT		((struct rb_root) { NULL })
#define rb_entry(ptr, type, member)	container_of(ptr, type, member)
#define RB_EMPTY_ROOT(root)		((root)->rb_node == NULL)
#define RB_EMPTY_NODE(node)		(!(node)->linked)
#define RB_CLEAR_NODE(node)		((node)->linked = false)

static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->parent = parent;
	node->rb_left = NULL;
	node->rb_right = NULL;
	node->linked = true;
	*link = node;
}

static inline void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
}

void rb_erase(struct rb_node *node, struct rb_root *root);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);

/* Requests: the fields and accessors the scheduling core uses. */
#define REQ_OP_BITS	8
#define REQ_OP_MASK	((1u << REQ_OP_BITS) - 1)
#define REQ_OP_READ	0u
#define REQ_OP_WRITE	1u
#define REQ_OP_FLUSH	2u
#define REQ_SYNC	(1u << 11)
#define REQ_META	(1u << 12)
#define REQ_PRIO	(1u << 13)
#define REQ_FUA		(1u << 17)
#define REQ_PREFLUSH	(1u << 18)

struct io_cq;

struct request {
	sector_t __sector;
	unsigned int __data_len;
	blk_opf_t cmd_flags;
	unsigned short ioprio;
	u64 fifo_time;
	struct list_head queuelist;
	struct rb_node rb_node;
	struct {
		struct io_cq *icq;
		void *priv[2];
	} elv;
};

static inline bool op_is_write(blk_opf_t op)
{
	return op & 1;
}

static inline bool op_is_sync(blk_opf_t op)
{
	return (op & REQ_OP_MASK) == REQ_OP_READ ||
	       (op & (REQ_SYNC | REQ_FUA | REQ_PREFLUSH));
}

static inline unsigned int req_op(const struct request *rq)
{
	return rq->cmd_flags & REQ_OP_MASK;
}

static inline bool rq_is_sync(const struct request *rq)
{
	return op_is_sync(rq->cmd_flags);
}

static inline sector_t blk_rq_pos(const struct request *rq)
{
	return rq->__sector;
}

static inline unsigned int blk_rq_bytes(const struct request *rq)
{
	return rq->__data_len;
}

static inline unsigned int blk_rq_sectors(const struct request *rq)
{
	return rq->__data_len >> 9;
}

static inline unsigned short req_get_ioprio(const struct request *rq)
{
	return rq->ioprio;
}

/* I/O priorities, as <uapi/linux/ioprio.h>. */
#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_PRIO_MASK	((1u << IOPRIO_CLASS_SHIFT) - 1)
#define IOPRIO_PRIO_CLASS(p)	(((p) >> IOPRIO_CLASS_SHIFT) & 7)
#define IOPRIO_PRIO_DATA(p)	((p) & IOPRIO_PRIO_MASK)
#define IOPRIO_PRIO_VALUE(c, d)	((unsigned short)(((c) << IOPRIO_CLASS_SHIFT) | (d)))
enum {
	IOPRIO_CLASS_NONE,
	IOPRIO_CLASS_RT,
	IOPRIO_CLASS_BE,
	IOPRIO_CLASS_IDLE,
};

#endif /* CS_SIM_SHIM_H */
