#ifndef _LINUX_SWAP_H
#define _LINUX_SWAP_H

struct lruvec {
	unsigned long file_cost, anon_cost;
	struct lruvec *parent;
};
struct folio {
	struct lruvec *lruvec;
	int file;
	unsigned int nr;
};

void lru_note_cost(struct lruvec *lruvec, int file,
		   unsigned int nr_io, unsigned int nr_rotated);
void lru_note_cost_refault(struct folio *);

#endif
