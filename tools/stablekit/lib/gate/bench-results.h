#ifndef SK_BENCH_RESULTS_H
#define SK_BENCH_RESULTS_H

#include <jansson.h>

/*
 * results/<branch>/gate/bench-<mode>.json: one benchmark's runs on both
 * sides and their comparison, its schema here and nowhere else.  The
 * gate's comparison (gate/bench) builds the JSON and writes it through
 * sk_bench_results_write, which reads it back through the typed reader
 * first; the report reads it through sk_bench_results_read.
 *
 * Strings are NULL where the file has null or nothing; numbers that may
 * be missing have a has_ flag.
 */

struct sk_bench_results_summary {
	long long n;
	double median, mean, stddev, stddev_pct, min, max;
};

/* A named number: a counter's delta in a run. */
struct sk_bench_results_value {
	char *name;
	long long value;
};

struct sk_bench_results_metric {
	char *name;
	char *status;		/* "not measured", else NULL */
	char *reason;		/* why not measured */
	double *baseline_values, *patched_values;	/* not measured */
	size_t nr_baseline_values, nr_patched_values;
	int has_values;
	struct sk_bench_results_summary baseline, patched;
	int has_summary;
	double change_pct, p;
	int exact, significant;
	char *verdict;		/* pass, fail, info */
	int gated, has_gated;
	double threshold_pct;
	int has_threshold;
	char *not_gated;	/* measured, gating nothing: why */
};

/* A counter the queue adds, in /proc/vmstat and in memory.stat. */
struct sk_bench_results_counter {
	char *name;
	int vmstat_present, memstat_present;
	long long vmstat_delta, memstat_delta;
};

struct sk_bench_results_run {
	long long run;
	double elapsed_s, pages_per_s, lru_lock_per_1000_scanned;
	long long pgscan, lru_lock_acquisitions, lru_lock_contentions;
	struct sk_bench_results_value *counters;
	size_t nr_counters;
	double churn_pages_per_s;
	int has_churn;
	/* wsbench: the shadow entries kept (series B's benchmark) */
	int has_wsbench;
	long long hot_pages, live_evicted, live_shadows, offlined_evicted,
		  offlined_shadows;
	double kept_live_pct, kept_offlined_pct;	/* NaN: null */
};

struct sk_bench_results {
	char *bench;		/* lrulock, shadow */
	char *mode;		/* classic, mglru */
	char *verdict;		/* pass, fail, not run */
	char **reasons;
	size_t nr_reasons;
	int has_reasons;
	struct sk_bench_results_metric *metrics;	/* in file order */
	size_t nr_metrics;
	int has_metrics;
	struct sk_bench_results_counter *counters;	/* new_counters */
	size_t nr_counters;
	int has_counters;
	long long baseline_runs, patched_runs;
	double min_p;
	char *lru_gen, *thp;
	int baseline_reused, has_baseline_reused;
	int throughput_gated;
	char *guest_error;
	struct sk_bench_results_run *runs[2];	/* baseline, patched */
	size_t nr_runs[2];
	int has_runs;
};

void sk_bench_results_release(struct sk_bench_results *r);

int sk_bench_results_from_json(struct sk_bench_results *out, json_t *o,
			       const char *file);

/* The report's forms of the parts it shows. */
json_t *sk_bench_results_metric_json(const struct sk_bench_results_metric *m);
json_t *sk_bench_results_counters_json(const struct sk_bench_results *r);
json_t *sk_bench_results_runs_json(const struct sk_bench_results *r);
json_t *sk_bench_results_reasons_json(const struct sk_bench_results *r);

/*
 * Write o to path atomically once it reads as the schema says; else
 * SK_EINVALID naming the key, and nothing written.
 */
int sk_bench_results_write(const char *path, json_t *o);

/*
 * Read path: SK_ENOTFOUND "not run: no <path>" when it does not exist,
 * SK_EINVALID "unreadable: <path>..." when it is no JSON or a key holds
 * the wrong type.
 */
int sk_bench_results_read(struct sk_bench_results *out, const char *path);

#endif
