#ifndef SK_STATUS_H
#define SK_STATUS_H

#include <jansson.h>
#include "track/status-results.h"
#include "track/track.h"

/*
 * Where every patch stands on every branch, as `stablekit status --json`
 * prints it (its schema: track/status-results.h).
 */

/* One patch on one branch: state, evidence, commits, deps. */
json_t *sk_status_cell_json(const struct sk_track_patch *tp,
			    const struct sk_track_cell *c);

/*
 * The first branch whose ref its repository lacks, not counting those the
 * embedded workspace lacks; NULL when every branch was tracked.
 */
const struct sk_track_branch *sk_status_branch_missing(const struct sk_track *t);

/*
 * Track every series of the project at top into *out (the caller releases
 * it, also on error; out->stale is left for port/port-stale.h to fill);
 * SK_ENOTFOUND naming the branch when one could not be tracked.
 */
int sk_status_load(struct sk_status_results *out, const char *top,
		   const char *repo_option);

#endif
