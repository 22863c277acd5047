#ifndef SK_REVCOMPARE_H
#define SK_REVCOMPARE_H

#include <stddef.h>
#include "mail/series.h"

/*
 * What changed between two revisions of a series, patch by patch: matched
 * by subject, else by patch-id (so a retitled patch with the same code is
 * still the same patch).
 */
enum sk_change_flags {
	SK_CHANGE_ADDED = 1 << 0,
	SK_CHANGE_DROPPED = 1 << 1,
	SK_CHANGE_MOVED = 1 << 2,	/* position in the series changed */
	SK_CHANGE_CODE = 1 << 3,	/* patch-id differs */
	SK_CHANGE_MESSAGE = 1 << 4,	/* commit message differs */
	SK_CHANGE_TRAILERS = 1 << 5,	/* trailers added or removed */
	SK_CHANGE_SUBJECT = 1 << 6,
	SK_CHANGE_FIXLETS = 1 << 7,	/* follow-up patches differ */
};

struct sk_patch_change {
	unsigned int flags;
	const struct sk_series_patch *old;	/* NULL when added */
	const struct sk_series_patch *new;	/* NULL when dropped */
	char **trailers_added;		/* "Key: value" */
	size_t nr_added;
	char **trailers_removed;
	size_t nr_removed;
};

struct sk_rev_changes {
	struct sk_patch_change *items;
	size_t nr, alloc;
};

int sk_revision_compare(struct sk_rev_changes *out,
			const struct sk_revision *old,
			const struct sk_revision *new);
void sk_rev_changes_release(struct sk_rev_changes *c);
/* Is there any change at all? */
int sk_rev_changes_any(const struct sk_rev_changes *c);
/* One line per patch: "2/2 subject: code changed, trailers (+Acked-by: ..)". */
void sk_rev_changes_describe(struct sk_strbuf *out, const struct sk_rev_changes *c);

#endif
