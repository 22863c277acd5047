#include "gate/bench.h"
#include "gate/guest.h"
#include "core/datadir.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/error.h"
#include "gate/stats.h"
#include "core/strbuf.h"

#include <git2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARK "stablekit-bench: "

static const char *const kind_names[] = { "lrulock", "shadow" };

int sk_bench_kind_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (name && !strcmp(name, kind_names[i]))
			return (int)i;
	return -1;
}

const char *sk_bench_kind_name(enum sk_bench_kind kind)
{
	return kind_names[kind == SK_BENCH_SHADOW];
}

static void add_counter(struct sk_bench_run *r, const char *name,
			long long delta)
{
	struct sk_bench_counter *c = SK_ARRAY_PUSH(r->counters, r->nr_counters,
						   r->alloc_counters);

	c->name = sk_xstrdup(name);
	c->delta = delta;
}

static void run_release(struct sk_bench_run *r)
{
	size_t i;

	for (i = 0; i < r->nr_counters; i++)
		free(r->counters[i].name);
	free(r->counters);
	memset(r, 0, sizeof(*r));
}

static const char *field(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? p + strlen(key) : NULL;
}

/* key=<integer> in s; -1 when absent or not a number. */
static long long int_field(const char *s, const char *key)
{
	const char *f = field(s, key);
	char *end;
	long long v;

	if (!f)
		return -1;
	v = strtoll(f, &end, 10);
	return end == f || v < 0 ? -1 : v;
}

/*
 * wsbench's line: all five numbers or none (a failed wsbench prints its
 * error instead, and the run has no shadow data).
 */
static void parse_wsbench(struct sk_bench_run *r, const char *s)
{
	long long v[5];
	static const char *const keys[] = {
		" hot_pages=", " live_evicted=", " live_shadows=",
		" offlined_evicted=", " offlined_shadows="
	};
	size_t i;

	for (i = 0; i < 5; i++)
		if ((v[i] = int_field(s, keys[i])) < 0)
			return;
	r->hot_pages = v[0];
	r->live_evicted = v[1];
	r->live_shadows = v[2];
	r->offlined_evicted = v[3];
	r->offlined_shadows = v[4];
}

/* One "stablekit-bench: ..." line, the prefix removed. */
static void parse_line(struct sk_bench *b, struct sk_bench_run *cur,
		       int *open, const char *s)
{
	char name[256], kind[16];
	long long v, w;
	const char *f;

	if (sscanf(s, "begin %d", &cur->nr) == 1) {
		run_release(cur);
		sscanf(s, "begin %d", &cur->nr);
		cur->lock_acquisitions = cur->lock_contentions = -1;
		cur->churn_pages_per_s = -1;
		cur->hot_pages = cur->live_evicted = cur->live_shadows = -1;
		cur->offlined_evicted = cur->offlined_shadows = -1;
		*open = 1;
	} else if (!strncmp(s, "end ", 4) && *open) {
		*SK_ARRAY_PUSH(b->runs, b->nr, b->alloc) = *cur;
		memset(cur, 0, sizeof(*cur));
		*open = 0;
	} else if (!*open) {
		if (!strncmp(s, "thp ", 4) && !b->thp)
			b->thp = sk_xstrdup(s + 4);
		else if (!strncmp(s, "lru_gen ", 8) && !b->lru_gen)
			b->lru_gen = sk_xstrdup(s + 8);
		else if (!strncmp(s, "error", 5) && !b->error)
			b->error = sk_xstrdup(s);
	} else if (!strncmp(s, "usemem ", 7)) {
		if ((f = field(s, "elapsed_s=")))
			cur->elapsed_s = strtod(f, NULL);
		if ((f = field(s, "pages_per_s=")))
			cur->pages_per_s = strtod(f, NULL);
	} else if (!strncmp(s, "churn ", 6)) {
		if ((f = field(s, "pages_per_s=")))
			cur->churn_pages_per_s = strtod(f, NULL);
	} else if (!strncmp(s, "wsbench ", 8)) {
		parse_wsbench(cur, s + 8);
	} else if (sscanf(s, "lockstat %255s %lld %lld", name, &v, &w) == 3) {
		if (!strcmp(name, "&lruvec->lru_lock")) {
			cur->lock_acquisitions = v;
			cur->lock_contentions = w;
		}
	} else if (sscanf(s, "has %15s %255s", kind, name) == 2) {
		char *key = sk_xstrfmt("has:%s.%s", kind, name);

		add_counter(cur, key, 1);
		free(key);
	} else if (sscanf(s, "%15s %255s %lld", kind, name, &v) == 3 &&
		   (!strcmp(kind, "vmstat") || !strcmp(kind, "memstat"))) {
		char *key = sk_xstrfmt("%s.%s", kind, name);

		add_counter(cur, key, v);
		free(key);
	}
}

