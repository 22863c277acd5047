#ifndef SK_APPLY_H
#define SK_APPLY_H

#include <stddef.h>
#include "core/strbuf.h"

/*
 * Apply a diff to files on disk, tolerating what stable backports meet:
 * libgit2 applies a hunk only at its recorded line, so this layer searches
 * for the hunk's preimage nearby (an offset) and, when allowed, with up
 * to 1 (SK_APPLY_FUZZ) or 3 (SK_APPLY_FUZZ3) lines of context dropped at
 * each end.  A placement is proven, not guessed: the changed lines must
 * land in the definition (function, struct, enum, array) they change
 * upstream, read from the hunk's own lines and the target's definition
 * boundaries (git's @@ text only when the hunk shows no boundary), and a
 * fuzzy match must be the only place that matches that well.  That is
 * where `patch -F3` puts hunks into the wrong place.  With fuzz allowed,
 * one inner context line the tree words otherwise (a helper renamed next
 * to the fix) is kept as the tree has it, every other line of the
 * preimage matching and no other place matching so.
 */
enum sk_apply_flags {
	SK_APPLY_FUZZ = 1 << 0,		/* allow fuzz 1 */
	SK_APPLY_CHECK = 1 << 1,	/* compute, write nothing */
	SK_APPLY_FUZZ3 = 1 << 2,	/* allow fuzz up to 3 */
};

struct sk_hunk_report {
	char *path;
	int nr;			/* 1-based within its file */
	long want_line;		/* where the diff says (1-based), moved as the
				   hunks before it were */
	long header_line;	/* what its @@ line says (1-based) */
	long got_line;		/* where it went, 0 if nowhere */
	int fuzz;
	int applied;
	char *funcname;		/* from the @@ line, or NULL */
	char *met;		/* the code found at want_line when it failed */
	int absent;		/* the file does not exist in the target */
	size_t ambiguous;	/* refused: this many places matched as well */
	char *placed;		/* how it was placed and why that is the place */
	char *scope;		/* the definition its changed lines landed in */
	char *changes;		/* the definition it changes upstream (its own
				   lines, else its @@ line), or NULL */
};

struct sk_apply_report {
	struct sk_hunk_report *hunks;
	size_t nr, alloc;
};

/*
 * Returns 0 when every hunk applied (files written unless SK_APPLY_CHECK),
 * SK_ECONFLICT when some did not (nothing written; the report says which),
 * another negative code on errors.
 */
int sk_apply_dir(struct sk_apply_report *rep, const char *dir,
		 const char *diff, unsigned int flags);
/*
 * The same for a diff parsed already (lib/core/diff.h).  Every path is also
 * checked on disk: none may lead through a symbolic link under dir.  A
 * hunk whose header starts beyond the end of its file fails at once.
 */
struct sk_diff;
int sk_apply_diff(struct sk_apply_report *rep, const char *dir,
		  const struct sk_diff *d, unsigned int flags);
/* The same on one file's text; out gets the new content. */
int sk_apply_text(struct sk_strbuf *out, struct sk_apply_report *rep,
		  const char *path, const char *old, const char *file_diff,
		  unsigned int flags);
void sk_apply_report_release(struct sk_apply_report *rep);

/*
 * The name a column-0 definition line defines: "static void f(...)" -> f,
 * "enum node_stat_item {" -> node_stat_item, "static const int a[] = {"
 * -> a.  0 when the line defines nothing (or only declares a function).
 */
size_t sk_apply_def_name(const char *line, const char **name);

/* Largest |offset| and fuzz used, to record how a patch was ported. */
long sk_apply_max_offset(const struct sk_apply_report *rep);
int sk_apply_max_fuzz(const struct sk_apply_report *rep);
/* "offset +12 in mm/vmscan.c, fuzz 1 in mm/swap.c" (empty when clean). */
void sk_apply_describe(struct sk_strbuf *out, const struct sk_apply_report *rep);

#endif
