#ifndef SK_INTERDIFF_H
#define SK_INTERDIFF_H

#include "mail/series.h"
#include "core/strbuf.h"

/*
 * The difference between two versions of one patch, from the mails alone
 * (no tree to apply to): a diff of the normalised diffs, as range-diff
 * shows it, where line numbers in hunk headers and index lines are noise.
 */
int sk_interdiff_text(struct sk_strbuf *out, const char *old_text,
		      const char *new_text, const char *old_label,
		      const char *new_label);
/* Drop "index" lines and hunk line numbers ("@@ -1,2 +1,3 @@ f" -> "@@ f"). */
void sk_interdiff_normalise(struct sk_strbuf *out, const char *diff);

#endif
