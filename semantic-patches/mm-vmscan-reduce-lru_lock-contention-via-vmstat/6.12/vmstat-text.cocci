// Target: mm/vmstat.c
// Series A patch 2, mm/vmstat.c hunk 1: the names of the new counters in
// /proc/vmstat.  6.12's vmstat_text[] is positional (designated
// [I(item)] initialisers came in 6.17), so the names go at the position
// of their enum entries: right after "pgdemote_khugepaged", the last
// node stat, as node-stat-items puts the entries after
// PGDEMOTE_KHUGEPAGED.  The build only checks the array's size;
// ci/cocci/check-vmstat-order checks the order.
#spatch --keep-comments

@done depends on file in "mm/vmstat.c"@
type T;
identifier text = vmstat_text;
@@
T text[] = { ..., "pgrotate_file", ... };

@depends on file in "mm/vmstat.c" && !done@
type T;
identifier text = vmstat_text;
@@
T text[] = { ...,
	"pgdemote_khugepaged",
+	"pgreclaim_pageout_anon",
+	"pgreclaim_pageout_file",
+	"pgrotate_anon",
+	"pgrotate_file",
	... };
