#ifndef SK_MAINTAINERS_H
#define SK_MAINTAINERS_H

#include <regex.h>
#include <stddef.h>

/*
 * The kernel's MAINTAINERS format: a title line, then "X:\tvalue" entries
 * (M: maintainer, R: reviewer, L: list, S: status, F:/X: file patterns,
 * N: path regex, K: content regex).  Matching follows get_maintainer.pl:
 * "dir/" covers everything below, globs match within one directory.
 */
struct sk_maint_entry {
	char tag;
	char *value;
	regex_t *rx;	/* an N: pattern, compiled once; NULL: none or invalid */
};

struct sk_maint_section {
	char *title;
	size_t line;
	struct sk_maint_entry *entries;
	size_t nr, alloc;
};

struct sk_maintainers {
	struct sk_maint_section *sections;
	size_t nr, alloc;
};

int sk_maintainers_parse(struct sk_maintainers *out, const char *name,
			 const char *text);
int sk_maintainers_load(struct sk_maintainers *out, const char *path);
void sk_maintainers_release(struct sk_maintainers *m);

/*
 * How well section s covers path: 0 none, else the length of the longest
 * matching pattern (more specific sections score higher).
 */
size_t sk_maintainers_score(const struct sk_maint_section *s, const char *path);

/*
 * Recipients for a change touching paths: To: the M: of the most specific
 * matching sections, Cc: their R: and L: plus the M: of less specific ones.
 * Each list holds unique strings; free with sk_recipients_release.
 */
struct sk_recipients {
	char **to, **cc;
	size_t nr_to, nr_cc;
};

void sk_maintainers_recipients(struct sk_recipients *out,
			       const struct sk_maintainers *m,
			       const char *const *paths, size_t nr);
void sk_recipients_add(struct sk_recipients *r, int to, const char *who);
void sk_recipients_release(struct sk_recipients *r);

#endif
