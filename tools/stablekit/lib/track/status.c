#include "track/status.h"
#include "core/error.h"
#include "core/json.h"
#include "core/strbuf.h"
#include "mail/seriesjson.h"
#include "project/branches.h"
#include "track/session.h"
#include "track/stale.h"
#include "core/strvec.h"

#include <stdlib.h>
#include <string.h>

json_t *sk_status_cell_json(const struct sk_track_patch *tp,
			    const struct sk_track_cell *c)
{
	json_t *deps = json_array();
	size_t i;

	for (i = 0; i < c->nr_deps; i++)
		json_array_append_new(deps, json_sprintf("%s:%d", tp->slug,
							  c->deps[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:b, s:o}",
			 "state", sk_state_name(c->state),
			 "evidence", sk_strvec_array_json(c->evidence, c->nr_evidence),
			 "commits", sk_strvec_array_json(c->commits, c->nr_commits),
			 "deps", deps,
			 "differs_from_upstream", c->differs,
			 "upstream_by_proxy", c->proxy ? json_string(c->proxy) :
			 json_null());
}

json_t *sk_status_json(const struct sk_track *t, const char *repo,
		       const char *top)
{
	json_t *branches = json_array(), *patches = json_array();
	size_t i, j;

	for (j = 0; j < t->nr_branches; j++) {
		const struct sk_track_branch *tb = &t->branches[j];
		json_t *b = json_pack("{s:s, s:s, s:s}", "name", tb->br->name,
				      "ref", tb->br->ref, "kind",
				      sk_branch_kind_name(tb->br->kind));

		json_object_set_new(b, "version", tb->br->major ?
				    json_sprintf("%d.%d", tb->br->major,
						 tb->br->minor) : json_null());
		json_object_set_new(b, "base", tb->br->base ?
				    json_string(tb->br->base) : json_null());
		json_object_set_new(b, "tip", tb->tip[0] ?
				    json_string(tb->tip) : json_null());
		json_object_set_new(b, "arch", sk_strvec_array_json(tb->br->arches,
							    tb->br->nr_arches));
		if (tb->problem)
			json_object_set_new(b, "problem",
					    json_string(tb->problem));
		json_array_append_new(branches, b);
	}
	for (i = 0; i < t->nr_patches; i++) {
		const struct sk_track_patch *tp = &t->patches[i];
		json_t *up = json_array(), *cells = json_object();
		json_t *similar = json_array();

		for (j = 0; j < tp->nr_upstream; j++) {
			const struct sk_track_upstream *u = &tp->upstream[j];
			json_t *o = json_pack("{s:s, s:o, s:o, s:s}", "commit",
					      u->commit, "subject",
					      sk_json_string(u->subject),
					      "match", sk_json_string(u->how),
					      "proof", sk_proof_name(u->proof));

			json_object_set_new(o, "reverted_by", u->reverted_by[0] ?
					    json_string(u->reverted_by) :
					    json_null());
			json_array_append_new(up, o);
		}
		for (j = 0; j < tp->nr_similar; j++) {
			const struct sk_track_similar *sm = &tp->similar[j];
			json_t *o = json_pack("{s:s, s:o, s:o}", "commit",
					      sm->commit, "subject",
					      sk_json_string(sm->subject),
					      "difference",
					      sk_json_string(sm->difference));

			json_object_set_new(o, "reverted_by", sm->reverted_by[0] ?
					    json_string(sm->reverted_by) :
					    json_null());
			json_array_append_new(similar, o);
		}
		for (j = 0; j < t->nr_branches; j++)
			json_object_set_new(cells, t->branches[j].br->name,
					    sk_status_cell_json(tp, &tp->cells[j]));
		json_array_append_new(patches, json_pack(
			"{s:o, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o}",
			"id", json_sprintf("%s:%d", tp->slug, tp->nr),
			"series", tp->slug, "version", tp->version,
			"nr", tp->nr, "subject", sk_json_string(tp->subject),
			"author", sk_json_string(tp->author), "upstream", up,
			"similar", similar, "branches", cells));
	}
	return json_pack("{s:s, s:o, s:o, s:o}", "repository", repo,
			 "branches", branches, "patches", patches,
			 "stale", sk_stale_status_json(top));
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

int sk_status_load(json_t **out, const char *top, const char *repo_option)
{
	const struct sk_track_branch *missing;
	struct sk_session s;
	int ret;

	*out = NULL;
	ret = sk_session_open(&s, top, repo_option, NULL);
	if (ret)
		goto out;
	missing = sk_status_branch_missing(s.track);
	if (missing) {
		ret = sk_error_set(SK_ENOTFOUND, "branch '%s': %s",
				   missing->br->name, missing->problem);
		goto out;
	}
	*out = sk_status_json(s.track, s.repo_path, top);
out:
	sk_session_close(&s);
	return ret;
}
