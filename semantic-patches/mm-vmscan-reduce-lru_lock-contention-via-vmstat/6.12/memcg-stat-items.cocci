// Target: mm/memcontrol.c
// Series A patch 2, mm/memcontrol.c hunk 1, and what 6.12 needs beyond it.
//
// The seed adds the new counters to memcg_node_stat_items[] after
// PGSCAN_FILE, a node stat only since 7.1; in 6.12 they follow
// PGDEMOTE_KHUGEPAGED, as in enum node_stat_item.  Without them
// memcg_stats_index() has no slot: mod_lruvec_state() warns "missing
// stat item" and lruvec_page_state_monotonic() reads 0, so the cost
// model silently sees no cost.
//
// Not in the seed, needed by 6.12: the memory_stats[] entries and the
// memcg_page_state_output_unit() cases.  They are new lines in tables
// that spatch 1.1.1 formats badly (struct initialisers) or cannot anchor
// (case labels), so hunks/6.12/2-memcontrol-memory-stats.patch carries
// them.
#spatch --keep-comments

@done depends on file in "mm/memcontrol.c"@
type T;
identifier items = memcg_node_stat_items;
@@
T items[] = { ..., PGROTATE_FILE, ... };

@depends on file in "mm/memcontrol.c" && !done@
type T;
identifier items = memcg_node_stat_items;
@@
T items[] = { ...,
	PGDEMOTE_KHUGEPAGED,
+	PGRECLAIM_PAGEOUT_ANON,
+	PGRECLAIM_PAGEOUT_FILE,
+	PGROTATE_ANON,
+	PGROTATE_FILE,
	... };
