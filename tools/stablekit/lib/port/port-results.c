#include "port/port-results.h"
#include "core/error.h"
#include "core/json.h"
#include "core/results.h"
#include "core/strbuf.h"
#include "core/strvec.h"
#include "core/fsutil.h"
#include "project/branches.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? sk_xstrdup(s) : NULL;
}

static json_t *str_or_null(const char *s)
{
	return s ? sk_json_string(s) : json_null();
}

static json_t *int_or_null(long long n)
{
	return n ? json_integer(n) : json_null();
}

static void release_patch(struct sk_port_results_patch *p)
{
	size_t i;

	for (i = 0; i < p->nr_hunks; i++) {
		struct sk_port_results_hunk *h = &p->hunks[i];

		free(h->patch);
		free(h->path);
		free(h->method);
		free(h->rule);
		free(h->function);
		free(h->reason);
		free(h->placement);
		free(h->landed_in);
	}
	free(p->hunks);
	free(p->subject);
	free(p->method);
	free(p->how);
	free(p->file);
	free(p->reason);
	free(p->upstream);
	free(p->kept);
}

void sk_port_results_release(struct sk_port_results *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_patches; i++)
		release_patch(&r->patches[i]);
	free(r->patches);
	free(r->series);
	free(r->branch);
	free(r->target);
	free(r->no_rules);
	free(r->compile);
	free(r->compile_verdict);
	sk_strvec_free_array(r->kconfig_fragments, r->nr_kconfig_fragments);
	free(r->kconfig_from);
	free(r->queue);
	free(r->proof.status);
	free(r->proof.reason);
	free(r->proof.command);
	free(r->proof.compile);
	free(r->error);
	memset(r, 0, sizeof(*r));
}

/* --- from what port did --- */

static void from_hunk(struct sk_port_results_hunk *h, const struct sk_port_hunk *in)
{
	h->patch = dup_or_null(in->patch);
	h->path = dup_or_null(in->path);
	h->nr = in->nr;
	h->method = dup_or_null(in->method);
	h->offset = in->offset;
	h->fuzz = in->fuzz;
	h->rule = dup_or_null(in->rule);
	h->function = dup_or_null(in->function);
	h->reason = dup_or_null(in->reason);
	h->placement = dup_or_null(in->placed);
	h->landed_in = dup_or_null(in->scope);
}

static void from_item(struct sk_port_results_patch *p, const struct sk_port_item *it)
{
	size_t i;

	p->nr = it->nr;
	p->subject = dup_or_null(it->subject);
	p->method = sk_xstrdup(sk_port_method_name(it->method));
	p->how = dup_or_null(it->how);
	p->file = dup_or_null(it->file);
	p->reason = dup_or_null(it->reason);
	p->upstream = *it->upstream ? sk_xstrdup(it->upstream) : NULL;
	p->dependency_of = it->dep_of;
	p->kept = dup_or_null(it->kept);
	p->independent_of = it->independent_of;
	p->blocked_by = it->blocked_by;
	p->has_offset = p->has_fuzz = p->has_hunks = 1;
	p->hunks = sk_xcalloc(it->nr_hunks + 1, sizeof(*p->hunks));
	p->nr_hunks = it->nr_hunks;
	for (i = 0; i < it->nr_hunks; i++) {
		from_hunk(&p->hunks[i], &it->hunks[i]);
		if (llabs(it->hunks[i].offset) > llabs(p->offset))
			p->offset = it->hunks[i].offset;
		if (it->hunks[i].fuzz > p->fuzz)
			p->fuzz = it->hunks[i].fuzz;
	}
}

