/* Shaped like mm/vmstat.c of 6.12: vmstat_text[] is positional. */
const char * const vmstat_text[] = {
	/* enum zone_stat_item counters */
	"nr_free_pages",
	"nr_zone_inactive_anon",

	/* enum node_stat_item counters */
	"nr_inactive_anon",
	"nr_active_anon",
#ifdef CONFIG_SWAP
	"nr_swapcached",
#endif
#ifdef CONFIG_NUMA_BALANCING
	"pgpromote_success",
	"pgpromote_candidate",
#endif
	"pgdemote_kswapd",
	"pgdemote_direct",
	"pgdemote_khugepaged",
	/* system-wide enum vm_stat_item counters */
	"nr_dirty_threshold",
	"nr_dirty_background_threshold",
	"nr_memmap_pages",
	"nr_memmap_boot_pages",

#if defined(CONFIG_VM_EVENT_COUNTERS) || defined(CONFIG_MEMCG)
	/* enum vm_event_item counters */
	"pgpgin",
	"pgpgout",
	"pgsteal_kswapd",
	"pgscan_kswapd",
#endif /* CONFIG_VM_EVENT_COUNTERS || CONFIG_MEMCG */
};
