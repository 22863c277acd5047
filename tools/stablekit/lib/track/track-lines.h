#ifndef SK_TRACK_LINES_H
#define SK_TRACK_LINES_H

#include <stddef.h>
#include <git2.h>
#include "core/strbuf.h"

/*
 * The changed lines of a change, for telling a reshaped landing from an
 * unrelated commit and for showing how a similar commit differs: a sorted
 * multiset of "path<TAB>+text" and "path<TAB>-text", blanks dropped from
 * the text (as git patch-id drops them).
 */
struct sk_lines {
	char **items;
	size_t nr, alloc;
};

/* From diff text as a mail carries it ("diff --git" onward). */
void sk_lines_from_patch(struct sk_lines *out, const char *diff);
/* A commit against its first parent; a merge has none. */
int sk_lines_from_commit(struct sk_lines *out, git_repository *repo,
			 const char *hex);
/* From a commit's diff as sk_patchid_commit_diff gives it. */
int sk_lines_from_diff(struct sk_lines *out, git_diff *diff);
void sk_lines_release(struct sk_lines *l);

/* How many lines of a b has too (multisets). */
size_t sk_lines_common(const struct sk_lines *a, const struct sk_lines *b);
/*
 * How many lines of a that are not marked yet b has; with set, marks
 * them (mark: one byte per line of a).
 */
size_t sk_lines_cover(const struct sk_lines *a, const struct sk_lines *b,
		      unsigned char *mark, int set);
/*
 * The diffstat of the difference: per file, "+N -M only in the patch"
 * (a), "+N -M only in the commit" (b); "none" when equal.
 */
void sk_lines_difference(struct sk_strbuf *out, const struct sk_lines *a,
			 const struct sk_lines *b);

#endif
