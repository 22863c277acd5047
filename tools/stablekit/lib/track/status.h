#ifndef SK_STATUS_H
#define SK_STATUS_H

#include <jansson.h>
#include "track/track.h"

/*
 * Where every patch stands on every branch, as `stablekit status --json`
 * prints it and the report reads it: the repository, the branches (ref,
 * kind, version, base, tip, arches, the problem that kept one from being
 * tracked), the patches with their upstream commits, similar commits and
 * a cell per branch (state, evidence, commits, the patches it needs
 * first), and the queues that are stale.
 */
json_t *sk_status_json(const struct sk_track *t, const char *repo,
		       const char *top);

/* One patch on one branch: state, evidence, commits, deps. */
json_t *sk_status_cell_json(const struct sk_track_patch *tp,
			    const struct sk_track_cell *c);

/*
 * The first branch whose ref its repository lacks, not counting those the
 * embedded workspace lacks; NULL when every branch was tracked.
 */
const struct sk_track_branch *sk_status_branch_missing(const struct sk_track *t);

/*
 * Track every series of the project at top and build its status JSON;
 * SK_ENOTFOUND naming the branch when one could not be tracked.
 */
int sk_status_load(json_t **out, const char *top, const char *repo_option);

#endif
