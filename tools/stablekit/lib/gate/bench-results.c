#include "gate/bench-results.h"
#include "core/error.h"
#include "core/json.h"
#include "core/results.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const sides[2] = { "baseline", "patched" };

static void release_metric(struct sk_bench_results_metric *m)
{
	free(m->name);
	free(m->status);
	free(m->reason);
	free(m->baseline_values);
	free(m->patched_values);
	free(m->verdict);
	free(m->not_gated);
}

static void release_run(struct sk_bench_results_run *r)
{
	size_t i;

	for (i = 0; i < r->nr_counters; i++)
		free(r->counters[i].name);
	free(r->counters);
}

void sk_bench_results_release(struct sk_bench_results *r)
{
	size_t i, s;

	if (!r)
		return;
	for (i = 0; i < r->nr_metrics; i++)
		release_metric(&r->metrics[i]);
	free(r->metrics);
	for (i = 0; i < r->nr_counters; i++)
		free(r->counters[i].name);
	free(r->counters);
	for (s = 0; s < 2; s++) {
		for (i = 0; i < r->nr_runs[s]; i++)
			release_run(&r->runs[s][i]);
		free(r->runs[s]);
	}
	sk_strvec_free_array(r->reasons, r->nr_reasons);
	free(r->bench);
	free(r->mode);
	free(r->verdict);
	free(r->lru_gen);
	free(r->thp);
	free(r->guest_error);
	memset(r, 0, sizeof(*r));
}

/* --- the report's forms --- */

static json_t *number_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *values_json(const double *v, size_t nr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < nr; i++)
		json_array_append_new(a, number_or_null(v[i]));
	return a;
}

static json_t *summary_json(const struct sk_bench_results_summary *s)
{
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f}",
			 "n", (json_int_t)s->n, "median", s->median,
			 "mean", s->mean, "stddev", s->stddev,
			 "stddev_pct", s->stddev_pct, "min", s->min, "max", s->max);
}

static void set_str(json_t *o, const char *key, const char *s)
{
	if (s)
		json_object_set_new(o, key, sk_json_string(s));
}

json_t *sk_bench_results_metric_json(const struct sk_bench_results_metric *m)
{
	json_t *o = json_object();

	set_str(o, "status", m->status);
	set_str(o, "reason", m->reason);
	if (m->has_values) {
		json_object_set_new(o, "baseline_values", values_json(
				    m->baseline_values, m->nr_baseline_values));
		json_object_set_new(o, "patched_values", values_json(
				    m->patched_values, m->nr_patched_values));
	}
	if (m->has_summary) {
		json_object_set_new(o, "baseline", summary_json(&m->baseline));
		json_object_set_new(o, "patched", summary_json(&m->patched));
		json_object_set_new(o, "change_pct", json_real(m->change_pct));
		json_object_set_new(o, "p", json_real(m->p));
		json_object_set_new(o, "exact", json_boolean(m->exact));
		json_object_set_new(o, "significant", json_boolean(m->significant));
	}
	set_str(o, "verdict", m->verdict);
	if (m->has_gated)
		json_object_set_new(o, "gated", json_boolean(m->gated));
	if (m->has_threshold)
		json_object_set_new(o, "threshold_pct", json_real(m->threshold_pct));
	set_str(o, "not_gated", m->not_gated);
	return o;
}

json_t *sk_bench_results_counters_json(const struct sk_bench_results *r)
{
	json_t *o;
	size_t i;

	if (!r->has_counters)
		return NULL;
	o = json_object();
	for (i = 0; i < r->nr_counters; i++) {
		const struct sk_bench_results_counter *c = &r->counters[i];

		json_object_set_new(o, c->name, json_pack(
			"{s:{s:b, s:I}, s:{s:b, s:I}}",
			"vmstat", "present", c->vmstat_present,
			"delta", (json_int_t)c->vmstat_delta,
			"memstat", "present", c->memstat_present,
			"delta", (json_int_t)c->memstat_delta));
	}
	return o;
}

