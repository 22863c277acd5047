// Target: include/linux/mmzone.h
// Series A patch 2, include/linux/mmzone.h hunk 1: the four new per-LRU
// counters.  In 6.12 PGSCAN_* and PGSTEAL_* are vm events, so the seed's
// anchor (PGSCAN_FILE in enum node_stat_item) does not exist; the
// counters join the other reclaim event counters kept as node stats,
// after PGDEMOTE_KHUGEPAGED.  vmstat-text and memcg-stat-items put their
// names at the same position.
#spatch --keep-comments

@done depends on file in "include/linux/mmzone.h"@
@@
enum node_stat_item { ..., PGROTATE_FILE, ... };

@depends on file in "include/linux/mmzone.h" && !done@
@@
enum node_stat_item { ...,
	PGDEMOTE_KHUGEPAGED,
+	PGRECLAIM_PAGEOUT_ANON,
+	PGRECLAIM_PAGEOUT_FILE,
+	PGROTATE_ANON,
+	PGROTATE_FILE,
	... };
