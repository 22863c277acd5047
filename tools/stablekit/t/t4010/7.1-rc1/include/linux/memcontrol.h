/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stub of include/linux/memcontrol.h for t4010: only what the series-B
 * functions of mm/memcontrol.c and mm/workingset.c use, so that the
 * ported files can be checked with gcc -fsyntax-only.  It has the
 * memcg-is-dying helper of v6.19 and later; t4010 deletes the lines
 * between its markers to make a tree older than v6.19.
 */
#ifndef _LINUX_MEMCONTROL_H
#define _LINUX_MEMCONTROL_H

#include <stdbool.h>
#include <stddef.h>

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define MAX_NR_ZONES		4
#define MAX_NUMNODES		4
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};

enum node_stat_item {
	NR_LRU_BASE,
	NR_SLAB_RECLAIMABLE_B = NR_LRU_BASE + NR_LRU_LISTS,
	NR_SLAB_UNRECLAIMABLE_B,
	NR_VM_NODE_STAT_ITEMS
};

enum memcg_stat_item {
	MEMCG_SWAP = NR_VM_NODE_STAT_ITEMS,
	MEMCG_NR_STAT
};

struct cgroup_subsys_state {
	unsigned int flags;
};

struct cgroup_subsys {
	int id;
};

extern struct cgroup_subsys memory_cgrp_subsys;

bool cgroup_subsys_on_dfl(struct cgroup_subsys ss);
bool css_is_dying(struct cgroup_subsys_state *css);
void rcu_read_lock(void);
void rcu_read_unlock(void);

struct lruvec {
	unsigned long flags;
};

struct pglist_data {
	int node_id;
};

struct mem_cgroup;

struct mem_cgroup_per_node {
	struct lruvec lruvec;
	struct mem_cgroup *memcg;
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	long *state_percpu;
	struct mem_cgroup_per_node *nodeinfo[MAX_NUMNODES];
};

struct shrinker;

struct shrink_control {
	int nid;
	struct mem_cgroup *memcg;
};

struct pglist_data *NODE_DATA(int nid);
bool mem_cgroup_disabled(void);
struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg);
struct pglist_data *lruvec_pgdat(struct lruvec *lruvec);
struct lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg,
				 struct pglist_data *pgdat);
void mem_cgroup_flush_stats_ratelimited(struct mem_cgroup *memcg);
unsigned long lruvec_page_state_local(struct lruvec *lruvec,
				      enum node_stat_item idx);
unsigned long lruvec_lru_size(struct lruvec *lruvec, enum lru_list lru,
			      int zone_idx);
int memcg_page_state_unit(int item);
void memcg_stat_add(struct mem_cgroup *memcg, int i, long val);
void memcg_lruvec_stat_add(struct mem_cgroup_per_node *pn, int i,
			   long val);

/* memcg-is-dying: begin */
static inline bool memcg_is_dying(struct mem_cgroup *memcg)
{
	return memcg ? css_is_dying(&memcg->css) : false;
}
/* memcg-is-dying: end */

#endif /* _LINUX_MEMCONTROL_H */
