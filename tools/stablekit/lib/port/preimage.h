#ifndef SK_PREIMAGE_H
#define SK_PREIMAGE_H

#include <stddef.h>
#include <git2.h>

/*
 * Where a refused hunk's code lives now, when the definition it changes
 * is gone from the branch (renamed, folded into its caller, or moved to
 * another file, as mainline does to code a fix then changes): the place
 * where the most of the hunk's distinctive preimage lines (context and
 * removed lines, not blank, not lone punctuation) are, compared without
 * their indentation, each within a few lines of where the hunk has it,
 * and the definition that encloses that place.  This is what the human
 * backporter looks for first, and what the FAILED mail shows.
 */

struct sk_diff_hunk;

struct sk_preimage_place {
	char *path;		/* under the directory searched */
	long line;		/* 1-based: the first line found */
	size_t matched;		/* distinctive lines found there */
	size_t distinctive;	/* the hunk's distinctive preimage lines */
	char *def;		/* the definition enclosing it; NULL: none */
	long def_line;		/* 1-based, 0 without def */
};

/*
 * Search dir/path, or, when the branch lacks that file, the files beside
 * it (its folder, same extension).  1 with *out when at least two lines
 * and a quarter of the distinctive ones are found together, one of them
 * long enough to say where by itself, else 0.
 */
int sk_preimage_find(struct sk_preimage_place *out, const char *dir,
		     const char *path, const struct sk_diff_hunk *h);

/*
 * The same among the files of path's folder (and below) in a repository's
 * tree, for a file the tree lacks; negative on errors.
 */
int sk_preimage_find_tree(struct sk_preimage_place *out, git_repository *repo,
			  const git_oid *tree, const char *path,
			  const struct sk_diff_hunk *h);

/* The same in one file's text (path names it in *out), or its lines. */
int sk_preimage_find_text(struct sk_preimage_place *out, const char *path,
			  const char *text, const struct sk_diff_hunk *h);
int sk_preimage_find_lines(struct sk_preimage_place *out, const char *path,
			   const char *const *v, size_t nr,
			   const struct sk_diff_hunk *h);

/* The line (0-based) of v where the column-0 definition of name starts, or -1. */
long sk_preimage_def_line(const char *const *v, size_t nr, const char *name,
			  size_t n);

/* 1 when dir/path defines name (a column-0 definition), else 0. */
int sk_preimage_defines(const char *dir, const char *path, const char *name);

void sk_preimage_place_release(struct sk_preimage_place *p);

#endif
