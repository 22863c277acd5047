#ifndef SK_PORT_COMMITS_H
#define SK_PORT_COMMITS_H

#include <stddef.h>
#include <git2.h>
#include "port/port.h"
#include "project/branches.h"

/*
 * Upstream commits, by sha, queued on a stable branch the way a series is
 * (port.h: placement, semantic rules, the compile check, blocking after a
 * failure, FAILED mails): each commit is made to look like a posted patch
 * (its author, date, subject and whole message, its diff as git show
 * makes it), the commits in mainline order form one series,
 * SK_PORT_COMMITS_SLUG, and every one is "needed" with itself as the
 * proven upstream commit, so that its queue file starts with
 * "commit <sha> upstream.".  The series lives in a temporary directory
 * only; stable/<branch>/series keeps the queue's other sections.
 */
#define SK_PORT_COMMITS_SLUG "upstream-commits"

struct sk_port_commits_opts {
	const char *top;
	git_repository *repo;
	const struct sk_branches *branches;
	const char *branch;
	const char **commits;	/* revisions: shas, refs */
	size_t nr;
	/*
	 * NULL, or per commit NULL or the commit (full hex, one of commits)
	 * that needs it: such a commit is taken only as that one's
	 * prerequisite, and its queue file says "Stable-dep-of: <that one>".
	 */
	const char **needed_by;
	const char *signoff;
	int bracket_style;
	unsigned int timeout_ms;
	int keep;
};

/*
 * SK_ENOTFOUND: a revision that is not a commit, or a branch unknown or
 * not in the repository; SK_EINVALID: a merge, or a commit given twice.
 * Otherwise as sk_port.
 */
int sk_port_commits(struct sk_port_result *out,
		    const struct sk_port_commits_opts *o);

#endif
