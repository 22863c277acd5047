#ifndef SK_DEFS_H
#define SK_DEFS_H

#include <stddef.h>
#include <git2.h>
#include "core/strbuf.h"

/*
 * What a target tree defines and where: every column-0 definition of its
 * C sources and headers (functions, structs, unions, enums, variables,
 * #define macros) read from the tree with libgit2, never from a work
 * tree.  Port uses it to say where a symbol lives now when a hunk's file
 * lacks it, where the lines of a file the tree lacks went, which names
 * are nearest to one that is gone, and which objects compile a header or
 * a #include'd .c file.
 */
struct sk_defs_entry {
	char *name;
	char *path;
	long line;		/* 1-based */
};

struct sk_defs {
	struct sk_defs_entry *v;
	size_t nr, alloc;
	size_t files;		/* files read */
};

/*
 * Read every *.c and *.h of tree under the folders under ("mm/", "include/";
 * all when nr_under is 0), but none under tools/, scripts/, Documentation/,
 * samples/ or another architecture than x86.  A whole kernel tree is
 * millions of definitions, most of them drivers' register macros; port
 * asks for the core and the folders the patch touches.
 */
int sk_defs_index(struct sk_defs *out, git_repository *repo, const git_oid *tree,
		  char *const *under, size_t nr_under);
void sk_defs_release(struct sk_defs *d);

/* The definitions of name (first at *first), how many; 0 when none. */
size_t sk_defs_find(const struct sk_defs *d, const char *name, size_t n,
		    size_t *first);

/*
 * Up to max names defined in the tree nearest to name (edit distance at
 * most a third of its length, or sharing its longest '_' part), as
 * indices into d->v, best first; returns how many.
 */
size_t sk_defs_nearest(const struct sk_defs *d, const char *name, size_t n,
		       size_t *out, size_t max);

/*
 * The callback sees each file of tree the index reads (same filter),
 * with its text; a non-zero return stops the walk and is returned.
 */
typedef int (*sk_defs_file_cb)(const char *path, const char *text, size_t len,
			       void *data);
int sk_defs_walk(git_repository *repo, const git_oid *tree, char *const *under,
		 size_t nr_under, sk_defs_file_cb cb, void *data);

/* A file of tree as text; SK_ENOTFOUND when it has none at path. */
int sk_defs_read(struct sk_strbuf *out, git_repository *repo, const git_oid *tree,
		 const char *path);

#endif
