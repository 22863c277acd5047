#ifndef SK_BUILD_BRANCH_H
#define SK_BUILD_BRANCH_H

#include <jansson.h>
#include "build/build.h"
#include "build/build-results.h"
#include "project/branches.h"

/*
 * One branch's build as `stablekit build` and `stablekit test` run it:
 * the arches (those asked for, else the branch's, else the default ones
 * of the arch table), the checkouts under <work>/<branch> and the results
 * under <results>/<branch>/build/<mode>.  This run's results are written
 * beside the last ones and replace them in one step when complete: a
 * reader, or another build of the branch, never sees them half-written
 * or wiped.
 */
struct sk_build_branch_opts {
	/* repo, top, branch, mode and the make options; arches may be empty */
	struct sk_build_opts build;
	const char *work;	/* NULL: $SK_WORK/build */
	const char *results;	/* NULL: $SK_WORK/results */
};

/*
 * Build.  Negative when the build could not start (job is then empty,
 * *out NULL); else 0 with *out what build.json holds (caller frees with
 * sk_build_results_free), and *results (caller frees) where it now is.
 * A build that ran but whose results could not be put in place is also
 * negative, with *out set.
 */
int sk_build_branch(struct sk_build *job, struct sk_build_results **out,
		    char **results, const struct sk_build_branch_opts *o);

/*
 * One progress line of a branch's build, as the build's progress callback
 * gets it (arch "*" for the branch as a whole); caller frees.
 */
char *sk_build_branch_progress_line(const char *branch, const char *arch,
				    const char *variant, const char *what);

/*
 * Copy the regular files of the queue directory queue (stable/<branch>)
 * into dest, which is created.  The directory is opened once and read
 * through that handle: port replaces a queue by exchanging directories in
 * one step, so the copy is one queue, never half of each.  A missing
 * queue leaves dest empty.  Links and other non-files are not copied.
 */
int sk_build_branch_snapshot(const char *queue, const char *dest);

/*
 * The same for the branch named name of <top>/stable/branches.conf, in
 * the project's repository ([stablekit] repo, $STABLEKIT_REPO or the
 * workspace): what `stablekit build --branch <name>` runs.  o->build's
 * repo, branch and distcc hosts are filled in here.
 */
int sk_build_branch_named(struct sk_build *job, struct sk_build_results **out,
			  char **results, const char *name,
			  const struct sk_build_branch_opts *o);

/*
 * The tip commit of the branch named name, from the repository and ref
 * sk_build_branch_named would build: what a gate compares with the tip
 * of an earlier one before building anything.
 */
int sk_build_branch_tip(char out[41], const char *top, const char *name);

#endif
