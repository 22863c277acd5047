#include "track/status-results.h"
#include "core/error.h"
#include "core/json.h"
#include "core/strbuf.h"
#include "core/strvec.h"
#include "project/branches.h"

#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s && *s ? sk_xstrdup(s) : NULL;
}

static char **dup_strings(char *const *v, size_t nr)
{
	char **out = sk_xcalloc(nr + 1, sizeof(*out));
	size_t i;

	for (i = 0; i < nr; i++)
		out[i] = sk_xstrdup(v[i]);
	return out;
}

/* ---- release ---- */

void sk_status_results_cell_release(struct sk_status_results_cell *c)
{
	free(c->state);
	sk_strvec_free_array(c->evidence, c->nr_evidence);
	sk_strvec_free_array(c->commits, c->nr_commits);
	sk_strvec_free_array(c->deps, c->nr_deps);
	free(c->upstream_by_proxy);
	memset(c, 0, sizeof(*c));
}

static void release_patch(struct sk_status_results_patch *p, size_t nr_cells)
{
	size_t i;

	for (i = 0; i < p->nr_upstream; i++) {
		free(p->upstream[i].commit);
		free(p->upstream[i].subject);
		free(p->upstream[i].match);
		free(p->upstream[i].proof);
		free(p->upstream[i].reverted_by);
	}
	free(p->upstream);
	for (i = 0; i < p->nr_similar; i++) {
		free(p->similar[i].commit);
		free(p->similar[i].subject);
		free(p->similar[i].difference);
		free(p->similar[i].reverted_by);
	}
	free(p->similar);
	for (i = 0; p->cells && i < nr_cells; i++)
		sk_status_results_cell_release(&p->cells[i]);
	free(p->cells);
	free(p->id);
	free(p->series);
	free(p->subject);
	free(p->author);
}

static void release_branch(struct sk_status_results_branch *b)
{
	free(b->name);
	free(b->ref);
	free(b->kind);
	free(b->version);
	free(b->base);
	free(b->tip);
	sk_strvec_free_array(b->arches, b->nr_arches);
	free(b->problem);
}

void sk_status_results_release(struct sk_status_results *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_patches; i++)
		release_patch(&r->patches[i], r->nr_branches);
	free(r->patches);
	for (i = 0; i < r->nr_branches; i++)
		release_branch(&r->branches[i]);
	free(r->branches);
	free(r->repository);
	sk_stale_release(&r->stale);
	memset(r, 0, sizeof(*r));
}

/* ---- from a tracking run ---- */

void sk_status_results_cell_from_track(struct sk_status_results_cell *out,
				       const struct sk_track_patch *tp,
				       const struct sk_track_cell *c)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->state = sk_xstrdup(sk_state_name(c->state));
	out->evidence = dup_strings(c->evidence, c->nr_evidence);
	out->nr_evidence = c->nr_evidence;
	out->commits = dup_strings(c->commits, c->nr_commits);
	out->nr_commits = c->nr_commits;
	out->deps = sk_xcalloc(c->nr_deps + 1, sizeof(*out->deps));
	for (i = 0; i < c->nr_deps; i++)
		out->deps[i] = sk_xstrfmt("%s:%d", tp->slug, c->deps[i]);
	out->nr_deps = c->nr_deps;
	out->differs_from_upstream = c->differs;
	out->upstream_by_proxy = dup_or_null(c->proxy);
}

static void branch_from_track(struct sk_status_results_branch *b,
			      const struct sk_track_branch *tb)
{
	b->name = sk_xstrdup(tb->br->name);
	b->ref = dup_or_null(tb->br->ref);
	b->kind = sk_xstrdup(sk_branch_kind_name(tb->br->kind));
	b->version = tb->br->major ? sk_xstrfmt("%d.%d", tb->br->major,
						tb->br->minor) : NULL;
	b->base = dup_or_null(tb->br->base);
	b->tip = dup_or_null(tb->tip);
	b->arches = dup_strings(tb->br->arches, tb->br->nr_arches);
	b->nr_arches = tb->br->nr_arches;
	b->problem = dup_or_null(tb->problem);
}

