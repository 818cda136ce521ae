// SPDX-License-Identifier: GPL-2.0
/*
 * The search tree of sim-shim.h: a binary search tree with parent pointers
 * and the rb_*() interface, without balancing, plus the warning counter.
 */
#include "sim-shim.h"

unsigned long cs_sim_warnings;

void cs_sim_warn(const char *file, int line, const char *what)
{
	cs_sim_warnings++;
	fprintf(stderr, "WARNING: %s:%d: %s\n", file, line, what);
}

static void cs_rb_replace(struct rb_node *old, struct rb_node *new,
			  struct rb_root *root)
{
	struct rb_node *p = old->parent;

	if (!p)
		root->rb_node = new;
	else if (p->rb_left == old)
		p->rb_left = new;
	else
		p->rb_right = new;
	if (new)
		new->parent = p;
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *succ;

	if (!node->rb_left) {
		cs_rb_replace(node, node->rb_right, root);
	} else if (!node->rb_right) {
		cs_rb_replace(node, node->rb_left, root);
	} else {
		succ = node->rb_right;
		while (succ->rb_left)
			succ = succ->rb_left;
		if (succ->parent != node) {
			cs_rb_replace(succ, succ->rb_right, root);
			succ->rb_right = node->rb_right;
			succ->rb_right->parent = succ;
		}
		cs_rb_replace(node, succ, root);
		succ->rb_left = node->rb_left;
		succ->rb_left->parent = succ;
	}
	node->linked = false;
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_left)
		n = n->rb_left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_right)
		n = n->rb_right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *p;

	if (!node->linked)
		return NULL;
	if (node->rb_right) {
		node = node->rb_right;
		while (node->rb_left)
			node = node->rb_left;
		return (struct rb_node *)node;
	}
	while ((p = node->parent) && node == p->rb_right)
		node = p;
	return p;
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *p;

	if (!node->linked)
		return NULL;
	if (node->rb_left) {
		node = node->rb_left;
		while (node->rb_right)
			node = node->rb_right;
		return (struct rb_node *)node;
	}
	while ((p = node->parent) && node == p->rb_left)
		node = p;
	return p;
}
