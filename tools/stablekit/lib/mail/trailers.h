#ifndef SK_TRAILERS_H
#define SK_TRAILERS_H

#include <stddef.h>

struct sk_trailer {
	char *key;		/* as written: "Fixes", "Acked-by" */
	char *value;
};

/*
 * Trailers as the kernel writes them ("Key: value" lines at the end of the
 * message).  Typed readers for the ones stable work needs.
 */

struct sk_fixes {
	char sha[41];		/* abbreviated or full, lowercase hex */
	char *subject;		/* the quoted subject, or NULL */
};

/*
 * 'abcdef123456 ("subject")', with a trailing "# 5.7" comment (stable's
 * convention) or not, and git's reference style 'abcdef123456 (subject,
 * 2020-04-01)'; SK_EINVALID for anything else.
 */
int sk_fixes_parse(struct sk_fixes *out, const char *value);
void sk_fixes_release(struct sk_fixes *f);

struct sk_cc_stable {
	int min_major, min_minor;	/* "# 6.1.x" lower bound, 0 if none */
	char *note;			/* the text after '#', or NULL */
};

/*
 * Does this Cc: value address the stable list?  Fills out (if not NULL)
 * with the "# X.Y.x" bound.  stable+noautosel is an opt-out: returns 0.
 */
int sk_cc_is_stable(struct sk_cc_stable *out, const char *value);
void sk_cc_stable_release(struct sk_cc_stable *c);

/*
 * Split a commit message into body and trailer block.  Appends each trailer
 * to *out (key and value allocated).  Returns the offset where the trailer
 * block starts (the message length when there is none).
 */
size_t sk_trailers_parse(struct sk_trailer **out, size_t *nr, size_t *alloc,
			 const char *msg);
void sk_trailers_free(struct sk_trailer *t, size_t nr);

/*
 * Can series.conf store a trailer under the key s[0..len)?  git-config's
 * variable names: an ASCII letter, then letters, digits and '-'.  A parsed
 * trailer may start with a digit ("1st-by:"); pull drops such a trailer
 * with a warning and sk_series_save refuses it.
 */
int sk_trailer_key_valid(const char *s, size_t len);

#endif