static void patch_from_track(struct sk_status_results_patch *p,
			     const struct sk_track *t,
			     const struct sk_track_patch *tp)
{
	size_t j;

	p->id = sk_xstrfmt("%s:%d", tp->slug, tp->nr);
	p->series = sk_xstrdup(tp->slug);
	p->version = tp->version;
	p->nr = tp->nr;
	p->subject = dup_or_null(tp->subject);
	p->author = dup_or_null(tp->author);
	p->upstream = sk_xcalloc(tp->nr_upstream + 1, sizeof(*p->upstream));
	for (j = 0; j < tp->nr_upstream; j++) {
		const struct sk_track_upstream *u = &tp->upstream[j];

		p->upstream[j].commit = sk_xstrdup(u->commit);
		p->upstream[j].subject = dup_or_null(u->subject);
		p->upstream[j].match = dup_or_null(u->how);
		p->upstream[j].proof = sk_xstrdup(sk_proof_name(u->proof));
		p->upstream[j].reverted_by = dup_or_null(u->reverted_by);
	}
	p->nr_upstream = tp->nr_upstream;
	p->similar = sk_xcalloc(tp->nr_similar + 1, sizeof(*p->similar));
	for (j = 0; j < tp->nr_similar; j++) {
		const struct sk_track_similar *sm = &tp->similar[j];

		p->similar[j].commit = sk_xstrdup(sm->commit);
		p->similar[j].subject = dup_or_null(sm->subject);
		p->similar[j].difference = dup_or_null(sm->difference);
		p->similar[j].reverted_by = dup_or_null(sm->reverted_by);
	}
	p->nr_similar = tp->nr_similar;
	p->cells = sk_xcalloc(t->nr_branches + 1, sizeof(*p->cells));
	for (j = 0; j < t->nr_branches; j++)
		sk_status_results_cell_from_track(&p->cells[j], tp, &tp->cells[j]);
}

void sk_status_results_from_track(struct sk_status_results *out,
				  const struct sk_track *t, const char *repo)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->repository = sk_xstrdup(repo ? repo : "");
	out->branches = sk_xcalloc(t->nr_branches + 1, sizeof(*out->branches));
	for (i = 0; i < t->nr_branches; i++)
		branch_from_track(&out->branches[i], &t->branches[i]);
	out->nr_branches = t->nr_branches;
	out->patches = sk_xcalloc(t->nr_patches + 1, sizeof(*out->patches));
	for (i = 0; i < t->nr_patches; i++)
		patch_from_track(&out->patches[i], t, &t->patches[i]);
	out->nr_patches = t->nr_patches;
}

/* ---- the JSON ---- */

json_t *sk_status_results_cell_json(const struct sk_status_results_cell *c)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:b, s:o}",
			 "state", sk_json_string(c->state),
			 "evidence", sk_strvec_array_json(c->evidence, c->nr_evidence),
			 "commits", sk_strvec_array_json(c->commits, c->nr_commits),
			 "deps", sk_strvec_array_json(c->deps, c->nr_deps),
			 "differs_from_upstream", c->differs_from_upstream,
			 "upstream_by_proxy", sk_json_string(c->upstream_by_proxy));
}

static json_t *branch_json(const struct sk_status_results_branch *b)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "name", sk_json_string(b->name),
			      "ref", sk_json_string(b->ref),
			      "kind", sk_json_string(b->kind),
			      "version", sk_json_string(b->version),
			      "base", sk_json_string(b->base),
			      "tip", sk_json_string(b->tip),
			      "arch", sk_strvec_array_json(b->arches,
							   b->nr_arches));

	if (b->problem)
		json_object_set_new(o, "problem", sk_json_string(b->problem));
	return o;
}

static json_t *patch_json(const struct sk_status_results *r,
			  const struct sk_status_results_patch *p)
{
	json_t *up = json_array(), *similar = json_array(), *cells = json_object();
	size_t j;

	for (j = 0; j < p->nr_upstream; j++)
		json_array_append_new(up, json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"commit", sk_json_string(p->upstream[j].commit),
			"subject", sk_json_string(p->upstream[j].subject),
			"match", sk_json_string(p->upstream[j].match),
			"proof", sk_json_string(p->upstream[j].proof),
			"reverted_by", sk_json_string(p->upstream[j].reverted_by)));
	for (j = 0; j < p->nr_similar; j++)
		json_array_append_new(similar, json_pack("{s:o, s:o, s:o, s:o}",
			"commit", sk_json_string(p->similar[j].commit),
			"subject", sk_json_string(p->similar[j].subject),
			"difference", sk_json_string(p->similar[j].difference),
			"reverted_by", sk_json_string(p->similar[j].reverted_by)));
	for (j = 0; j < r->nr_branches; j++)
		if (p->cells[j].state)
			json_object_set_new(cells, r->branches[j].name,
					    sk_status_results_cell_json(&p->cells[j]));
	return json_pack("{s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
			 "id", sk_json_string(p->id), "series", sk_json_string(p->series),
			 "version", (json_int_t)p->version,
			 "nr", (json_int_t)p->nr,
			 "subject", sk_json_string(p->subject),
			 "author", sk_json_string(p->author), "upstream", up,
			 "similar", similar, "branches", cells);
}