/* A queue is only installed after quilt pushed it: a result is the proof. */
static void proof_of(struct sk_port_results *out, const struct sk_port_result *r,
		     const char *error)
{
	struct sk_port_results_proof *pr = &out->proof;
	size_t i, queued = 0;

	for (i = 0; r && i < r->nr; i++)
		queued += r->items[i].file != NULL;
	out->has_proof = 1;
	if (error) {
		pr->status = sk_xstrdup("fail");
		pr->reason = sk_xstrdup(error);
	} else if (queued) {
		pr->status = sk_xstrdup("pass");
		pr->command = sk_xstrdup("quilt push -a --fuzz=0");
		pr->patches = (long long)queued;
		pr->has_patches = 1;
		pr->compile = dup_or_null(r->compile);
	} else {
		pr->status = sk_xstrdup("not run");
		pr->reason = sk_xstrdup(r && r->failed ?
					"not run: the selected series did not port" :
					"not run: nothing queued");
	}
}

void sk_port_results_from_port(struct sk_port_results *out, const char *slug,
			       const char *branch, const struct sk_port_result *r,
			       long long revision, const char *error)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->series = sk_xstrdup(slug);
	out->branch = sk_xstrdup(branch);
	out->revision = revision;
	proof_of(out, r, error);
	out->error = dup_or_null(error);
	if (!r)
		return;
	out->target = dup_or_null(r->target);
	out->no_rules = dup_or_null(r->no_rules);
	out->compile = dup_or_null(r->compile);
	out->compile_verdict = dup_or_null(r->compile_verdict);
	if (r->nr_fragments) {
		out->kconfig_fragments = sk_xcalloc(r->nr_fragments + 1,
						    sizeof(char *));
		for (i = 0; i < r->nr_fragments; i++)
			out->kconfig_fragments[i] = sk_xstrdup(r->fragments[i]);
		out->nr_kconfig_fragments = r->nr_fragments;
		out->kconfig_from = sk_xstrdup(r->fragments_shipped ?
					       "shipped" : "project");
	}
	out->spatch_seconds = r->spatch_seconds;
	out->has_spatch_seconds = 1;
	out->has_patches = 1;
	out->patches = sk_xcalloc(r->nr + 1, sizeof(*out->patches));
	out->nr_patches = r->nr;
	for (i = 0; i < r->nr; i++)
		from_item(&out->patches[i], &r->items[i]);
	out->queue = sk_xstrfmt("stable/%s", branch);
	out->failed = r->failed;
}

/* --- writing --- */

static json_t *hunk_json(const struct sk_port_results_hunk *h)
{
	return json_pack("{s:o, s:o, s:i, s:o, s:I, s:i, s:o, s:o, s:o, s:o, s:o}",
			 "patch", str_or_null(h->patch), "path", str_or_null(h->path),
			 "nr", h->nr, "method", str_or_null(h->method),
			 "offset", (json_int_t)h->offset, "fuzz", h->fuzz,
			 "rule", str_or_null(h->rule),
			 "function", str_or_null(h->function),
			 "reason", str_or_null(h->reason),
			 "placement", str_or_null(h->placement),
			 "landed_in", str_or_null(h->landed_in));
}

json_t *sk_port_results_patch_json(const struct sk_port_results_patch *p)
{
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			      "nr", (json_int_t)p->nr,
			      "subject", str_or_null(p->subject),
			      "method", str_or_null(p->method),
			      "how", str_or_null(p->how),
			      "file", str_or_null(p->file),
			      "reason", str_or_null(p->reason),
			      "upstream", str_or_null(p->upstream),
			      "dependency_of", int_or_null(p->dependency_of),
			      "kept", str_or_null(p->kept),
			      "independent_of", int_or_null(p->independent_of),
			      "blocked_by", int_or_null(p->blocked_by));
	size_t i;

	if (p->has_offset)
		json_object_set_new(o, "offset", json_integer(p->offset));
	if (p->has_fuzz)
		json_object_set_new(o, "fuzz", json_integer(p->fuzz));
	if (p->has_hunks) {
		json_t *a = json_array();

		for (i = 0; i < p->nr_hunks; i++)
			json_array_append_new(a, hunk_json(&p->hunks[i]));
		json_object_set_new(o, "hunks", a);
	}
	return o;
}

