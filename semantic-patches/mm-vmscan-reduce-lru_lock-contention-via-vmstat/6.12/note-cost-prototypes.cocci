// Target: include/linux/swap.h
// Series A patch 2, include/linux/swap.h hunk 1: the producers' entry
// points go.  6.12 declares the 4-argument lru_note_cost(), which takes
// lru_lock itself, instead of lru_note_cost_unlock_irq().  Removing a
// declaration twice finds nothing, so the rule is idempotent as it is.
#spatch --keep-comments

// Exact signatures: the 3-argument lru_note_cost() of older trees (6.1)
// is not this rule's (issue #15).

@depends on file in "include/linux/swap.h"@
identifier lruvec, file, nr_io, nr_rotated;
@@
(
- void lru_note_cost(struct lruvec *lruvec, bool file, unsigned int nr_io, unsigned int nr_rotated);
|
- void lru_note_cost_refault(struct folio *);
)
