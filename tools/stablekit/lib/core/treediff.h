#ifndef SK_TREEDIFF_H
#define SK_TREEDIFF_H

#include <stddef.h>
#include <stdint.h>
#include <git2.h>

/*
 * Where two trees differ, as `git diff --raw` lists it without rename
 * detection: a file (blob, link or submodule) whose id or mode changed,
 * one added or deleted, and every file under a tree that was added or
 * deleted.  Entries are compared as git sorts them, and a subtree whose
 * id is the same on both sides is not read: a commit that changes one
 * file reads the trees on its path only.  libgit2's diff of two trees
 * iterates over every entry of both (45 ms for one changed file in a
 * kernel tree of 90,000 files, 0.2 ms here); given these paths as its
 * pathspec, it reads what this reads.
 */
struct sk_tree_change {
	char *path;
	git_oid old_id, new_id;
	uint32_t old_mode, new_mode;	/* 0: the side lacks it */
};

struct sk_tree_changes {
	struct sk_tree_change *items;
	size_t nr, alloc;
};

/*
 * Appends to out, in git's order.  old may be NULL (a root commit).  max,
 * when not 0, stops at that many: returns 1 (more differ) with out holding
 * the first max.  0, or an error reading a tree.
 */
int sk_tree_changes(struct sk_tree_changes *out, git_repository *repo,
		    const git_tree *old, const git_tree *new, size_t max);
/* The same by the trees' ids (old NULL: none). */
int sk_tree_changes_by_id(struct sk_tree_changes *out, git_repository *repo,
			  const git_oid *old, const git_oid *new, size_t max);
void sk_tree_changes_release(struct sk_tree_changes *c);

/*
 * libgit2's diff of two trees (o as git_diff_tree_to_tree takes it, or
 * NULL), limited to the paths sk_tree_changes finds: the same diff,
 * renames found later among the same added and deleted files.  More than
 * TREE_DIFF_PATHS files changed: diffed whole.
 */
#define TREE_DIFF_PATHS 256
int sk_tree_diff(git_diff **out, git_repository *repo, const git_tree *old,
		 const git_tree *new, const git_diff_options *o);

#endif