json_t *sk_port_results_proof_json(const struct sk_port_results *r)
{
	const struct sk_port_results_proof *pr = &r->proof;
	json_t *o;

	if (!r->has_proof)
		return NULL;
	o = json_pack("{s:o}", "status", str_or_null(pr->status));

	if (pr->command)
		json_object_set_new(o, "command", sk_json_string(pr->command));
	if (pr->has_patches)
		json_object_set_new(o, "patches", json_integer(pr->patches));
	if (pr->compile)
		json_object_set_new(o, "compile", sk_json_string(pr->compile));
	if (pr->reason)
		json_object_set_new(o, "reason", sk_json_string(pr->reason));
	return o;
}

json_t *sk_port_results_to_json(const struct sk_port_results *r)
{
	json_t *o = json_pack("{s:o, s:o}", "series", str_or_null(r->series),
			      "branch", str_or_null(r->branch));
	json_t *a;
	size_t i;

	if (r->has_patches) {
		json_object_set_new(o, "target", str_or_null(r->target));
		json_object_set_new(o, "no_rules", str_or_null(r->no_rules));
		json_object_set_new(o, "compile", str_or_null(r->compile));
		json_object_set_new(o, "compile_verdict",
				    str_or_null(r->compile_verdict));
		/* ci/kconfig's fragments the compile check used */
		json_object_set_new(o, "kconfig", r->nr_kconfig_fragments ?
			json_pack("{s:o, s:o}", "fragments",
				  sk_strvec_array_json(r->kconfig_fragments,
						       r->nr_kconfig_fragments),
				  "from", str_or_null(r->kconfig_from)) :
			json_null());
		json_object_set_new(o, "spatch_seconds", json_real(r->spatch_seconds));
		a = json_array();
		for (i = 0; i < r->nr_patches; i++)
			json_array_append_new(a, sk_port_results_patch_json(
						      &r->patches[i]));
		json_object_set_new(o, "patches", a);
		json_object_set_new(o, "queue", str_or_null(r->queue));
		json_object_set_new(o, "failed", json_integer(r->failed));
	}
	if (r->revision)
		json_object_set_new(o, "revision", json_integer(r->revision));
	if (r->has_proof)
		json_object_set_new(o, "proof", sk_port_results_proof_json(r));
	if (r->error)
		json_object_set_new(o, "error", sk_json_string(r->error));
	return o;
}

int sk_port_results_write(const char *path, const struct sk_port_results *r)
{
	json_t *o = sk_port_results_to_json(r);
	int ret = sk_results_save(path, o);

	json_decref(o);
	return ret;
}

/* --- reading --- */

static int read_hunk(struct sk_port_results_hunk *h, json_t *o,
		     const char *file, const char *at)
{
	long long n = 0;

	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&h->patch, o, "patch", file, at));
	SK_JSON_READ(sk_json_read_string(&h->path, o, "path", file, at));
	SK_JSON_READ(sk_json_read_int(&n, o, "nr", file, at));
	h->nr = (int)n;
	SK_JSON_READ(sk_json_read_string(&h->method, o, "method", file, at));
	SK_JSON_READ(sk_json_read_int(&h->offset, o, "offset", file, at));
	n = 0;
	SK_JSON_READ(sk_json_read_int(&n, o, "fuzz", file, at));
	h->fuzz = (int)n;
	SK_JSON_READ(sk_json_read_string(&h->rule, o, "rule", file, at));
	SK_JSON_READ(sk_json_read_string(&h->function, o, "function", file, at));
	SK_JSON_READ(sk_json_read_string(&h->reason, o, "reason", file, at));
	SK_JSON_READ(sk_json_read_string(&h->placement, o, "placement", file, at));
	SK_JSON_READ(sk_json_read_string(&h->landed_in, o, "landed_in", file, at));
	return 0;
}

static int read_hunks(struct sk_port_results_patch *p, json_t *o,
		      const char *file, const char *at)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *hat = sk_json_path(at, "hunks", 0), *path;
	int ret;

	ret = sk_json_read_array(&arr, o, "hunks", file, at);
	if (ret <= 0)
		goto out;
	p->has_hunks = 1;
	p->hunks = sk_xcalloc(json_array_size(arr) + 1, sizeof(*p->hunks));
	json_array_foreach(arr, i, v) {
		p->nr_hunks++;
		path = sk_json_path(hat, NULL, i);
		ret = read_hunk(&p->hunks[i], v, file, path);
		free(path);
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	free(hat);
	return ret;
}

