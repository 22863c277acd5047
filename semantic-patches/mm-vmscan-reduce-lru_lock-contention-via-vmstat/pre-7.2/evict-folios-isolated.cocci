// Target: mm/vmscan.c
// Series A, fixlet 1 to patch 2, on an evict_folios() older than 7.2: sum
// the pages isolated, which evict-folios-fixlet (run first) declared as
// nr_isolated and reports as rotated when not reclaimed.  Before 7.2,
// isolate_folios() does not report that number; the private list holds
// exactly the isolated folios until the first shrink_folio_list().
// --smpl-spacing keeps "list_for_each_entry(" as written here.
#spatch --keep-comments --smpl-spacing

@done depends on file in "mm/vmscan.c"@
@@
int evict_folios(...)
{
	<+...
	nr_isolated += folio_nr_pages(folio);
	...+>
}

@depends on file in "mm/vmscan.c" && !done@
expression E;
iterator name list_for_each_entry;
@@
int evict_folios(...)
{
	...
	unsigned long nr_isolated = E;
	...
	if (list_empty(&list))
		return scanned;
+	list_for_each_entry(folio, &list, lru)
+		nr_isolated += folio_nr_pages(folio);
	...
}
