#ifndef SK_BENCH_H
#define SK_BENCH_H

#include <stddef.h>
#include <jansson.h>

/*
 * The benchmark gate: runs of ci/guest/bench.sh parsed from the console,
 * the headline metric (lruvec lock acquisitions per 1000 pages scanned),
 * baseline against patched with median, %change, stddev and a Mann-Whitney
 * test, a verdict against the thresholds of ci/gate.conf.
 */
struct sk_bench_counter {
	char *name;		/* "vmstat.pgscan_direct", "memstat.pgscan" */
	long long delta;
};

struct sk_bench_run {
	int nr;
	double elapsed_s, pages_per_s;
	long long lock_acquisitions, lock_contentions;	/* -1: no lock_stat */
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

struct sk_gate_thresholds {
	/* worse by more than this fails; INFINITY: measured, not gated */
	double lock_ratio_pct;
	double throughput_pct;
	double alpha;		/* significance level */
	int min_runs;
};

/*
 * Compare: one object per metric { base: {median, stddev, ...}, patched:
 * {...}, change_pct, p, significant, gating, verdict }, the new counters
 * check and a verdict { pass, reasons[] }.
 */
json_t *sk_bench_compare(const struct sk_bench *base,
			 const struct sk_bench *patched,
			 const struct sk_gate_thresholds *t,
			 const char *const *new_counters);

/* The runs as JSON: throughput, pgscan, lock counts, ratio, counters. */
json_t *sk_bench_runs_json(const struct sk_bench *b);

struct sk_lava;

/* usemem built with gcc -static into dir; NULL when it does not build. */
char *sk_bench_build_usemem(const char *top, const char *dir);

/*
 * One boot of ci/guest/bench.sh with env (bench.env lines) on kernel; the
 * runs parsed from its console are appended to out.  Fails when the boot
 * is not ok.
 */
int sk_bench_guest(struct sk_bench *out, const char *top, const char *arch,
		   const char *kernel, const char *usemem, const char *env,
		   const char *dir, const struct sk_lava *lava);

#endif
