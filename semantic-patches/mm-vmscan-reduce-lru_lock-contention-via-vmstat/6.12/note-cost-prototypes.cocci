// Target: include/linux/swap.h
// Series A patch 2, include/linux/swap.h hunk 1: the producers' entry
// points go.  6.12 declares the 4-argument lru_note_cost(), which takes
// lru_lock itself, instead of lru_note_cost_unlock_irq().  Removing a
// declaration twice finds nothing, so the rule is idempotent as it is.
#spatch --keep-comments

@depends on file in "include/linux/swap.h"@
@@
(
- void lru_note_cost(...);
|
- void lru_note_cost_refault(...);
)
