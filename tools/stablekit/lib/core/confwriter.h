#ifndef SK_CONFWRITER_H
#define SK_CONFWRITER_H

#include "core/strbuf.h"

/*
 * Writes git-config text in one pass, in the order given; libgit2 reads it
 * back.  We do not write through libgit2: 1.5's git_config_set_multivar()
 * neither escapes '"' nor '\' and leaks its regex match data on each call,
 * and every set rewrites the whole file.
 *
 * Values round-trip through libgit2 and git: '"' and '\' are escaped, tab
 * and newline written as \t and \n, and a value with '#', ';', CR, VT, FF
 * or white space at either end is quoted (there is no escape for CR, VT
 * and FF; inside quotes both readers keep them).
 */
struct sk_confwriter {
	struct sk_strbuf text;
	char *section;		/* the section header last written */
};

#define SK_CONFWRITER_INIT { SK_STRBUF_INIT, NULL }

/* Adds "key = value" under [section "subsection"] (subsection may be NULL). */
void sk_confwriter_add(struct sk_confwriter *w, const char *section,
		       const char *subsection, const char *key,
		       const char *value);
int sk_confwriter_write(struct sk_confwriter *w, const char *path);
void sk_confwriter_release(struct sk_confwriter *w);

#endif
