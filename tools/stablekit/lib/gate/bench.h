#ifndef SK_BENCH_H
#define SK_BENCH_H

#include <stddef.h>
#include <jansson.h>

/*
 * The benchmark gate: runs of ci/guest/bench.sh parsed from the console,
 * the headline metrics of the branch's benchmark, baseline against
 * patched with median, %change, stddev and a Mann-Whitney test, a verdict
 * against the thresholds of ci/gate.conf.  Two benchmarks, chosen per
 * branch (gate.<branch>.bench):
 *
 *   lrulock  series A's: lruvec lock acquisitions per 1000 pages scanned
 *            and usemem's throughput under memcg reclaim.
 *   shadow   series B's: of the hot pages that left the page cache, the
 *            percentage that still have a shadow entry, with the memcg
 *            alive and after it was offlined (wsbench), and the fault /
 *            charge churn throughput (the stat-update fast path).
 *
 * A metric without a value in every run (no data, NaN), or 0 in every
 * run of both sides, is "not measured"; a gating metric not measured
 * makes the verdict "not run", never a pass.
 */
enum sk_bench_kind { SK_BENCH_LRULOCK, SK_BENCH_SHADOW };

/* "lrulock", "shadow"; -1 for another name. */
int sk_bench_kind_parse(const char *name);
const char *sk_bench_kind_name(enum sk_bench_kind kind);

struct sk_bench_counter {
	char *name;		/* "vmstat.pgscan_direct", "memstat.pgscan" */
	long long delta;
};

struct sk_bench_run {
	int nr;
	double elapsed_s, pages_per_s;
	long long lock_acquisitions, lock_contentions;	/* -1: no lock_stat */
	double churn_pages_per_s;	/* -1: no churn line */
	/* wsbench's line; -1: none (hot_pages < 0) */
	long long hot_pages, live_evicted, live_shadows, offlined_evicted,
		  offlined_shadows;
	struct sk_bench_counter *counters;
	size_t nr_counters, alloc_counters;
};

struct sk_bench {
	struct sk_bench_run *runs;
	size_t nr, alloc;
	char *thp, *lru_gen;	/* as the guest reported them */
	char *error;		/* the guest's first "error:" line */
};

#define SK_BENCH_INIT { NULL, 0, 0, NULL, NULL, NULL }

/* Parse the runs of a console log; incomplete runs are dropped. */
int sk_bench_parse(struct sk_bench *out, const char *log, size_t len);
/* Parse one boot's console log and append its runs to out, numbered on. */
void sk_bench_append_log(struct sk_bench *out, const char *log, size_t len);
/* Append from's runs to out, numbered on; from is released. */
void sk_bench_move(struct sk_bench *out, struct sk_bench *from);
void sk_bench_release(struct sk_bench *b);

/* A counter's delta in a run; 0 when absent (*found says which). */
long long sk_bench_counter(const struct sk_bench_run *r, const char *name,
			   int *found);
/* Pages scanned: vmstat pgscan_anon + pgscan_file (or the per-source sum). */
long long sk_bench_pgscan(const struct sk_bench_run *r);
/* Lock acquisitions per 1000 pages scanned; -1 without lock_stat or scans. */
double sk_bench_lock_ratio(const struct sk_bench_run *r);
/*
 * Of the hot pages out of the cache, the percentage with a shadow entry,
 * the memcg alive (offlined = 0) or offlined; NAN without wsbench's line
 * or with no hot page evicted (nothing to measure).
 */
double sk_bench_shadow_kept(const struct sk_bench_run *r, int offlined);

struct sk_gate_thresholds {
	/* worse by more than this fails; INFINITY: measured, not gated */
	double lock_ratio_pct;
	double throughput_pct;
	double alpha;		/* significance level */
	int min_runs;
	/* the shadow benchmark's: kept shadows, churn throughput */
	double shadow_kept_pct;
	double fastpath_pct;
	enum sk_bench_kind kind;	/* which benchmark's metrics */
};

/*
 * Compare: one object per metric { base: {median, stddev, ...}, patched:
 * {...}, change_pct, p, significant, gating, verdict } (or { status:
 * "not measured", reason, baseline_values: [...], patched_values: [...] }),
 * the new counters check and a verdict { pass, reasons[] }.  The metrics
 * are t->kind's.
 */
json_t *sk_bench_compare(const struct sk_bench *base,
			 const struct sk_bench *patched,
			 const struct sk_gate_thresholds *t,
			 const char *const *new_counters);

/* The runs as JSON: throughput, pgscan, lock counts, ratio, counters. */
json_t *sk_bench_runs_json(const struct sk_bench *b);

struct sk_lava;

/*
 * helpers/<name>.c (usemem, wsbench) of the shipped files (core/datadir.h)
 * built with gcc -static into dir; NULL when it does not build.
 */
char *sk_bench_build_helper(const char *top, const char *dir, const char *name);

/*
 * One boot of ci/guest/bench.sh with env (bench.env lines) on kernel,
 * files (the workloads) in /stablekit; the runs parsed from its console
 * are appended to out.  Fails when the boot
 * is not ok.
 */
int sk_bench_guest_files(struct sk_bench *out, const char *top,
			 const char *arch, const char *kernel,
			 const char *const *files, size_t nr_files,
			 const char *env, const char *dir,
			 const struct sk_lava *lava);
/* The same with usemem alone. */
int sk_bench_guest(struct sk_bench *out, const char *top, const char *arch,
		   const char *kernel, const char *usemem, const char *env,
		   const char *dir, const struct sk_lava *lava);

#endif
