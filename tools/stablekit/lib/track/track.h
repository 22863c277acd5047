#ifndef SK_TRACK_H
#define SK_TRACK_H

#include <stddef.h>
#include <git2.h>
#include "project/branches.h"
#include "track/index.h"
#include "core/strbuf.h"

/*
 * Where each patch of each series (its latest revision) stands on each
 * tracked branch, and why.  For the mainline branch a patch is upstream,
 * reverted upstream, similar or pending; for the others the first that
 * holds of reverted on this branch, present (or reverted upstream),
 * queued, reverted upstream, similar, needed, not affected, not
 * eligible.  Every state carries its evidence.
 *
 * Evidence has an order.  A commit proves that a patch landed only by an
 * explicit reference (the patch's Link:/Message-Id: upstream; "(cherry
 * picked from commit X)", "commit X upstream." or "[ Upstream commit X ]"
 * of a proven upstream commit X on a branch), by an equal git patch-id
 * --stable (whatever its subject), or, for a landing reshaped (squashed,
 * split, edited), by the patch's changed lines covered by the commits'
 * (with the series' Link: where there is one).  A commit with the subject
 * but another patch-id is at most "similar".  A landing reverted later
 * ("This reverts commit X.") no longer counts; one landed again does.
 *
 * Stable takes mainline first: on a stable branch a patch that would be
 * needed but is not proven upstream (no live mainline commit proves it,
 * and no newer stable branch has it: "upstream by proxy") waits, unless
 * the branch sets allow-pending = true.  A downstream branch takes what
 * it selects whether or not mainline has it.
 */

enum sk_state {
	SK_STATE_UNKNOWN,	/* the branch is not in the repository */
	SK_STATE_UPSTREAM,	/* merged into mainline */
	SK_STATE_PENDING,	/* not (yet) in mainline */
	SK_STATE_PRESENT,	/* in the branch, itself or as a backport */
	SK_STATE_QUEUED,	/* listed in stable/<branch>/series */
	SK_STATE_NEEDED,	/* a stable candidate for the branch */
	SK_STATE_NOT_AFFECTED,	/* its Fixes: target is not in the branch */
	SK_STATE_NOT_ELIGIBLE,	/* no Fixes:, no Cc: stable, not selected */
	SK_STATE_SIMILAR,	/* a commit has its subject, not its patch-id */
	SK_STATE_REVERTED_UPSTREAM,	/* every mainline landing reverted */
	SK_STATE_REVERTED_HERE,	/* every landing on the branch reverted */
	SK_STATE_WAITS,		/* stable: needed, but not upstream yet */
	SK_STATE_NR
};

const char *sk_state_name(enum sk_state s);

/* The inputs of the decision for one patch on one non-mainline branch. */
struct sk_track_facts {
	enum sk_branch_kind kind;
	int major, minor;		/* the branch's version */
	int present, queued;
	int reverted_here;		/* landed on the branch, all reverted */
	int reverted_upstream;		/* landed upstream, all reverted */
	int similar;			/* a live commit with its subject */
	int selected;			/* downstream: the series is selected */
	int cc_stable;			/* Cc: stable, not noautosel */
	int cc_major, cc_minor;		/* its "# X.Y.x" bound, 0.0 if none */
	int has_fixes;
	int fixes_resolved;		/* a Fixes: target was found */
	int fixes_in_branch;		/* ... and the branch contains it */
	/* no history to hold it: decided by the pre-image (content.h) */
	int fixes_by_code;
	/* proven upstream: a live mainline commit, or a newer stable branch */
	int upstream;
	int mainline;			/* a mainline branch is tracked */
	int allow_pending;		/* the branch's allow-pending = true */
};

/* The state, with the reason appended to why (if not NULL). */
enum sk_state sk_track_decide(const struct sk_track_facts *f,
			      struct sk_strbuf *why);

