// Target: mm/vmscan.c
// Series A patch 2, mm/vmscan.c hunk 1, on a shrink_inactive_list() older
// than 7.2: the writeback checks that 7.2 moved into
// handle_reclaim_writeback() are still open-coded after the cost call, so
// the seed hunk's trailing context is not there.  As in the seed, the
// lruvec_lock_irq()/lru_note_cost_unlock_irq() pair goes and the cost
// inputs become per-LRU vmstat counters, bumped right after PGSTEAL_*.
// Matches only the 7.1 pair (6.12 has the 4-argument lru_note_cost():
// 6.12/note-cost-callers); once rewritten, nothing matches again.
#spatch --keep-comments

@depends on file in "mm/vmscan.c"@
identifier lruvec, file, stat, scanned, reclaimed;
@@
unsigned long shrink_inactive_list(...)
{
	...
	mod_lruvec_state(lruvec, PGSTEAL_ANON + file, reclaimed);
+	if (stat.nr_pageout)
+		mod_lruvec_state(lruvec, PGRECLAIM_PAGEOUT_ANON + file,
+				 stat.nr_pageout);
+	if (scanned > reclaimed)
+		mod_lruvec_state(lruvec, PGROTATE_ANON + file,
+				 scanned - reclaimed);
-	lruvec_lock_irq(lruvec);
-	lru_note_cost_unlock_irq(lruvec, file, stat.nr_pageout,
-				 scanned - reclaimed);
	...
}