static json_t *run_json(const struct sk_bench_results_run *r)
{
	json_t *c = json_object(), *o;
	size_t i;

	for (i = 0; i < r->nr_counters; i++)
		json_object_set_new(c, r->counters[i].name,
				    json_integer(r->counters[i].value));
	o = json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:f, s:o}",
		      "run", (json_int_t)r->run, "elapsed_s", r->elapsed_s,
		      "pages_per_s", r->pages_per_s, "pgscan", (json_int_t)r->pgscan,
		      "lru_lock_acquisitions", (json_int_t)r->lru_lock_acquisitions,
		      "lru_lock_contentions", (json_int_t)r->lru_lock_contentions,
		      "lru_lock_per_1000_scanned", r->lru_lock_per_1000_scanned,
		      "counters", c);
	if (r->has_churn)
		json_object_set_new(o, "churn_pages_per_s",
				    json_real(r->churn_pages_per_s));
	if (r->has_wsbench)
		json_object_set_new(o, "wsbench", json_pack(
			"{s:I, s:I, s:I, s:I, s:I, s:o, s:o}",
			"hot_pages", (json_int_t)r->hot_pages,
			"live_evicted", (json_int_t)r->live_evicted,
			"live_shadows", (json_int_t)r->live_shadows,
			"offlined_evicted", (json_int_t)r->offlined_evicted,
			"offlined_shadows", (json_int_t)r->offlined_shadows,
			"kept_live_pct", number_or_null(r->kept_live_pct),
			"kept_offlined_pct", number_or_null(r->kept_offlined_pct)));
	return o;
}

json_t *sk_bench_results_runs_json(const struct sk_bench_results *r)
{
	json_t *o, *a;
	size_t s, i;

	if (!r->has_runs)
		return NULL;
	o = json_object();
	for (s = 0; s < 2; s++) {
		a = json_array();
		for (i = 0; i < r->nr_runs[s]; i++)
			json_array_append_new(a, run_json(&r->runs[s][i]));
		json_object_set_new(o, sides[s], a);
	}
	return o;
}

json_t *sk_bench_results_reasons_json(const struct sk_bench_results *r)
{
	return r->has_reasons ? sk_strvec_array_json(r->reasons, r->nr_reasons) :
				NULL;
}

/* --- reading --- */

/* A number or null (NaN: a side that measured nothing). */
static int read_values(double **out, size_t *nr, json_t *o, const char *key,
		       const char *file, const char *at)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_array(&arr, o, key, file, at));
	if (!ret)
		return 0;
	*out = sk_xcalloc(json_array_size(arr) + 1, sizeof(**out));
	json_array_foreach(arr, i, v) {
		if (json_is_null(v)) {
			(*out)[i] = NAN;
		} else if (json_is_number(v)) {
			(*out)[i] = json_number_value(v);
		} else {
			char *k = sk_json_path(at, key, 0);

			p = sk_json_path(k, NULL, i);
			ret = sk_json_type_error(file, p, "a number or null", v);
			free(p);
			free(k);
			return ret;
		}
		(*nr)++;
	}
	return 1;
}

static int read_summary(struct sk_bench_results_summary *s, json_t *o,
			const char *key, const char *file, const char *at)
{
	json_t *v = NULL;
	char *p = sk_json_path(at, key, 0);
	int ret = sk_json_read_object(&v, o, key, file, at);

	if (ret > 0)
		ret = sk_json_read_int(&s->n, v, "n", file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&s->median, v, "median", file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&s->mean, v, "mean", file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&s->stddev, v, "stddev", file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&s->stddev_pct, v, "stddev_pct", file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&s->min, v, "min", file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&s->max, v, "max", file, p);
	free(p);
	return ret < 0 ? ret : v != NULL;
}

static int read_metric(struct sk_bench_results_metric *m, json_t *o,
		       const char *file, const char *at)
{
	int ret, a, b;

	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&m->status, o, "status", file, at));
	SK_JSON_READ(sk_json_read_string(&m->reason, o, "reason", file, at));
	SK_JSON_READ(a = read_values(&m->baseline_values, &m->nr_baseline_values,
				     o, "baseline_values", file, at));
	SK_JSON_READ(b = read_values(&m->patched_values, &m->nr_patched_values,
				     o, "patched_values", file, at));
	m->has_values = a || b;
	SK_JSON_READ(a = read_summary(&m->baseline, o, "baseline", file, at));
	SK_JSON_READ(b = read_summary(&m->patched, o, "patched", file, at));
	m->has_summary = a && b;
	SK_JSON_READ(sk_json_read_real(&m->change_pct, o, "change_pct", file, at));
	SK_JSON_READ(sk_json_read_real(&m->p, o, "p", file, at));
	SK_JSON_READ(sk_json_read_bool(&m->exact, o, "exact", file, at));
	SK_JSON_READ(sk_json_read_bool(&m->significant, o, "significant", file, at));
	SK_JSON_READ(sk_json_read_string(&m->verdict, o, "verdict", file, at));
	SK_JSON_READ(ret = sk_json_read_bool(&m->gated, o, "gated", file, at));
	m->has_gated = ret;
	SK_JSON_READ(ret = sk_json_read_real(&m->threshold_pct, o,
					     "threshold_pct", file, at));
	m->has_threshold = ret;
	SK_JSON_READ(sk_json_read_string(&m->not_gated, o, "not_gated", file, at));
	return 0;
}

