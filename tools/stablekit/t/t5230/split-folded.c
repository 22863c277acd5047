#include "split.h"

static int __folio_split(struct folio *folio, unsigned int new_order,
			 struct list_head *list)
{
	int ret;

	if (!folio_test_anon(folio) && !folio->mapping)
		return -EBUSY;
	ret = unmap_folio(folio);
	if (ret)
		goto out;
	ret = remap_folio_to_order(folio, new_order);
	if (ret)
		goto out;
	folio_unlock_tail_pages(folio, new_order);
out:
	return ret;
}

int split_huge_page_to_order(struct page *page, unsigned int order)
{
	return __folio_split(page_folio(page), order, NULL);
}
