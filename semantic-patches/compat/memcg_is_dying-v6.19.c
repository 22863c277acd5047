/* Shaped like mm/memcontrol.c with series B patch 3 applied. */
static inline struct mem_cgroup *
get_non_dying_memcg_start(struct mem_cgroup *memcg, bool *rcu_locked)
{
	/*
	 * Fast path: the caller holds a reference to @memcg, so reading
	 * its CSS_DYING flag without the RCU lock is safe.
	 */
	if (!memcg_is_dying(memcg)) {
		*rcu_locked = false;
		return memcg;
	}

	rcu_read_lock();
	*rcu_locked = true;

	while (memcg_is_dying(memcg))
		memcg = parent_mem_cgroup(memcg);

	return memcg;
}