int sk_bench_parse(struct sk_bench *out, const char *log, size_t len)
{
	struct sk_bench_run cur = { 0 };
	struct sk_strbuf line = SK_STRBUF_INIT;
	size_t i = 0, j;
	int open = 0;

	memset(out, 0, sizeof(*out));
	while (i < len) {
		size_t e = i;
		const char *p;

		while (e < len && log[e] != '\n')
			e++;
		sk_strbuf_reset(&line);
		for (j = i; j < e; j++)
			if (log[j] != '\r' && log[j])
				sk_strbuf_addch(&line, log[j]);
		sk_strbuf_rtrim(&line);
		p = strstr(line.buf, MARK);
		if (p)
			parse_line(out, &cur, &open, p + strlen(MARK));
		i = e + 1;
	}
	run_release(&cur);
	sk_strbuf_release(&line);
	return 0;
}

void sk_bench_release(struct sk_bench *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->nr; i++)
		run_release(&b->runs[i]);
	free(b->runs);
	free(b->thp);
	free(b->lru_gen);
	free(b->error);
	memset(b, 0, sizeof(*b));
}

long long sk_bench_counter(const struct sk_bench_run *r, const char *name,
			   int *found)
{
	size_t i;

	for (i = 0; i < r->nr_counters; i++) {
		if (!strcmp(r->counters[i].name, name)) {
			if (found)
				*found = 1;
			return r->counters[i].delta;
		}
	}
	if (found)
		*found = 0;
	return 0;
}

long long sk_bench_pgscan(const struct sk_bench_run *r)
{
	static const char *const sources[] = {
		"vmstat.pgscan_kswapd", "vmstat.pgscan_direct",
		"vmstat.pgscan_khugepaged", "vmstat.pgscan_proactive", NULL
	};
	const char *const *s;
	int fa, ff;
	long long n = sk_bench_counter(r, "vmstat.pgscan_anon", &fa) +
		      sk_bench_counter(r, "vmstat.pgscan_file", &ff);

	if (fa || ff)
		return n;
	for (n = 0, s = sources; *s; s++)
		n += sk_bench_counter(r, *s, NULL);
	return n;
}

double sk_bench_lock_ratio(const struct sk_bench_run *r)
{
	long long scanned = sk_bench_pgscan(r);

	if (r->lock_acquisitions < 0 || scanned <= 0)
		return -1;
	return 1000.0 * (double)r->lock_acquisitions / (double)scanned;
}

double sk_bench_shadow_kept(const struct sk_bench_run *r, int offlined)
{
	long long ev = offlined ? r->offlined_evicted : r->live_evicted;
	long long sh = offlined ? r->offlined_shadows : r->live_shadows;

	if (r->hot_pages < 0 || ev <= 0 || sh < 0)
		return NAN;
	return 100.0 * (double)sh / (double)ev;
}

typedef double (*metric_fn)(const struct sk_bench_run *r, const char *arg);

static double m_ratio(const struct sk_bench_run *r, const char *arg)
{
	return sk_bench_lock_ratio(r);
}

static double m_acq(const struct sk_bench_run *r, const char *arg)
{
	return (double)r->lock_acquisitions;
}

static double m_con(const struct sk_bench_run *r, const char *arg)
{
	return (double)r->lock_contentions;
}

static double m_tput(const struct sk_bench_run *r, const char *arg)
{
	return r->pages_per_s;
}

static double m_pgscan(const struct sk_bench_run *r, const char *arg)
{
	return (double)sk_bench_pgscan(r);
}

static double m_counter(const struct sk_bench_run *r, const char *arg)
{
	return (double)sk_bench_counter(r, arg, NULL);
}

static double m_kept(const struct sk_bench_run *r, const char *arg)
{
	return sk_bench_shadow_kept(r, arg != NULL);
}

static double m_churn(const struct sk_bench_run *r, const char *arg)
{
	return r->churn_pages_per_s;
}

