// Target: mm/swap.c
// Series A patch 2, mm/swap.c hunk 1: the producer-side cost functions
// go.  6.12 has the 4-argument lru_note_cost(), which takes lru_lock and
// walks parent_lruvec() itself, and lru_note_cost_refault() calling it;
// the seed removes their 7.x forms (lru_note_cost_unlock_irq()).
// Hunk 2 (the cost splice in lru_reparent_memcg()) has nothing to change:
// 6.12 does not reparent LRU folios.  No --keep-comments: the comments
// inside the removed bodies go with them.

@depends on file in "mm/swap.c"@
@@
(
- void lru_note_cost(...) { ... }
|
- void lru_note_cost_refault(...) { ... }
)
