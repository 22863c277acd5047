// Target: mm/vmscan.c
// Series A, fixlet 1 to patch 2 ("increment pgreclaim_pageout_* and
// pgrotate_* for MGLRU") on an evict_folios() older than 7.2's rework
// (handle_reclaim_writeback(), isolate_folios() reporting &isolated).
// Before 7.2, isolate_folios() returns only the number scanned, so the
// pages isolated are summed from the private list before the first
// shrink_folio_list() pass; reclaimed pages and pageouts are summed over
// the retry pass too, and the counters bumped once at the end, as in the
// seed.  evict-folios-isolated, run next, adds the sum of the pages
// isolated (a separate rule: it needs --smpl-spacing, which would spoil
// the continuation lines here).  Matches 6.12 and 7.1 alike (the lock helpers and
// shrink_folio_list()'s arity differ, the statements used here do not).
#spatch --keep-comments

@done depends on file in "mm/vmscan.c"@
@@
int evict_folios(...)
{
	<+...
	total_pageout += stat.nr_pageout;
	...+>
}

@depends on file in "mm/vmscan.c" && !done@
expression E;
@@
int evict_folios(...)
{
	...
	bool skip_retry = E;
+	unsigned long nr_isolated = 0, total_reclaimed = 0, total_pageout = 0;
	...
	if (list_empty(&list))
		return scanned;
	...
	sc->nr_reclaimed += reclaimed;
+	total_reclaimed += reclaimed;
+	total_pageout += stat.nr_pageout;
	... when any
+	if (total_pageout)
+		mod_lruvec_state(lruvec, PGRECLAIM_PAGEOUT_ANON + type,
+				 total_pageout);
+	if (nr_isolated > total_reclaimed)
+		mod_lruvec_state(lruvec, PGROTATE_ANON + type,
+				 nr_isolated - total_reclaimed);
	return scanned;
}