/* Values of a metric over the runs; *missing: runs without one (< 0, NaN). */
static double *values(const struct sk_bench *b, metric_fn fn, const char *arg,
		      size_t *missing, int *zero)
{
	double *v = sk_xcalloc(b->nr ? b->nr : 1, sizeof(*v));
	size_t i;

	for (i = 0; i < b->nr; i++) {
		v[i] = fn(&b->runs[i], arg);
		if (!(v[i] >= 0) || !isfinite(v[i]))
			(*missing)++;
		else if (v[i] != 0)
			*zero = 0;
	}
	return v;
}

static json_t *values_json(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	/* a value that is not one (NaN, -1: no data) is null */
	for (i = 0; i < n; i++)
		json_array_append_new(a, v[i] >= 0 && isfinite(v[i]) ?
				      json_real(v[i]) : json_null());
	return a;
}

/*
 * Why a metric is not measured, or NULL: a run without it, or 0 in every
 * run of both sides (the workload did not reach what it counts).
 */
static char *not_measured(const struct sk_bench *base,
			  const struct sk_bench *patched, size_t miss_a,
			  size_t miss_b, int zero)
{
	if (!base->nr || !patched->nr)
		return sk_xstrfmt("no runs (%zu baseline, %zu patched)",
				  base->nr, patched->nr);
	if (miss_a || miss_b)
		return sk_xstrfmt("no value in %zu of %zu baseline and %zu of "
				  "%zu patched runs", miss_a, base->nr, miss_b,
				  patched->nr);
	if (zero)
		return sk_xstrfmt("0 in every run (%zu baseline, %zu patched)",
				  base->nr, patched->nr);
	return NULL;
}

static json_t *summary_json(const double *v, size_t n)
{
	struct sk_stats_summary s;

	sk_stats_summarize(&s, v, n);
	return json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)n,
			 "median", s.median, "mean", s.mean, "stddev", s.stddev,
			 "stddev_pct", s.rel_stddev, "min", s.min, "max", s.max);
}

/*
 * One metric.  worse: +1 when higher is worse, -1 when lower is worse,
 * 0 when the metric is reported only.  A gating metric fails when it is
 * worse by more than limit percent and the difference is significant.
 */
static void compare_metric(json_t *metrics, json_t *reasons, int *pass,
			   int *measured, const struct sk_bench *base,
			   const struct sk_bench *patched, const char *name,
			   metric_fn fn, const char *arg, int worse,
			   double limit, const struct sk_gate_thresholds *t)
{
	size_t miss_a = 0, miss_b = 0;
	int zero = 1;
	double *a = values(base, fn, arg, &miss_a, &zero);
	double *b = values(patched, fn, arg, &miss_b, &zero);
	struct sk_stats_mwu m;
	double change;
	char *why;
	json_t *o;
	int significant, bad, gated = worse && isfinite(limit);

	why = not_measured(base, patched, miss_a, miss_b, zero);
	if (why) {
		/* the numbers that were there, beside the reason */
		json_object_set_new(metrics, name, json_pack(
			"{s:s, s:s, s:o, s:o, s:b}", "status", "not measured",
			"reason", why,
			"baseline_values", values_json(a, base->nr),
			"patched_values", values_json(b, patched->nr),
			"gated", gated));
		if (gated) {
			*measured = 0;
			json_array_append_new(reasons, json_sprintf(
				"not measured: %s: %s", name, why));
		}
		free(why);
		goto cleanup;
	}
	change = sk_stats_pct_change(sk_stats_median(a, base->nr),
				     sk_stats_median(b, patched->nr));
	sk_stats_mann_whitney(&m, a, base->nr, b, patched->nr);
	significant = m.p < t->alpha;
	/* an infinite limit: measured and shown, but gating nothing */
	bad = gated && significant && change * worse > limit;
	o = json_pack("{s:o, s:o, s:f, s:f, s:b, s:b, s:s}",
		      "baseline", summary_json(a, base->nr),
		      "patched", summary_json(b, patched->nr),
		      "change_pct", change, "p", m.p, "exact", m.exact,
		      "significant", significant,
		      "verdict", bad ? "fail" : gated ? "pass" : "info");
	if (worse)
		json_object_set_new(o, "gated", json_boolean(gated));
	if (gated)
		json_object_set_new(o, "threshold_pct", json_real(limit));
	json_object_set_new(metrics, name, o);
	if (bad) {
		*pass = 0;
		json_array_append_new(reasons, json_sprintf(
			"%s %+.1f%% (p=%.3f) is worse than the %.1f%% threshold",
			name, change, m.p, limit));
	} else if (gated && significant && change * worse < -limit) {
		json_array_append_new(reasons, json_sprintf(
			"%s improved %+.1f%% (p=%.3f)", name, change, m.p));
	}
cleanup:
	free(a);
	free(b);
}

