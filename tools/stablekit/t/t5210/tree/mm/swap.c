#include <linux/swap.h>

void lru_note_cost(struct lruvec *lruvec, int file,
		   unsigned int nr_io, unsigned int nr_rotated)
{
	unsigned long cost = nr_io * 32 + nr_rotated;

	do {
		if (file)
			lruvec->file_cost += cost;
		else
			lruvec->anon_cost += cost;
	} while ((lruvec = lruvec->parent));
}

void lru_note_cost_refault(struct folio *folio)
{
	lru_note_cost(folio->lruvec, folio->file, folio->nr, 0);
}

int swap_ready(void)
{
	return 1;
}
