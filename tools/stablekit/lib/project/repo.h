#ifndef SK_REPO_H
#define SK_REPO_H

#include <git2.h>
#include "core/strbuf.h"

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

/* The blob at path in the tree of rev (a ref, tag or sha), into out. */
int sk_repo_read_at(struct sk_strbuf *out, git_repository *repo,
		    const char *rev, const char *path);

/*
 * The repository a configured branch lives in: its own "repo =" (relative
 * to the project), else the project's (--repo, config, environment,
 * workspace), opened.  *path is where it was looked for.
 */
struct sk_branch;
struct sk_branches;
int sk_repo_open_branch(git_repository **out, char **path, const char *top,
			const char *repo_option, const struct sk_branches *b,
			const struct sk_branch *br);

/* Where the index of this repository lives: <gitdir>/stablekit-index.sqlite */
char *sk_repo_index_path(git_repository *repo);

/* The string at key fmt % arg ("probe.%s.file"), allocated; NULL when unset. */
char *sk_config_strf(git_config *cfg, const char *fmt, const char *arg);

#endif