static json_t *check_counters(json_t *reasons, int *pass,
			      const struct sk_bench *patched,
			      const char *const *names)
{
	json_t *out = json_object();
	const char *const *n;
	const char *where[] = { "vmstat", "memstat" };
	size_t i, w;

	for (n = names; n && *n; n++) {
		json_t *o = json_object();

		for (w = 0; w < 2; w++) {
			char *has = sk_xstrfmt("has:%s.%s", where[w], *n);
			char *key = sk_xstrfmt("%s.%s", where[w], *n);
			long long sum = 0;
			int present = patched->nr > 0;

			for (i = 0; i < patched->nr; i++) {
				int found;

				sk_bench_counter(&patched->runs[i], has, &found);
				present = present && found;
				sum += sk_bench_counter(&patched->runs[i], key,
							NULL);
			}
			json_object_set_new(o, where[w], json_pack(
				"{s:b, s:I}", "present", present, "delta",
				(json_int_t)sum));
			if (!present) {
				*pass = 0;
				json_array_append_new(reasons, json_sprintf(
					"%s missing from %s", *n,
					w ? "memory.stat" : "/proc/vmstat"));
			}
			free(has);
			free(key);
		}
		json_object_set_new(out, *n, o);
	}
	return out;
}

/* Each family (the name up to its last '_') must count up somewhere. */
static void check_families(json_t *counters, json_t *reasons, int *pass)
{
	json_t *fam = json_object(), *o, *v;
	const char *name, *f;

	json_object_foreach(counters, name, o) {
		char *family = sk_xstrndup(name, strrchr(name, '_') ?
					   (size_t)(strrchr(name, '_') - name) :
					   strlen(name));
		json_int_t d = json_integer_value(json_object_get(
				json_object_get(o, "vmstat"), "delta"));
		json_int_t m = json_integer_value(json_object_get(
				json_object_get(o, "memstat"), "delta"));
		json_t *cur = json_object_get(fam, family);
		json_int_t both = (d > 0 ? 1 : 0) | (m > 0 ? 2 : 0);

		json_object_set_new(fam, family, json_integer(both |
				    (cur ? json_integer_value(cur) : 0)));
		free(family);
	}
	json_object_foreach(fam, f, v) {
		if (json_integer_value(v) == 3)
			continue;
		*pass = 0;
		json_array_append_new(reasons, json_sprintf(
			"%s_* did not count up in %s during the workload", f,
			!(json_integer_value(v) & 1) ? "/proc/vmstat" :
			"memory.stat"));
	}
	json_decref(fam);
}

struct cmp_ctx {
	json_t *metrics, *reasons;
	int pass, measured;
	const struct sk_bench *base, *patched;
	const struct sk_gate_thresholds *t;
};

static void metric(struct cmp_ctx *c, const char *name, metric_fn fn,
		   const char *arg, int worse, double limit)
{
	compare_metric(c->metrics, c->reasons, &c->pass, &c->measured, c->base,
		       c->patched, name, fn, arg, worse, limit, c->t);
}

static void report_counters(struct cmp_ctx *c, const char *const *names)
{
	for (; *names; names++)
		metric(c, *names, m_counter, *names, 0, 0);
}

static void lrulock_metrics(struct cmp_ctx *c)
{
	static const char *const reported[] = {
		"vmstat.pgsteal_anon", "vmstat.pgsteal_file",
		"vmstat.workingset_refault_anon",
		"vmstat.workingset_refault_file", "vmstat.pswpout",
		"vmstat.pswpin", "memstat.pgscan", "memstat.pgsteal", NULL
	};

	metric(c, "lru_lock_per_1000_scanned", m_ratio, NULL, +1,
	       c->t->lock_ratio_pct);
	metric(c, "lru_lock_acquisitions", m_acq, NULL, 0, 0);
	metric(c, "lru_lock_contentions", m_con, NULL, 0, 0);
	metric(c, "pgscan", m_pgscan, NULL, 0, 0);
	metric(c, "throughput_pages_per_s", m_tput, NULL, -1,
	       c->t->throughput_pct);
	report_counters(c, reported);
}

