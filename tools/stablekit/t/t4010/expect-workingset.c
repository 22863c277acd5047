// SPDX-License-Identifier: GPL-2.0
/*
 * Shaped like mm/workingset.c of v7.1 for t4010: count_shadow_nodes()
 * with 7404bd37cfbe's lruvec_lru_size() loop.
 */
#include <linux/memcontrol.h>

static unsigned long count_shadow_nodes(struct shrinker *shrinker,
					struct shrink_control *sc)
{
	unsigned long max_nodes;
	unsigned long nodes = 0;
	unsigned long pages;

	if (sc->memcg) {
		struct lruvec *lruvec;
		int i;

		mem_cgroup_flush_stats_ratelimited(sc->memcg);
		lruvec = mem_cgroup_lruvec(sc->memcg, NODE_DATA(sc->nid));
		for (pages = 0, i = 0; i < NR_LRU_LISTS; i++)
			pages += lruvec_page_state_local(lruvec,
							 NR_LRU_BASE + i);
		pages += lruvec_page_state_local(
			lruvec, NR_SLAB_RECLAIMABLE_B) >> PAGE_SHIFT;
		pages += lruvec_page_state_local(
			lruvec, NR_SLAB_UNRECLAIMABLE_B) >> PAGE_SHIFT;
	} else {
		pages = 0;
	}

	max_nodes = pages >> (18 - PAGE_SHIFT);

	if (nodes <= max_nodes)
		return 0;
	return nodes - max_nodes;
}