static int read_patch(struct sk_port_results_patch *p, json_t *o,
		      const char *file, const char *at)
{
	int ret;

	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_int(&p->nr, o, "nr", file, at));
	SK_JSON_READ(sk_json_read_string(&p->subject, o, "subject", file, at));
	SK_JSON_READ(sk_json_read_string(&p->method, o, "method", file, at));
	SK_JSON_READ(sk_json_read_string(&p->how, o, "how", file, at));
	SK_JSON_READ(sk_json_read_string(&p->file, o, "file", file, at));
	SK_JSON_READ(sk_json_read_string(&p->reason, o, "reason", file, at));
	SK_JSON_READ(sk_json_read_string(&p->upstream, o, "upstream", file, at));
	SK_JSON_READ(sk_json_read_int(&p->dependency_of, o, "dependency_of", file, at));
	SK_JSON_READ(sk_json_read_string(&p->kept, o, "kept", file, at));
	SK_JSON_READ(sk_json_read_int(&p->independent_of, o, "independent_of", file, at));
	SK_JSON_READ(sk_json_read_int(&p->blocked_by, o, "blocked_by", file, at));
	SK_JSON_READ(ret = sk_json_read_int(&p->offset, o, "offset", file, at));
	p->has_offset = ret;
	SK_JSON_READ(ret = sk_json_read_int(&p->fuzz, o, "fuzz", file, at));
	p->has_fuzz = ret;
	return read_hunks(p, o, file, at);
}