/*
 * Series B's: the shadow entries the budget keeps (lower is worse), and
 * what the stat-update fast path costs (lower throughput is worse).
 */
static void shadow_metrics(struct cmp_ctx *c)
{
	static const char *const reported[] = {
		"vmstat.workingset_nodereclaim",
		"vmstat.workingset_refault_file",
		"vmstat.workingset_activate_file",
		"vmstat.workingset_restore_file", "vmstat.pgpgin",
		"memstat.workingset_refault_file",
		"memstat.workingset_nodereclaim", NULL
	};

	metric(c, "shadow_kept_live_pct", m_kept, NULL, -1,
	       c->t->shadow_kept_pct);
	metric(c, "shadow_kept_offlined_pct", m_kept, "offlined", -1,
	       c->t->shadow_kept_pct);
	metric(c, "stat_fastpath_pages_per_s", m_churn, NULL, -1,
	       c->t->fastpath_pct);
	report_counters(c, reported);
}

json_t *sk_bench_compare(const struct sk_bench *base,
			 const struct sk_bench *patched,
			 const struct sk_gate_thresholds *t,
			 const char *const *new_counters)
{
	struct cmp_ctx c = { json_object(), json_array(), 1, 1, base, patched,
			     t };
	json_t *counters;
	double min_p = sk_stats_mwu_min_p(base->nr, patched->nr);
	int enough = 1;

	/*
	 * Too few runs to gate: the verdict is "not run" (unless something
	 * failed anyway), never a pass that could not have been a fail.
	 */
	if ((int)base->nr < t->min_runs || (int)patched->nr < t->min_runs) {
		enough = 0;
		json_array_append_new(c.reasons, json_sprintf(
			"not run: %zu baseline and %zu patched runs, %d needed",
			base->nr, patched->nr, t->min_runs));
	} else if (min_p >= t->alpha) {
		enough = 0;
		json_array_append_new(c.reasons, json_sprintf(
			"not run: with %zu and %zu runs the smallest p is %.3f, "
			"nothing can be significant at alpha %.3f",
			base->nr, patched->nr, min_p, t->alpha));
	}
	if (t->kind == SK_BENCH_SHADOW)
		shadow_metrics(&c);
	else
		lrulock_metrics(&c);
	counters = check_counters(c.reasons, &c.pass, patched, new_counters);
	check_families(counters, c.reasons, &c.pass);
	return json_pack("{s:o, s:o, s:s, s:s, s:o, s:i, s:i, s:f}", "metrics",
			 c.metrics, "new_counters", counters, "bench",
			 sk_bench_kind_name(t->kind), "verdict",
			 !c.pass ? "fail" : enough && c.measured ? "pass" :
			 "not run", "reasons", c.reasons,
			 "baseline_runs", (json_int_t)base->nr,
			 "patched_runs", (json_int_t)patched->nr, "min_p", min_p);
}

static json_t *number_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* wsbench's numbers and the percentages (null: nothing evicted). */
static json_t *shadow_json(const struct sk_bench_run *r)
{
	double live = sk_bench_shadow_kept(r, 0);
	double off = sk_bench_shadow_kept(r, 1);

	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:o, s:o}",
			 "hot_pages", (json_int_t)r->hot_pages,
			 "live_evicted", (json_int_t)r->live_evicted,
			 "live_shadows", (json_int_t)r->live_shadows,
			 "offlined_evicted", (json_int_t)r->offlined_evicted,
			 "offlined_shadows", (json_int_t)r->offlined_shadows,
			 "kept_live_pct", number_or_null(live),
			 "kept_offlined_pct", number_or_null(off));
}

json_t *sk_bench_runs_json(const struct sk_bench *b)
{
	json_t *arr = json_array(), *o;
	size_t i, j;

	for (i = 0; i < b->nr; i++) {
		const struct sk_bench_run *r = &b->runs[i];
		json_t *c = json_object();

		for (j = 0; j < r->nr_counters; j++)
			if (strncmp(r->counters[j].name, "has:", 4))
				json_object_set_new(c, r->counters[j].name,
					json_integer(r->counters[j].delta));
		json_array_append_new(arr, json_pack(
			"{s:i, s:f, s:f, s:I, s:I, s:I, s:f, s:o}",
			"run", r->nr, "elapsed_s", r->elapsed_s,
			"pages_per_s", r->pages_per_s,
			"pgscan", (json_int_t)sk_bench_pgscan(r),
			"lru_lock_acquisitions", (json_int_t)r->lock_acquisitions,
			"lru_lock_contentions", (json_int_t)r->lock_contentions,
			"lru_lock_per_1000_scanned", sk_bench_lock_ratio(r),
			"counters", c));
		o = json_array_get(arr, i);
		if (r->churn_pages_per_s >= 0)
			json_object_set_new(o, "churn_pages_per_s",
					    json_real(r->churn_pages_per_s));
		if (r->hot_pages >= 0)
			json_object_set_new(o, "wsbench", shadow_json(r));
	}
	return arr;
}

