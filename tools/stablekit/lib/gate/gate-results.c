#include "gate/gate-results.h"
#include "core/error.h"
#include "core/json.h"
#include "core/results.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
	return s ? sk_xstrdup(s) : NULL;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void sk_gate_results_release(struct sk_gate_results *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_stages; i++) {
		free(r->stages[i].name);
		free(r->stages[i].status);
		free(r->stages[i].reason);
		free(r->stages[i].arch);
	}
	free(r->stages);
	for (i = 0; i < r->nr_graph; i++) {
		free(r->graph[i].step);
		sk_strvec_free_array(r->graph[i].after, r->graph[i].nr_after);
	}
	free(r->graph);
	free(r->branch);
	free(r->arch);
	free(r->verdict);
	sk_strvec_free_array(r->reasons, r->nr_reasons);
	free(r->bench);
	free(r->results);
	free(r->baseline_why_not);
	free(r->baseline_tip);
	free(r->baseline_store);
	sk_strvec_free_array(r->arches, r->nr_arches);
	free(r->runner);
	free(r->reused_from);
	free(r->config);
	free(r->config_from);
	memset(r, 0, sizeof(*r));
}

struct sk_gate_results_stage *sk_gate_results_add_stage(
	struct sk_gate_results *r, const char *name, const char *status,
	const char *reason, double seconds, const char *arch)
{
	struct sk_gate_results_stage *s;

	s = SK_ARRAY_PUSH(r->stages, r->nr_stages, r->alloc_stages);
	s->name = sk_xstrdup(name);
	s->status = sk_xstrdup(status);
	s->reason = dup_or_null(reason);
	s->seconds = seconds;
	s->has_seconds = 1;
	s->arch = dup_or_null(arch);
	r->has_stages = 1;
	return s;
}

const struct sk_gate_results_stage *sk_gate_results_stage(
	const struct sk_gate_results *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_stages; i++)
		if (r->stages[i].name && !strcmp(r->stages[i].name, name))
			return &r->stages[i];
	return NULL;
}

/* --- writing --- */

static json_t *stage_json(const struct sk_gate_results_stage *s)
{
	json_t *o = json_pack("{s:o, s:o, s:o}", "name", str_or_null(s->name),
			      "status", str_or_null(s->status),
			      "reason", str_or_null(s->reason));

	if (s->has_seconds)
		json_object_set_new(o, "seconds", json_real(s->seconds));
	if (s->arch)
		json_object_set_new(o, "arch", json_string(s->arch));
	return o;
}

json_t *sk_gate_results_stages_json(const struct sk_gate_results *r)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < r->nr_stages; i++)
		json_array_append_new(a, stage_json(&r->stages[i]));
	return a;
}

static json_t *graph_json(const struct sk_gate_results *r)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < r->nr_graph; i++) {
		const struct sk_gate_results_step *s = &r->graph[i];

		json_array_append_new(a, json_pack("{s:o, s:o, s:b, s:f}",
				      "step", str_or_null(s->step),
				      "after", sk_strvec_array_json(s->after,
								    s->nr_after),
				      "done", s->done, "seconds", s->seconds));
	}
	return a;
}

json_t *sk_gate_results_to_json(const struct sk_gate_results *r)
{
	json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o}",
			      "branch", str_or_null(r->branch),
			      "arch", str_or_null(r->arch),
			      "verdict", str_or_null(r->verdict),
			      "reasons", sk_strvec_array_json(r->reasons,
							      r->nr_reasons),
			      "stages", sk_gate_results_stages_json(r));

	if (!r->complete)
		return o;
	json_object_set_new(o, "bench", str_or_null(r->bench));
	json_object_set_new(o, "seconds", json_real(r->seconds));
	json_object_set_new(o, "results", str_or_null(r->results));
	json_object_set_new(o, "baseline", json_pack("{s:b, s:o, s:o, s:o}",
			    "reused", r->baseline_reused,
			    "why_not", str_or_null(r->baseline_why_not),
			    "tip", str_or_null(r->baseline_tip),
			    "store", str_or_null(r->baseline_store)));
	json_object_set_new(o, "arches", sk_strvec_array_json(r->arches,
							      r->nr_arches));
	json_object_set_new(o, "runner", str_or_null(r->runner));
	json_object_set_new(o, "config", json_pack("{s:o, s:o}",
			    "path", str_or_null(r->config),
			    "from", str_or_null(r->config_from)));
	json_object_set_new(o, "graph", graph_json(r));
	json_object_set_new(o, "reused_from", str_or_null(r->reused_from));
	return o;
}

int sk_gate_results_write(const char *path, const struct sk_gate_results *r)
{
	json_t *o = sk_gate_results_to_json(r);
	int ret = sk_results_save(path, o);

	json_decref(o);
	return ret;
}

/* --- reading --- */