static int read_metrics(struct sk_bench_results *r, json_t *o, const char *file)
{
	json_t *metrics = NULL, *v;
	const char *name;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_object(&metrics, o, "metrics", file, ""));
	if (!ret)
		return 0;
	r->has_metrics = 1;
	r->metrics = sk_xcalloc(json_object_size(metrics) + 1,
				sizeof(*r->metrics));
	json_object_foreach(metrics, name, v) {
		struct sk_bench_results_metric *m = &r->metrics[r->nr_metrics++];

		m->name = sk_xstrdup(name);
		p = sk_json_path("metrics", name, 0);
		ret = read_metric(m, v, file, p);
		free(p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_presence(int *present, long long *delta, json_t *o,
			 const char *key, const char *file, const char *at)
{
	json_t *v = NULL;
	char *p = sk_json_path(at, key, 0);
	int ret = sk_json_read_object(&v, o, key, file, at);

	if (ret > 0)
		ret = sk_json_read_bool(present, v, "present", file, p);
	if (ret >= 0)
		ret = sk_json_read_int(delta, v, "delta", file, p);
	free(p);
	return ret < 0 ? ret : 0;
}

static int read_counters(struct sk_bench_results *r, json_t *o, const char *file)
{
	json_t *counters = NULL, *v;
	const char *name;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_object(&counters, o, "new_counters",
					       file, ""));
	if (!ret)
		return 0;
	r->has_counters = 1;
	r->counters = sk_xcalloc(json_object_size(counters) + 1,
				 sizeof(*r->counters));
	json_object_foreach(counters, name, v) {
		struct sk_bench_results_counter *c = &r->counters[r->nr_counters++];

		c->name = sk_xstrdup(name);
		p = sk_json_path("new_counters", name, 0);
		ret = json_is_object(v) ? 0 :
		      sk_json_type_error(file, p, "an object", v);
		if (!ret)
			ret = read_presence(&c->vmstat_present, &c->vmstat_delta,
					    v, "vmstat", file, p);
		if (!ret)
			ret = read_presence(&c->memstat_present, &c->memstat_delta,
					    v, "memstat", file, p);
		free(p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_run_counters(struct sk_bench_results_run *r, json_t *o,
			     const char *file, const char *at)
{
	json_t *c = NULL, *v;
	const char *name;
	char *p = sk_json_path(at, "counters", 0);
	int ret = sk_json_read_object(&c, o, "counters", file, at);

	if (ret <= 0)
		goto out;
	r->counters = sk_xcalloc(json_object_size(c) + 1, sizeof(*r->counters));
	json_object_foreach(c, name, v) {
		struct sk_bench_results_value *x = &r->counters[r->nr_counters];

		ret = sk_json_read_int(&x->value, c, name, file, p);
		if (ret < 0)
			goto out;
		x->name = sk_xstrdup(name);
		r->nr_counters++;
	}
	ret = 0;
out:
	free(p);
	return ret;
}

static int read_wsbench(struct sk_bench_results_run *r, json_t *o,
			const char *file, const char *at)
{
	json_t *w = NULL;
	char *p = sk_json_path(at, "wsbench", 0);
	int ret = sk_json_read_object(&w, o, "wsbench", file, at);

	r->kept_live_pct = r->kept_offlined_pct = NAN;
	r->has_wsbench = ret > 0;
	if (ret > 0)
		ret = sk_json_read_int(&r->hot_pages, w, "hot_pages", file, p);
	if (ret >= 0)
		ret = sk_json_read_int(&r->live_evicted, w, "live_evicted", file, p);
	if (ret >= 0)
		ret = sk_json_read_int(&r->live_shadows, w, "live_shadows", file, p);
	if (ret >= 0)
		ret = sk_json_read_int(&r->offlined_evicted, w,
				       "offlined_evicted", file, p);
	if (ret >= 0)
		ret = sk_json_read_int(&r->offlined_shadows, w,
				       "offlined_shadows", file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&r->kept_live_pct, w, "kept_live_pct",
					file, p);
	if (ret >= 0)
		ret = sk_json_read_real(&r->kept_offlined_pct, w,
					"kept_offlined_pct", file, p);
	free(p);
	return ret < 0 ? ret : 0;
}

static int read_run(struct sk_bench_results_run *r, json_t *o,
		    const char *file, const char *at)
{
	int ret;

	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_int(&r->run, o, "run", file, at));
	SK_JSON_READ(sk_json_read_real(&r->elapsed_s, o, "elapsed_s", file, at));
	SK_JSON_READ(sk_json_read_real(&r->pages_per_s, o, "pages_per_s", file, at));
	SK_JSON_READ(sk_json_read_int(&r->pgscan, o, "pgscan", file, at));
	SK_JSON_READ(sk_json_read_int(&r->lru_lock_acquisitions, o,
				      "lru_lock_acquisitions", file, at));
	SK_JSON_READ(sk_json_read_int(&r->lru_lock_contentions, o,
				      "lru_lock_contentions", file, at));
	SK_JSON_READ(sk_json_read_real(&r->lru_lock_per_1000_scanned, o,
				       "lru_lock_per_1000_scanned", file, at));
	SK_JSON_READ(read_run_counters(r, o, file, at));
	SK_JSON_READ(ret = sk_json_read_real(&r->churn_pages_per_s, o,
					     "churn_pages_per_s", file, at));
	r->has_churn = ret;
	return read_wsbench(r, o, file, at);
}

static int read_runs(struct sk_bench_results *r, json_t *o, const char *file)
{
	json_t *runs = NULL, *arr, *v;
	size_t s, i;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_object(&runs, o, "runs", file, ""));
	if (!ret)
		return 0;
	r->has_runs = 1;
	for (s = 0; s < 2; s++) {
		arr = NULL;
		SK_JSON_READ(sk_json_read_array(&arr, runs, sides[s], file, "runs"));
		r->runs[s] = sk_xcalloc(json_array_size(arr) + 1, sizeof(*r->runs[s]));
		json_array_foreach(arr, i, v) {
			char *side = sk_json_path("runs", sides[s], 0);

			r->nr_runs[s]++;
			p = sk_json_path(side, NULL, i);
			ret = read_run(&r->runs[s][i], v, file, p);
			free(p);
			free(side);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}

static int read_top(struct sk_bench_results *r, json_t *o, const char *file)
{
	int ret;

	if (!json_is_object(o))
		return sk_json_type_error(file, "", "an object", o);
	SK_JSON_READ(sk_json_read_string(&r->bench, o, "bench", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->mode, o, "mode", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->verdict, o, "verdict", file, ""));
	SK_JSON_READ(ret = sk_json_read_strings(&r->reasons, &r->nr_reasons, o,
						"reasons", file, ""));
	r->has_reasons = ret;
	SK_JSON_READ(read_metrics(r, o, file));
	SK_JSON_READ(read_counters(r, o, file));
	SK_JSON_READ(sk_json_read_int(&r->baseline_runs, o, "baseline_runs", file, ""));
	SK_JSON_READ(sk_json_read_int(&r->patched_runs, o, "patched_runs", file, ""));
	SK_JSON_READ(sk_json_read_real(&r->min_p, o, "min_p", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->lru_gen, o, "lru_gen", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->thp, o, "thp", file, ""));
	SK_JSON_READ(ret = sk_json_read_bool(&r->baseline_reused, o,
					     "baseline_reused", file, ""));
	r->has_baseline_reused = ret;
	SK_JSON_READ(sk_json_read_bool(&r->throughput_gated, o,
				       "throughput_gated", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->guest_error, o, "guest_error",
					 file, ""));
	return read_runs(r, o, file);
}

int sk_bench_results_from_json(struct sk_bench_results *out, json_t *o,
			       const char *file)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_top(out, o, file);
	if (ret < 0)
		sk_bench_results_release(out);
	return ret;
}

int sk_bench_results_write(const char *path, json_t *o)
{
	struct sk_bench_results r;
	int ret = sk_bench_results_from_json(&r, o, path);

	sk_bench_results_release(&r);
	return ret < 0 ? ret : sk_results_save(path, o);
}

int sk_bench_results_read(struct sk_bench_results *out, const char *path)
{
	json_t *o;
	int ret = sk_results_read_json(&o, path);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	ret = sk_bench_results_from_json(out, o, path);
	if (ret < 0)
		sk_error_prefix(ret, "unreadable");
	json_decref(o);
	return ret;
}
