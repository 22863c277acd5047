// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t4010: run mm/memcontrol.c's stat updates of a tree against stubs that
 * count RCU read-side nesting, and check that every update leaves it at
 * zero and lands on the right memcg.  "rebind" makes
 * cgroup_subsys_on_dfl() change its answer on every call, as a rebind
 * between get_non_dying_memcg_start() and get_non_dying_memcg_end()
 * does.  Prints one line per check; exits 1 on the first failure.
 */
#include <linux/memcontrol.h>
#include <stdio.h>
#include <string.h>

void mod_memcg_state(struct mem_cgroup *memcg, enum memcg_stat_item idx,
		     int val);

struct cgroup_subsys memory_cgrp_subsys;

static int rcu_depth;
static int rebind;
static unsigned int dfl_calls;
static struct mem_cgroup root, child;
static long root_stat, child_stat;

bool cgroup_subsys_on_dfl(struct cgroup_subsys ss)
{
	return rebind ? dfl_calls++ % 2 == 0 : true;
}

bool css_is_dying(struct cgroup_subsys_state *css)
{
	return css->flags;
}

void rcu_read_lock(void)
{
	rcu_depth++;
}

void rcu_read_unlock(void)
{
	rcu_depth--;
}

struct pglist_data *NODE_DATA(int nid)
{
	return NULL;
}

bool mem_cgroup_disabled(void)
{
	return false;
}

struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg)
{
	return memcg == &child ? &root : NULL;
}

struct pglist_data *lruvec_pgdat(struct lruvec *lruvec)
{
	return NULL;
}

struct lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg,
				 struct pglist_data *pgdat)
{
	return NULL;
}

void mem_cgroup_flush_stats_ratelimited(struct mem_cgroup *memcg)
{
}

unsigned long lruvec_page_state_local(struct lruvec *lruvec,
				      enum node_stat_item idx)
{
	return 0;
}

unsigned long lruvec_lru_size(struct lruvec *lruvec, enum lru_list lru,
			      int zone_idx)
{
	return 0;
}

int memcg_page_state_unit(int item)
{
	return PAGE_SIZE;
}

void memcg_stat_add(struct mem_cgroup *memcg, int i, long val)
{
	*memcg->state_percpu += val;
}

void memcg_lruvec_stat_add(struct mem_cgroup_per_node *pn, int i,
			   long val)
{
}

static int check(const char *what, int dying, int rebinding,
		 long want_root, long want_child)
{
	root_stat = child_stat = 0;
	child.css.flags = dying;
	rebind = rebinding;
	dfl_calls = 0;
	mod_memcg_state(&child, MEMCG_SWAP, 1);
	printf("%s: rcu depth %d, root %ld, child %ld\n", what, rcu_depth,
	       root_stat, child_stat);
	if (rcu_depth || root_stat != want_root || child_stat != want_child)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	/* argv[1]: "all" if dying memcgs are redirected on cgroup v2 too */
	int all = argc > 1 && !strcmp(argv[1], "all");

	root.state_percpu = &root_stat;
	child.state_percpu = &child_stat;
	if (check("alive", 0, 0, 0, 1) ||
	    check("dying", 1, 0, all, !all) ||
	    check("alive, rebind", 0, 1, 0, 1))
		return 1;
	return 0;
}
