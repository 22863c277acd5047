#include "split.h"

int split_huge_page_to_order(struct page *page, unsigned int order)
{
	struct folio *folio = page_folio(page);
	int ret;

	if (!folio_test_anon(folio) && !folio->mapping)
		return -EBUSY;
	ret = unmap_folio(folio);
	if (ret)
		goto out;
	ret = remap_folio_to_order(folio, order);
	if (ret)
		goto out;
	folio_unlock_tail_pages(folio, order);
out:
	return ret;
}
