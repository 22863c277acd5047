#include "track/status.h"
#include "core/error.h"
#include "track/session.h"
#include "track/status-results.h"

#include <stdlib.h>
#include <string.h>

json_t *sk_status_cell_json(const struct sk_track_patch *tp,
			    const struct sk_track_cell *c)
{
	struct sk_status_results_cell cell;
	json_t *o;

	sk_status_results_cell_from_track(&cell, tp, c);
	o = sk_status_results_cell_json(&cell);
	sk_status_results_cell_release(&cell);
	return o;
}

const struct sk_track_branch *sk_status_branch_missing(const struct sk_track *t)
{
	size_t i;

	for (i = 0; i < t->nr_branches; i++)
		if (t->branches[i].problem &&
		    !t->branches[i].workspace_lacks)
			return &t->branches[i];
	return NULL;
}

int sk_status_load(struct sk_status_results *out, const char *top,
		   const char *repo_option)
{
	const struct sk_track_branch *missing;
	struct sk_session s;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sk_session_open(&s, top, repo_option, NULL);
	if (ret)
		goto out;
	missing = sk_status_branch_missing(s.track);
	if (missing) {
		ret = sk_error_set(SK_ENOTFOUND, "branch '%s': %s",
				   missing->br->name, missing->problem);
		goto out;
	}
	sk_status_results_from_track(out, s.track, s.repo_path);
out:
	sk_session_close(&s);
	return ret;
}