json_t *sk_status_results_to_json(const struct sk_status_results *r)
{
	json_t *branches = json_array(), *patches = json_array();
	size_t i;

	for (i = 0; i < r->nr_branches; i++)
		json_array_append_new(branches, branch_json(&r->branches[i]));
	for (i = 0; i < r->nr_patches; i++)
		json_array_append_new(patches, patch_json(r, &r->patches[i]));
	return json_pack("{s:o, s:o, s:o, s:o}",
			 "repository", sk_json_string(r->repository),
			 "branches", branches, "patches", patches,
			 "stale", sk_stale_json(&r->stale));
}

/* ---- reading it back ---- */

static int read_branch(struct sk_status_results_branch *b, json_t *o,
		       const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&b->name, o, "name", file, at));
	if (!b->name)
		return sk_error_set(SK_EINVALID, "%s: key '%s': a branch has no name",
				    file, at);
	SK_JSON_READ(sk_json_read_string(&b->ref, o, "ref", file, at));
	SK_JSON_READ(sk_json_read_string(&b->kind, o, "kind", file, at));
	SK_JSON_READ(sk_json_read_string(&b->version, o, "version", file, at));
	SK_JSON_READ(sk_json_read_string(&b->base, o, "base", file, at));
	SK_JSON_READ(sk_json_read_string(&b->tip, o, "tip", file, at));
	SK_JSON_READ(sk_json_read_strings(&b->arches, &b->nr_arches, o, "arch",
					  file, at));
	SK_JSON_READ(sk_json_read_string(&b->problem, o, "problem", file, at));
	return 0;
}

static int read_cell(struct sk_status_results_cell *c, json_t *o,
		     const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&c->state, o, "state", file, at));
	SK_JSON_READ(sk_json_read_strings(&c->evidence, &c->nr_evidence, o,
					  "evidence", file, at));
	SK_JSON_READ(sk_json_read_strings(&c->commits, &c->nr_commits, o,
					  "commits", file, at));
	SK_JSON_READ(sk_json_read_strings(&c->deps, &c->nr_deps, o, "deps",
					  file, at));
	SK_JSON_READ(sk_json_read_bool(&c->differs_from_upstream, o,
				       "differs_from_upstream", file, at));
	SK_JSON_READ(sk_json_read_string(&c->upstream_by_proxy, o,
					 "upstream_by_proxy", file, at));
	return 0;
}

static int read_cells(const struct sk_status_results *r,
		      struct sk_status_results_patch *p, json_t *o,
		      const char *file, const char *at)
{
	json_t *cells = NULL, *v;
	const char *name;
	char *bat = sk_json_path(at, "branches", 0), *path;
	int ret;

	p->cells = sk_xcalloc(r->nr_branches + 1, sizeof(*p->cells));
	ret = sk_json_read_object(&cells, o, "branches", file, at);
	if (ret > 0)
		ret = 0;
	json_object_foreach(cells, name, v) {
		long bi = sk_status_results_branch_index(r, name);

		if (ret < 0)
			break;
		path = sk_json_path(bat, name, 0);
		if (bi < 0)
			ret = sk_error_set(SK_EINVALID,
					   "%s: key '%s': not one of the branches listed",
					   file, path);
		else
			ret = read_cell(&p->cells[bi], v, file, path);
		free(path);
	}
	free(bat);
	return ret;
}

static int read_upstream(struct sk_status_results_upstream *u, json_t *o,
			 const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&u->commit, o, "commit", file, at));
	SK_JSON_READ(sk_json_read_string(&u->subject, o, "subject", file, at));
	SK_JSON_READ(sk_json_read_string(&u->match, o, "match", file, at));
	SK_JSON_READ(sk_json_read_string(&u->proof, o, "proof", file, at));
	SK_JSON_READ(sk_json_read_string(&u->reverted_by, o, "reverted_by",
					 file, at));
	return 0;
}

static int read_similar(struct sk_status_results_similar *s, json_t *o,
			const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&s->commit, o, "commit", file, at));
	SK_JSON_READ(sk_json_read_string(&s->subject, o, "subject", file, at));
	SK_JSON_READ(sk_json_read_string(&s->difference, o, "difference",
					 file, at));
	SK_JSON_READ(sk_json_read_string(&s->reverted_by, o, "reverted_by",
					 file, at));
	return 0;
}

