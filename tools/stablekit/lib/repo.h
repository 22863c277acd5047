#ifndef SK_REPO_H
#define SK_REPO_H

#include <git2.h>

/*
 * The user's kernel repository.  Chosen in this order: --repo, the
 * "[stablekit] repo" key of stable/branches.conf (relative to the project),
 * $STABLEKIT_REPO, the embedded workspace (stablekit workspace init).
 */

struct sk_repo_choice {
	const char *option;	/* --repo, or NULL */
	const char *config;	/* [stablekit] repo, or NULL */
	const char *top;	/* the project */
};

/* out: the path; how: "--repo", "config", "STABLEKIT_REPO", "workspace". */
int sk_repo_locate(char **out, const char **how,
		   const struct sk_repo_choice *choice);
int sk_repo_open(git_repository **out, const char *path);

/* A ref, tag or sha peeled to a commit id; SK_ENOTFOUND when missing. */
int sk_repo_resolve_commit(git_oid *out, git_repository *repo,
			   const char *spec);

/* Where the index of this repository lives: <gitdir>/stablekit-index.sqlite */
char *sk_repo_index_path(git_repository *repo);

#endif
