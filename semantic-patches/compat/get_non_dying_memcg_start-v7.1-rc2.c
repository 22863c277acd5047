/* Shaped like mm/memcontrol.c of v7.1-rc1 (the one-argument form). */
#ifdef CONFIG_MEMCG_V1
/*
 * Used in mod_memcg_state() and mod_memcg_lruvec_state() to avoid race with
 * reparenting of non-hierarchical state_locals.
 */
static inline struct mem_cgroup *get_non_dying_memcg_start(struct mem_cgroup *memcg)
{
	if (cgroup_subsys_on_dfl(memory_cgrp_subsys))
		return memcg;

	rcu_read_lock();

	while (memcg_is_dying(memcg))
		memcg = parent_mem_cgroup(memcg);

	return memcg;
}

static inline void get_non_dying_memcg_end(void)
{
	if (cgroup_subsys_on_dfl(memory_cgrp_subsys))
		return;

	rcu_read_unlock();
}
#else
static inline struct mem_cgroup *get_non_dying_memcg_start(struct mem_cgroup *memcg)
{
	return memcg;
}

static inline void get_non_dying_memcg_end(void)
{
}
#endif

/**
 * mod_memcg_state - update cgroup memory statistics
 * @memcg: the memory cgroup
 * @idx: the stat item - can be enum memcg_stat_item or enum node_stat_item
 * @val: delta to add to the counter, can be negative
 */
void mod_memcg_state(struct mem_cgroup *memcg, enum memcg_stat_item idx,
		       int val)
{
	if (mem_cgroup_disabled())
		return;

	memcg = get_non_dying_memcg_start(memcg);
	__mod_memcg_state(memcg, idx, val);
	get_non_dying_memcg_end();
}

static void mod_memcg_lruvec_state(struct lruvec *lruvec,
				   enum node_stat_item idx,
				   int val)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct mem_cgroup_per_node *pn;
	struct mem_cgroup *memcg;

	pn = container_of(lruvec, struct mem_cgroup_per_node, lruvec);
	memcg = get_non_dying_memcg_start(pn->memcg);
	pn = memcg->nodeinfo[pgdat->node_id];

	__mod_memcg_lruvec_state(pn, idx, val);

	get_non_dying_memcg_end();
}