static int read_upstreams(struct sk_status_results_patch *p, json_t *o,
			  const char *file, const char *at)
{
	json_t *arr = NULL, *v;
	char *hat = sk_json_path(at, "upstream", 0), *path;
	size_t i;
	int ret;

	ret = sk_json_read_array(&arr, o, "upstream", file, at);
	p->upstream = sk_xcalloc(json_array_size(arr) + 1, sizeof(*p->upstream));
	json_array_foreach(arr, i, v) {
		if (ret < 0)
			break;
		p->nr_upstream++;
		path = sk_json_path(hat, NULL, i);
		ret = read_upstream(&p->upstream[i], v, file, path);
		free(path);
	}
	free(hat);
	return ret < 0 ? ret : 0;
}

static int read_similars(struct sk_status_results_patch *p, json_t *o,
			 const char *file, const char *at)
{
	json_t *arr = NULL, *v;
	char *hat = sk_json_path(at, "similar", 0), *path;
	size_t i;
	int ret;

	ret = sk_json_read_array(&arr, o, "similar", file, at);
	p->similar = sk_xcalloc(json_array_size(arr) + 1, sizeof(*p->similar));
	json_array_foreach(arr, i, v) {
		if (ret < 0)
			break;
		p->nr_similar++;
		path = sk_json_path(hat, NULL, i);
		ret = read_similar(&p->similar[i], v, file, path);
		free(path);
	}
	free(hat);
	return ret < 0 ? ret : 0;
}

static int read_patch(const struct sk_status_results *r,
		      struct sk_status_results_patch *p, json_t *o,
		      const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&p->id, o, "id", file, at));
	SK_JSON_READ(sk_json_read_string(&p->series, o, "series", file, at));
	SK_JSON_READ(sk_json_read_int(&p->version, o, "version", file, at));
	SK_JSON_READ(sk_json_read_int(&p->nr, o, "nr", file, at));
	SK_JSON_READ(sk_json_read_string(&p->subject, o, "subject", file, at));
	SK_JSON_READ(sk_json_read_string(&p->author, o, "author", file, at));
	SK_JSON_READ(read_upstreams(p, o, file, at));
	SK_JSON_READ(read_similars(p, o, file, at));
	return read_cells(r, p, o, file, at);
}

static int read_branches(struct sk_status_results *r, json_t *o,
			 const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *path;
	int ret;

	ret = sk_json_read_array(&arr, o, "branches", file, "");
	r->branches = sk_xcalloc(json_array_size(arr) + 1, sizeof(*r->branches));
	json_array_foreach(arr, i, v) {
		if (ret < 0)
			break;
		r->nr_branches++;
		path = sk_json_path("branches", NULL, i);
		ret = read_branch(&r->branches[i], v, file, path);
		if (!ret && sk_status_results_branch_index(r, r->branches[i].name) !=
		    (long)i)
			ret = sk_error_set(SK_EINVALID,
					   "%s: key '%s': branch '%s' is listed twice",
					   file, path, r->branches[i].name);
		free(path);
	}
	return ret < 0 ? ret : 0;
}

static int read_patches(struct sk_status_results *r, json_t *o,
			const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *path;
	int ret;

	ret = sk_json_read_array(&arr, o, "patches", file, "");
	r->patches = sk_xcalloc(json_array_size(arr) + 1, sizeof(*r->patches));
	json_array_foreach(arr, i, v) {
		if (ret < 0)
			break;
		r->nr_patches++;
		path = sk_json_path("patches", NULL, i);
		ret = read_patch(r, &r->patches[i], v, file, path);
		free(path);
	}
	return ret < 0 ? ret : 0;
}

int sk_status_results_from_json(struct sk_status_results *out, json_t *o,
				const char *file)
{
	json_t *stale = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(o))
		return sk_json_type_error(file, "", "an object", o);
	ret = sk_json_read_string(&out->repository, o, "repository", file, "");
	if (ret >= 0)
		ret = read_branches(out, o, file);
	if (ret >= 0)
		ret = read_patches(out, o, file);
	if (ret >= 0)
		ret = sk_json_read_array(&stale, o, "stale", file, "");
	if (ret > 0)
		ret = sk_stale_from_json(&out->stale, stale, file, "stale");
	return ret < 0 ? ret : 0;
}

/* ---- lookups ---- */

long sk_status_results_branch_index(const struct sk_status_results *r,
				    const char *name)
{
	size_t i;

	for (i = 0; r && name && i < r->nr_branches; i++)
		if (r->branches[i].name && !strcmp(r->branches[i].name, name))
			return (long)i;
	return -1;
}

const struct sk_status_results_branch *
sk_status_results_branch(const struct sk_status_results *r, const char *name)
{
	long i = sk_status_results_branch_index(r, name);

	return i < 0 ? NULL : &r->branches[i];
}
