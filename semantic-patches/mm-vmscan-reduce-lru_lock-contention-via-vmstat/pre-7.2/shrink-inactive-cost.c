/*
 * Shaped like shrink_inactive_list() in mm/vmscan.c of 7.1: node-stat
 * PGSTEAL_*, lruvec_lock_irq() before lru_note_cost_unlock_irq(), and
 * the writeback checks open-coded after it (7.2 moved them into
 * handle_reclaim_writeback()).
 */
static unsigned long shrink_inactive_list(unsigned long nr_to_scan,
		struct lruvec *lruvec, struct scan_control *sc,
		enum lru_list lru)
{
	LIST_HEAD(folio_list);
	unsigned long nr_scanned;
	unsigned int nr_reclaimed = 0;
	unsigned long nr_taken;
	struct reclaim_stat stat;
	bool file = is_file_lru(lru);
	enum node_stat_item item;
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);

	nr_reclaimed = shrink_folio_list(&folio_list, pgdat, sc, &stat, false,
					 lruvec_memcg(lruvec));

	move_folios_to_lru(lruvec, &folio_list);

	mod_lruvec_state(lruvec, PGDEMOTE_KSWAPD + reclaimer_offset(sc),
			 stat.nr_demoted);
	mod_node_page_state(pgdat, NR_ISOLATED_ANON + file, -nr_taken);
	item = PGSTEAL_KSWAPD + reclaimer_offset(sc);
	mod_lruvec_state(lruvec, item, nr_reclaimed);
	mod_lruvec_state(lruvec, PGSTEAL_ANON + file, nr_reclaimed);

	lruvec_lock_irq(lruvec);
	lru_note_cost_unlock_irq(lruvec, file, stat.nr_pageout,
					nr_scanned - nr_reclaimed);

	/*
	 * If dirty folios are scanned that are not queued for IO, it
	 * implies that flushers are not doing their job.
	 */
	if (stat.nr_unqueued_dirty == nr_taken) {
		wakeup_flusher_threads(WB_REASON_VMSCAN);
		if (!writeback_throttling_sane(sc))
			reclaim_throttle(pgdat, VMSCAN_THROTTLE_WRITEBACK);
	}

	sc->nr.dirty += stat.nr_dirty;
	sc->nr.congested += stat.nr_congested;
	sc->nr.unqueued_dirty += stat.nr_unqueued_dirty;
	sc->nr.writeback += stat.nr_writeback;
	sc->nr.immediate += stat.nr_immediate;
	sc->nr.taken += nr_taken;
	if (file)
		sc->nr.file_taken += nr_taken;

	trace_mm_vmscan_lru_shrink_inactive(pgdat->node_id,
			nr_scanned, nr_reclaimed, &stat, sc->priority, file);
	return nr_reclaimed;
}
