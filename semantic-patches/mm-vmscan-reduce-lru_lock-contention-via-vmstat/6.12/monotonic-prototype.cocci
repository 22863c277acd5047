// Target: include/linux/memcontrol.h
// Series A patch 1, include/linux/memcontrol.h hunk 1: declare
// lruvec_page_state_monotonic() beside lruvec_page_state().  The seed's
// context (memcg_stat_item_valid and friends) is not in 6.12, so the
// prototype is anchored on the next declaration instead.
#spatch --keep-comments

@done depends on file in "include/linux/memcontrol.h"@
@@
unsigned long lruvec_page_state_monotonic(...);

@depends on file in "include/linux/memcontrol.h" && !done@
@@
+unsigned long lruvec_page_state_monotonic(struct lruvec *lruvec, enum node_stat_item idx);
 unsigned long lruvec_page_state_local(...);