void sk_bench_move(struct sk_bench *out, struct sk_bench *from)
{
	size_t i;

	/* runs numbered across boots (each boot's own says 1) */
	for (i = 0; i < from->nr; i++) {
		from->runs[i].nr = (int)out->nr + 1;
		*SK_ARRAY_PUSH(out->runs, out->nr, out->alloc) = from->runs[i];
	}
	from->nr = 0;
	if (!out->lru_gen && from->lru_gen)
		out->lru_gen = sk_xstrdup(from->lru_gen);
	if (!out->thp && from->thp)
		out->thp = sk_xstrdup(from->thp);
	if (!out->error && from->error)
		out->error = sk_xstrdup(from->error);
	sk_bench_release(from);
}

void sk_bench_append_log(struct sk_bench *out, const char *log, size_t len)
{
	struct sk_bench b;

	sk_bench_parse(&b, log, len);
	sk_bench_move(out, &b);
}

char *sk_bench_build_helper(const char *top, const char *dir, const char *name)
{
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	char *rel = sk_xstrfmt("helpers/%s.c", name);
	char *src = sk_datadir_path(rel);
	char *bin = sk_path_join(dir, name);
	const char *argv[] = { "gcc", "-static", "-O2", "-o", bin, src, NULL };

	sk_mkdir_p(dir, 0755);
	ro.argv = argv;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	ro.timeout_ms = 120000;
	if (sk_run(&res, &ro) < 0 || res.exit_code) {
		free(bin);
		bin = NULL;
	}
	sk_run_result_release(&res);
	free(src);
	free(rel);
	return bin;
}

int sk_bench_guest(struct sk_bench *out, const char *top, const char *arch,
		   const char *kernel, const char *usemem, const char *env,
		   const char *dir, const struct sk_lava *lava)
{
	const char *files[] = { usemem };

	return sk_bench_guest_files(out, top, arch, kernel, files, 1, env, dir,
				    lava);
}

int sk_bench_guest_files(struct sk_bench *out, const char *top,
			 const char *arch, const char *kernel,
			 const char *const *files, size_t nr_files,
			 const char *env, const char *dir,
			 const struct sk_lava *lava)
{
	struct sk_guest_opts go = { 0 };
	struct sk_boot_result boot;
	struct sk_strbuf job = SK_STRBUF_INIT, log = SK_STRBUF_INIT;
	char *script = sk_datadir_find(top, "ci/guest/bench.sh", NULL);
	char *logpath = sk_path_join(dir, "console.log");
	char *name = NULL;
	int err;

	err = sk_read_file(&job, script);
	if (!err) {
		/* the environment first, then the script after its #! line */
		char *body = strchr(job.buf, '\n');
		char *text = sk_xstrfmt("#!/bin/sh\ncat >/stablekit/bench.env <<'EOF'\n%sEOF\n%s",
					env, body ? body + 1 : "");

		go.top = top;
		go.arch = arch;
		go.kernel = kernel;
		go.workdir = dir;
		go.append = "transparent_hugepage=never";
		go.job = text;
		go.files = files;
		go.nr_files = nr_files;
		go.timeout_s = 1800;
		go.memory_mb = 1024;
		go.lava = lava;
		go.name = name = sk_xstrfmt("stablekit bench %s", dir);
		err = sk_guest_run(&boot, &go);
		free(text);
		if (!err && boot.status != SK_BOOT_OK)
			err = sk_error_set(SK_ERROR, "bench boot: %s", boot.reason);
		sk_boot_result_release(&boot);
	}
	if (!err) {
		sk_read_file(&log, logpath);
		sk_bench_append_log(out, log.buf, log.len);
	}
	sk_strbuf_release(&job);
	sk_strbuf_release(&log);
	free(name);
	free(script);
	free(logpath);
	return err;
}

