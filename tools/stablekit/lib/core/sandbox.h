#ifndef SK_SANDBOX_H
#define SK_SANDBOX_H

#include <stddef.h>
#include <git2.h>
#include "core/strbuf.h"

/*
 * A scratch copy of a branch to port onto, that never touches the user's
 * repository: the files a queue needs are written from a tree into a
 * private directory, and every intermediate blob, tree and commit goes to an
 * in-memory object database (libgit2's mempack) stacked on the repository's
 * own, so nothing reaches .git and no ref moves.
 */
struct sk_sandbox {
	git_repository *repo;	/* borrowed */
	char *dir;
	git_oid tree;		/* the tree the files on disk represent */
	char **files;		/* paths written to dir */
	size_t nr_files, alloc_files;
};

/*
 * Write path under dir as it is in tree (mode included), or remove it when
 * the tree lacks it.
 */
int sk_tree_write_file(git_repository *repo, git_tree *tree, const char *dir,
		       const char *path);

/* Attach the in-memory object store to repo (once per repository). */
int sk_sandbox_attach_mempack(git_repository *repo);

int sk_sandbox_open(struct sk_sandbox *sb, git_repository *repo,
		    const git_oid *tree, const char *parent_dir);
void sk_sandbox_release(struct sk_sandbox *sb);

/* Write these paths from sb->tree into dir (paths not in the tree: skipped). */
int sk_sandbox_checkout(struct sk_sandbox *sb, char *const *paths, size_t nr);
/* Record the files on disk as sb->tree (a missing file is a deletion). */
int sk_sandbox_snapshot(struct sk_sandbox *sb);
/* Reset the files on disk to tree. */
int sk_sandbox_reset(struct sk_sandbox *sb, const git_oid *tree);

/* Stage 1: git_apply_to_tree on sb->tree; on success the files change. */
int sk_sandbox_apply_git(struct sk_sandbox *sb, const char *diff);
/* Stage 3: git_cherrypick_commit of commit onto sb->tree. */
int sk_sandbox_cherrypick(struct sk_sandbox *sb, const git_oid *commit);

/* The diff from one tree to another, as git format-patch writes it. */
int sk_sandbox_diff(struct sk_strbuf *out, struct sk_sandbox *sb,
		    const git_oid *from, const git_oid *to);

#endif