struct sk_track_cell {
	enum sk_state state;
	char **evidence;		/* one line each, most decisive first */
	size_t nr_evidence, alloc_evidence;
	int *deps;			/* patch numbers it needs (Stable-dep-of) */
	size_t nr_deps, alloc_deps;
	char **commits;			/* commits that prove the state */
	size_t nr_commits, alloc_commits;
	/* queued, but not the code that landed upstream (content.h) */
	int differs;
	/* a newer stable branch that has it by content, or NULL */
	const char *proxy;
};

/* What proves that an upstream commit carries the patch. */
enum sk_proof {
	SK_PROOF_MSGID,		/* its Link:/Message-Id: is the patch's */
	SK_PROOF_PATCHID,	/* equal git patch-id --stable */
	SK_PROOF_REAPPLIED,	/* it reverts the revert of such a commit */
	SK_PROOF_SERIES,	/* reshaped: the series' Link:, lines covered */
	SK_PROOF_HUNKS,		/* reshaped: the patch's lines covered */
};

struct sk_track_upstream {
	char commit[41];
	char *subject;
	char *how;			/* which evidence matched it */
	enum sk_proof proof;
	char reverted_by[41];		/* empty: not reverted upstream */
	char reverted_merge[41];	/* the merge reverted_by reverts */
};

/* A commit with the patch's subject and another patch-id. */
struct sk_track_similar {
	char commit[41];
	char *subject;
	char *difference;		/* per file: lines only in one side */
	char reverted_by[41];
};

/*
 * 1 if u is proven (every upstream entry is) and not reverted upstream:
 * the commit a backport may name in "commit X upstream.".
 */
int sk_track_upstream_proven(const struct sk_track_upstream *u);
const char *sk_proof_name(enum sk_proof p);

struct sk_track_patch {
	char *slug;
	int version, nr;
	char *subject;
	char *author;
	struct sk_track_upstream *upstream;	/* proven only */
	size_t nr_upstream, alloc_upstream;
	struct sk_track_similar *similar;	/* in mainline */
	size_t nr_similar, alloc_similar;
	struct sk_track_cell *cells;	/* one per branch */
};

struct sk_track_branch {
	const struct sk_branch *br;
	char tip[41], base[41];		/* base empty when unresolved */
	char *problem;			/* why it could not be tracked */
	/*
	 * The problem is the embedded workspace's, which holds the pinned
	 * Debian trees only (no mainline): expected, not a failure of the run.
	 */
	int workspace_lacks;
	long long range;
	struct sk_index_walk_stats stats;
	/*
	 * The entries of stable/<branch>/series that pass the queue's one
	 * check (sk_name_series_line); a line that does not is a warning.
	 */
	char **queue;
	size_t nr_queue;
};

struct sk_track {
	struct sk_track_branch *branches;
	size_t nr_branches;
	struct sk_track_patch *patches;
	size_t nr_patches, alloc_patches;
	double index_s, match_s;
	/* commits diffed by the matching (changed lines, paths, patch-ids) */
	unsigned long diffs;
	char **warnings;		/* for the command to print */
	size_t nr_warnings, alloc_warnings;
};

struct sk_track_opts {
	const char *top;
	git_repository *repo;
	struct sk_index *idx;
	struct sk_branches *branches;
	const char *only_series;	/* NULL: every series */
	/*
	 * repo is the embedded workspace, one commit per branch: a base it
	 * does not have means that commit (elsewhere it is an error).
	 */
	int workspace;
};

int sk_track_run(struct sk_track **out, const struct sk_track_opts *o);
void sk_track_free(struct sk_track *t);

/* "slug:N", or a patch subject; SK_ENOTFOUND, or SK_EINVALID if ambiguous. */
int sk_track_find_patch(struct sk_track_patch **out, struct sk_track *t,
			const char *spec);
int sk_track_find_branch(size_t *out, const struct sk_track *t,
			 const char *name);

/* The queue file name of a subject: lowercase, hyphenated, <= 52 chars. */
void sk_track_queue_name(struct sk_strbuf *out, const char *subject);

#endif
