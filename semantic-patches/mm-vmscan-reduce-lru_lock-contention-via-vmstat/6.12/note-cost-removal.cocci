// Target: mm/swap.c
// Series A patch 2, mm/swap.c hunk 1: the producer-side cost functions
// go.  6.12 has the 4-argument lru_note_cost(), which takes lru_lock and
// walks parent_lruvec() itself, and lru_note_cost_refault() calling it;
// the seed removes their 7.x forms (lru_note_cost_unlock_irq()).
// Hunk 2 (the cost splice in lru_reparent_memcg()) has nothing to change:
// 6.12 does not reparent LRU folios.  No --keep-comments: the comments
// inside the removed bodies go with them.

// Exact signatures: an older tree's 3-argument lru_note_cost(lruvec,
// file, nr_pages) and its lru_note_cost_folio() caller (6.1) are not
// 6.12's functions and must not be removed half (issue #15).

@depends on file in "mm/swap.c"@
identifier lruvec, file, nr_io, nr_rotated, folio;
@@
(
- void lru_note_cost(struct lruvec *lruvec, bool file, unsigned int nr_io, unsigned int nr_rotated) { ... }
|
- void lru_note_cost_refault(struct folio *folio) { ... }
)