static int read_patches(struct sk_port_results *r, json_t *o, const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *path;
	int ret;

	SK_JSON_READ(ret = sk_json_read_array(&arr, o, "patches", file, ""));
	if (!ret)
		return 0;
	r->has_patches = 1;
	r->patches = sk_xcalloc(json_array_size(arr) + 1, sizeof(*r->patches));
	json_array_foreach(arr, i, v) {
		r->nr_patches++;
		path = sk_json_path("patches", NULL, i);
		ret = read_patch(&r->patches[i], v, file, path);
		free(path);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_proof(struct sk_port_results *r, json_t *o, const char *file)
{
	struct sk_port_results_proof *pr = &r->proof;
	json_t *p = NULL;
	int ret;

	SK_JSON_READ(ret = sk_json_read_object(&p, o, "proof", file, ""));
	if (!ret)
		return 0;
	r->has_proof = 1;
	SK_JSON_READ(sk_json_read_string(&pr->status, p, "status", file, "proof"));
	SK_JSON_READ(sk_json_read_string(&pr->reason, p, "reason", file, "proof"));
	SK_JSON_READ(sk_json_read_string(&pr->command, p, "command", file, "proof"));
	SK_JSON_READ(sk_json_read_string(&pr->compile, p, "compile", file, "proof"));
	SK_JSON_READ(ret = sk_json_read_int(&pr->patches, p, "patches", file, "proof"));
	pr->has_patches = ret;
	return 0;
}

static int read_kconfig(struct sk_port_results *r, json_t *o, const char *file)
{
	json_t *k = NULL;

	SK_JSON_READ(sk_json_read_object(&k, o, "kconfig", file, ""));
	if (!k)
		return 0;
	SK_JSON_READ(sk_json_read_strings(&r->kconfig_fragments,
					  &r->nr_kconfig_fragments, k,
					  "fragments", file, "kconfig"));
	SK_JSON_READ(sk_json_read_string(&r->kconfig_from, k, "from", file,
					 "kconfig"));
	return 0;
}

static int read_top(struct sk_port_results *r, json_t *o, const char *file)
{
	int ret;

	if (!json_is_object(o))
		return sk_json_type_error(file, "", "an object", o);
	SK_JSON_READ(sk_json_read_string(&r->series, o, "series", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->branch, o, "branch", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->target, o, "target", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->no_rules, o, "no_rules", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->compile, o, "compile", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->compile_verdict, o,
					 "compile_verdict", file, ""));
	SK_JSON_READ(read_kconfig(r, o, file));
	SK_JSON_READ(ret = sk_json_read_real(&r->spatch_seconds, o,
					     "spatch_seconds", file, ""));
	r->has_spatch_seconds = ret;
	SK_JSON_READ(read_patches(r, o, file));
	SK_JSON_READ(sk_json_read_string(&r->queue, o, "queue", file, ""));
	SK_JSON_READ(sk_json_read_int(&r->failed, o, "failed", file, ""));
	SK_JSON_READ(sk_json_read_int(&r->revision, o, "revision", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->error, o, "error", file, ""));
	return read_proof(r, o, file);
}

int sk_port_results_from_json(struct sk_port_results *out, json_t *o,
			      const char *file)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_top(out, o, file);
	if (ret < 0)
		sk_port_results_release(out);
	return ret;
}

int sk_port_results_read(struct sk_port_results *out, const char *path)
{
	json_t *o;
	int ret = sk_results_read_json(&o, path);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	ret = sk_port_results_from_json(out, o, path);
	if (ret < 0)
		sk_error_prefix(ret, "unreadable");
	json_decref(o);
	return ret;
}

/* One series: "<slug>: patch 1 FAILED, patch 2 blocked by 1", appended. */
static void series_failures(struct sk_strbuf *out, const char *slug,
			    const struct sk_port_results *r)
{
	size_t i, n = 0;
	int proof_failed = r->has_proof && r->proof.status &&
			   !strcmp(r->proof.status, "fail");

	if (r->failed <= 0 && !proof_failed)
		return;
	sk_strbuf_addf(out, "%s%s", out->len ? "; " : "", slug);
	for (i = 0; i < r->nr_patches; i++) {
		const struct sk_port_results_patch *p = &r->patches[i];

		if (!p->method || (strcmp(p->method, "FAILED") &&
				   strcmp(p->method, "blocked")))
			continue;
		sk_strbuf_addf(out, "%s patch %lld ", n++ ? "," : ":", p->nr);
		if (!strcmp(p->method, "FAILED"))
			sk_strbuf_adds(out, "FAILED");
		else
			sk_strbuf_addf(out, "blocked by %lld", p->blocked_by);
	}
	if (!n)
		sk_strbuf_addf(out, ": %s", r->proof.reason ? r->proof.reason :
			       "the port failed");
}

char *sk_port_results_not_ported(const char *top, const char *branch)
{
	struct sk_branches b = { 0 };
	const struct sk_branch *br = NULL;
	char *conf = sk_path_join(top, SK_BRANCHES_CONF);
	char *res = sk_results_dir(top);
	char *dir = sk_xstrfmt("%s/%s/port", res, branch);
	struct sk_strbuf why = SK_STRBUF_INIT;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!sk_branches_load(&b, conf))
		br = sk_branches_find(&b, branch);
	sk_error_clear();
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct sk_port_results r = { 0 };
		char *slug, *path;

		if (n <= 5 || e->d_name[0] == '.' || strcmp(e->d_name + n - 5, ".json"))
			continue;
		slug = sk_xstrndup(e->d_name, n - 5);
		path = sk_path_join(dir, e->d_name);
		/* a downstream branch takes the series it selects */
		if ((!br || br->kind != SK_BRANCH_DOWNSTREAM ||
		     sk_branch_selects(br, slug)) &&
		    !sk_port_results_read(&r, path))
			series_failures(&why, slug, &r);
		sk_error_clear();
		sk_port_results_release(&r);
		free(path);
		free(slug);
	}
	if (d)
		closedir(d);
	sk_branches_release(&b);
	free(dir);
	free(res);
	free(conf);
	return why.len ? sk_strbuf_detach(&why) : (sk_strbuf_release(&why), NULL);
}
