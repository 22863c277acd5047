#include <linux/swap.h>

static unsigned long nr_reclaimed;

unsigned long shrink_list(struct lruvec *lruvec, unsigned long nr)
{
	nr_reclaimed += nr;
	return nr;
}

/*
 * What follows is far enough from shrink_list() that a change to one
 * leaves the other's context alone.
 */

unsigned long scan_balance(struct lruvec *lruvec)
{
	return lruvec->anon_cost;
}