static int read_stage(struct sk_gate_results_stage *s, json_t *o,
		      const char *file, const char *at)
{
	int ret;

	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&s->name, o, "name", file, at));
	SK_JSON_READ(sk_json_read_string(&s->status, o, "status", file, at));
	SK_JSON_READ(sk_json_read_string(&s->reason, o, "reason", file, at));
	SK_JSON_READ(ret = sk_json_read_real(&s->seconds, o, "seconds", file, at));
	s->has_seconds = ret;
	SK_JSON_READ(sk_json_read_string(&s->arch, o, "arch", file, at));
	return 0;
}

static int read_stages(struct sk_gate_results *r, json_t *o, const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_array(&arr, o, "stages", file, ""));
	r->has_stages = ret;
	if (!arr)
		return 0;
	r->alloc_stages = json_array_size(arr) + 1;
	r->stages = sk_xcalloc(r->alloc_stages, sizeof(*r->stages));
	json_array_foreach(arr, i, v) {
		r->nr_stages++;
		p = sk_json_path("stages", NULL, i);
		ret = read_stage(&r->stages[i], v, file, p);
		free(p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_step(struct sk_gate_results_step *s, json_t *o,
		     const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&s->step, o, "step", file, at));
	SK_JSON_READ(sk_json_read_strings(&s->after, &s->nr_after, o, "after", file, at));
	SK_JSON_READ(sk_json_read_bool(&s->done, o, "done", file, at));
	SK_JSON_READ(sk_json_read_real(&s->seconds, o, "seconds", file, at));
	return 0;
}

static int read_graph(struct sk_gate_results *r, json_t *o, const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *p;
	int ret;

	SK_JSON_READ(sk_json_read_array(&arr, o, "graph", file, ""));
	if (!arr)
		return 0;
	r->graph = sk_xcalloc(json_array_size(arr) + 1, sizeof(*r->graph));
	json_array_foreach(arr, i, v) {
		r->nr_graph++;
		p = sk_json_path("graph", NULL, i);
		ret = read_step(&r->graph[i], v, file, p);
		free(p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_baseline(struct sk_gate_results *r, json_t *o, const char *file)
{
	json_t *b = NULL;

	SK_JSON_READ(sk_json_read_object(&b, o, "baseline", file, ""));
	if (!b)
		return 0;
	SK_JSON_READ(sk_json_read_bool(&r->baseline_reused, b, "reused", file, "baseline"));
	SK_JSON_READ(sk_json_read_string(&r->baseline_why_not, b, "why_not", file,
				 "baseline"));
	SK_JSON_READ(sk_json_read_string(&r->baseline_tip, b, "tip", file, "baseline"));
	SK_JSON_READ(sk_json_read_string(&r->baseline_store, b, "store", file,
				 "baseline"));
	return 0;
}

static int read_config(struct sk_gate_results *r, json_t *o, const char *file)
{
	json_t *c = NULL;

	SK_JSON_READ(sk_json_read_object(&c, o, "config", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->config, c, "path", file, "config"));
	SK_JSON_READ(sk_json_read_string(&r->config_from, c, "from", file,
					 "config"));
	return 0;
}

static int read_top(struct sk_gate_results *r, json_t *o, const char *file)
{
	int ret;

	if (!json_is_object(o))
		return sk_error_set(SK_EINVALID, "%s: expected an object, not %s",
				    file, json_is_array(o) ? "an array" :
				    "a scalar");
	SK_JSON_READ(sk_json_read_string(&r->branch, o, "branch", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->arch, o, "arch", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->verdict, o, "verdict", file, ""));
	SK_JSON_READ(ret = sk_json_read_strings(&r->reasons, &r->nr_reasons, o,
					"reasons", file, ""));
	r->has_reasons = ret;
	SK_JSON_READ(read_stages(r, o, file));
	SK_JSON_READ(sk_json_read_string(&r->bench, o, "bench", file, ""));
	SK_JSON_READ(ret = sk_json_read_real(&r->seconds, o, "seconds", file, ""));
	r->has_seconds = ret;
	SK_JSON_READ(sk_json_read_string(&r->results, o, "results", file, ""));
	SK_JSON_READ(read_baseline(r, o, file));
	SK_JSON_READ(sk_json_read_strings(&r->arches, &r->nr_arches, o, "arches",
				  file, ""));
	SK_JSON_READ(sk_json_read_string(&r->runner, o, "runner", file, ""));
	SK_JSON_READ(read_config(r, o, file));
	SK_JSON_READ(read_graph(r, o, file));
	SK_JSON_READ(sk_json_read_string(&r->reused_from, o, "reused_from",
					 file, ""));
	/* the end writes the graph; the stages alone are a partial file */
	r->complete = json_object_get(o, "graph") != NULL;
	return 0;
}

int sk_gate_results_from_json(struct sk_gate_results *out, json_t *o,
			      const char *file)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_top(out, o, file);
	if (ret < 0)
		sk_gate_results_release(out);
	return ret;
}

int sk_gate_results_read(struct sk_gate_results *out, const char *path)
{
	json_t *o;
	int ret = sk_results_read_json(&o, path);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	ret = sk_gate_results_from_json(out, o, path);
	if (ret < 0)
		sk_error_prefix(ret, "unreadable");
	json_decref(o);
	return ret;
}
