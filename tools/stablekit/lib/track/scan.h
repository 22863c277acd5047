#ifndef SK_SCAN_H
#define SK_SCAN_H

#include <stddef.h>
#include <git2.h>
#include "project/branches.h"
#include "track/commitfacts.h"

/*
 * What a stable branch is missing from mainline, commit by commit, as the
 * stable maintainers' scripts answer it: the mainline commits since the
 * branch's base that are stable candidates for it, in mainline order, each
 * with its state on the branch and the evidence.
 *
 * A commit is a candidate when the tracker's rule (sk_track_decide) says
 * "needed" for the branch's version: a "Cc: stable" whose "# X.Y" bound
 * admits the version, or a Fixes: whose target is in the branch (an
 * ancestor of its tip, a backport of it there by reference or equal
 * patch-id, or a commit of the branch with its subject); a Fixes: whose
 * target is itself a candidate of the scan (a fix of a fix) joins it; a
 * revert of a commit the branch has is one too.
 *
 * Its state: present (a commit of the branch carries it by reference,
 * "(cherry picked from commit X)", "commit X upstream.", "[ Upstream
 * commit X ]", or by an equal git patch-id --stable), reverted here (the
 * branch took it and reverted it), reverted upstream (a later mainline
 * commit reverts it: not to be taken), or new.  A new commit's
 * prerequisites are flagged: the commit a fix of a fix fixes, an earlier
 * new candidate whose changed lines (with their context) its own hunks
 * touch, a file it changes that the branch lacks (and the commit that
 * adds it), a commit its Cc: stable line names ("# 6.1.x: <sha>: ...")
 * that the branch lacks.
 */

enum sk_scan_state {
	SK_SCAN_NEW,
	SK_SCAN_PRESENT,
	SK_SCAN_REVERTED_UPSTREAM,
	SK_SCAN_REVERTED_HERE,
	SK_SCAN_NR
};

const char *sk_scan_state_name(enum sk_scan_state s);

struct sk_scan_prereq {
	char commit[41];	/* empty: no commit of the scan provides it */
	char *why;
};

struct sk_scan_item {
	char commit[41];
	char *subject;
	char *author;		/* "Name <address>" */
	enum sk_scan_state state;
	char present_as[41];	/* the branch's commit (present, reverted here) */
	char reverted_by[41];	/* the revert (upstream or on the branch) */
	char **why;		/* why it is a candidate */
	size_t nr_why, alloc_why;
	char **evidence;	/* why this state */
	size_t nr_evidence, alloc_evidence;
	char (*fixed_by)[41];	/* later mainline commits whose Fixes: names it */
	size_t nr_fixed_by, alloc_fixed_by;
	struct sk_scan_prereq *prereqs;
	size_t nr_prereqs, alloc_prereqs;
};

struct sk_scan {
	char *branch;
	char *mainline_ref;
	char since[41];		/* mainline commits after this one */
	char *since_how;	/* "--since v6.1", "base v6.1", "merge-base" */
	char mainline_tip[41];
	char branch_tip[41];
	unsigned long walked;	/* mainline commits looked at */
	struct sk_scan_item *items;
	size_t nr, alloc;
	size_t nr_present, nr_new, nr_reverted;
	char **warnings;
	size_t nr_warnings, alloc_warnings;
};

struct sk_scan_opts {
	const char *top;
	const char *repo;	/* --repo, or NULL: as every command chooses */
	const char *branch;	/* a branch of stable/branches.conf */
	const char *since;	/* a revision, or NULL: the branch's base */
	const char *mainline;	/* a ref, or NULL: the mainline branch's */
};

/*
 * SK_ENOTFOUND for an unknown branch or revision (the message names it),
 * SK_EINVALID for a branch scan cannot read (mainline, a repository of
 * its own, a base that is not on mainline).
 */
int sk_scan_run(struct sk_scan **out, const struct sk_scan_opts *o);
void sk_scan_free(struct sk_scan *s);

/* ---- the pure parts, exported for the unit tests ---- */

/* What a mainline commit's message says for stable. */
struct sk_scan_msg {
	int cc_stable;			/* Cc: stable, not noautosel */
	int cc_major, cc_minor;		/* its lowest "# X.Y" bound, 0.0 none */
	struct sk_commit_facts facts;	/* Fixes:, "This reverts commit" */
	/*
	 * The prerequisites its Cc: stable lines name, as the stable rules
	 * write them: "Cc: <stable@vger.kernel.org> # 3.3.x: a1f84a3: sched:
	 * Check for idle" (the sha, lowercase, 7 to 40 digits).
	 */
	char (*needs)[41];
	size_t nr_needs, alloc_needs;
};

int sk_scan_msg_parse(struct sk_scan_msg *out, const char *msg);
void sk_scan_msg_release(struct sk_scan_msg *m);

/* One hunk of a commit's diff, as its @@ line gives it. */
struct sk_scan_hunk {
	long old_start, old_lines, new_start, new_lines;
};

struct sk_scan_file {
	char *old_path, *new_path;	/* NULL: added, deleted */
	struct sk_scan_hunk *hunks;
	size_t nr_hunks, alloc_hunks;
};

/*
 * Does the later change (its pre-image: old side) touch lines the earlier
 * one wrote (its post-image: new side, context included) in the same
 * file?  A hunk whose context overlaps another's does not apply with
 * fuzz 0 without it.  1 or 0.
 */
int sk_scan_lines_overlap(const struct sk_scan_file *later,
			  const struct sk_scan_file *earlier);

#endif
