// Target: mm/vmscan.c
// Series A patch 2, mm/vmscan.c hunks 1 and 2: the producers record their
// cost inputs as per-LRU vmstat counters instead of calling the cost
// function.  In 6.12 that function is the 4-argument lru_note_cost(),
// which takes lru_lock itself and is called after the unlock, so there
// is no lruvec_lock_irq()/lru_note_cost_unlock_irq() pair to remove;
// mod_lruvec_state() is the irq-safe form, right outside the lock.
// shrink_active_list() passes nr_io = 0 (its "if (nr_rotated)" guard
// stays); shrink_inactive_list() passes stat.nr_pageout and
// nr_scanned - nr_reclaimed.  Once rewritten, nothing matches again.

@depends on file in "mm/vmscan.c"@
expression lruvec, file, rotated;
@@
- lru_note_cost(lruvec, file, 0, rotated);
+ mod_lruvec_state(lruvec, PGROTATE_ANON + file, rotated);

@depends on file in "mm/vmscan.c"@
expression lruvec, file, io, scanned, reclaimed;
@@
- lru_note_cost(lruvec, file, io, scanned - reclaimed);
+ if (io)
+	mod_lruvec_state(lruvec, PGRECLAIM_PAGEOUT_ANON + file, io);
+ if (scanned > reclaimed)
+	mod_lruvec_state(lruvec, PGROTATE_ANON + file, scanned - reclaimed);
