#ifndef SK_SESSION_H
#define SK_SESSION_H

#include <git2.h>
#include "project/branches.h"
#include "track/track.h"

/*
 * What the commands that work on the kernel repository share: the branches
 * of stable/branches.conf, the repository (--repo, config, environment or
 * the embedded workspace), and where every patch stands on every branch.
 */
struct sk_session {
	struct sk_branches branches;
	git_repository *repo;
	char *repo_path;
	const char *repo_how;	/* "--repo", "config", "STABLEKIT_REPO", "workspace" */
	char *index_path;
	struct sk_track *track;
};

int sk_session_open(struct sk_session *s, const char *top,
		    const char *repo_option, const char *only_series);
void sk_session_close(struct sk_session *s);

#endif
