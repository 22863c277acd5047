#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <git2.h>

#include "gate/bench.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "gate/kselftest.h"
#include "gate/ktap.h"
#include "core/strbuf.h"
#include "gate/boot.h"
#include "gate/gate-config.h"
#include "gate/guest.h"
#include "gate/test.h"
#include "core/strvec.h"

static const char *const counters[] = {
	"pgrotate_anon", "pgreclaim_pageout_anon", NULL
};

/* A console log of n bench runs with the given lock acquisitions. */
static char *bench_log(const long long *acq, int n, int with_new,
		       double pps)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int i;

	sk_strbuf_adds(&sb, "[    1.0] Run /init as init process\r\n"
		       "stablekit-bench: thp [always] madvise never\r\n"
		       "stablekit-bench: lru_gen 0x0000\r\n");
	for (i = 0; i < n; i++) {
		sk_strbuf_addf(&sb, "stablekit-bench: begin %d\r\n", i + 1);
		sk_strbuf_addf(&sb, "stablekit-bench: usemem usemem: workers=1 "
			       "size=268435456 touches=200000 pages=200000 "
			       "elapsed_s=80.0 pages_per_s=%.0f\r\n", pps + i);
		sk_strbuf_adds(&sb, "stablekit-bench: vmstat pgscan_anon 99000\n"
			       "stablekit-bench: vmstat pgscan_file 1000\n"
			       "stablekit-bench: vmstat pgscan_direct 100000\n"
			       "stablekit-bench: memstat pgscan 100000\n");
		if (with_new)
			sk_strbuf_adds(&sb,
				"stablekit-bench: vmstat pgrotate_anon 12\n"
				"stablekit-bench: vmstat pgreclaim_pageout_anon 50000\n"
				"stablekit-bench: memstat pgrotate_anon 12\n"
				"stablekit-bench: memstat pgreclaim_pageout_anon 50000\n"
				"stablekit-bench: has vmstat pgrotate_anon\n"
				"stablekit-bench: has vmstat pgreclaim_pageout_anon\n"
				"stablekit-bench: has memstat pgrotate_anon\n"
				"stablekit-bench: has memstat pgreclaim_pageout_anon\n");
		sk_strbuf_addf(&sb, "stablekit-bench: lockstat &lruvec->lru_lock %lld 3\n"
			       "stablekit-bench: lockstat &other->lock 5 0\n",
			       acq[i]);
		sk_strbuf_addf(&sb, "stablekit-bench: end %d\n", i + 1);
	}
	/* an unfinished run is dropped */
	sk_strbuf_adds(&sb, "stablekit-bench: begin 99\nstablekit-bench: vmstat pgscan_anon 1\n");
	return sk_strbuf_detach(&sb);
}

static void test_bench_parse(void **state)
{
	const long long acq[] = { 34700, 34900 };
	char *log = bench_log(acq, 2, 1, 2500);
	struct sk_bench b;
	int found;

	(void)state;
	assert_int_equal(sk_bench_parse(&b, log, strlen(log)), 0);
	assert_int_equal(b.nr, 2);
	assert_string_equal(b.thp, "[always] madvise never");
	assert_int_equal(b.runs[0].lock_acquisitions, 34700);
	assert_int_equal(b.runs[0].lock_contentions, 3);
	assert_true(b.runs[1].pages_per_s == 2501);
	assert_int_equal(sk_bench_pgscan(&b.runs[0]), 100000);
	assert_true(sk_bench_lock_ratio(&b.runs[0]) == 347.0);
	assert_int_equal(sk_bench_counter(&b.runs[1], "memstat.pgscan", &found),
			 100000);
	assert_true(found);
	sk_bench_counter(&b.runs[1], "vmstat.nope", &found);
	assert_false(found);
	sk_bench_release(&b);
	free(log);
}

/* Boots run side by side are parsed apart and moved into one side's runs. */
static void test_bench_move(void **state)
{
	const long long one[] = { 100 }, two[] = { 200, 300 };
	char *log1 = bench_log(one, 1, 0, 1000), *log2 = bench_log(two, 2, 0, 2000);
	struct sk_bench side = SK_BENCH_INIT, boot;

	(void)state;
	assert_int_equal(sk_bench_parse(&boot, log1, strlen(log1)), 0);
	sk_bench_move(&side, &boot);
	assert_int_equal(boot.nr, 0);
	assert_null(boot.runs);
	assert_int_equal(sk_bench_parse(&boot, log2, strlen(log2)), 0);
	sk_bench_move(&side, &boot);
	assert_int_equal(side.nr, 3);
	assert_int_equal(side.runs[0].nr, 1);
	assert_int_equal(side.runs[2].nr, 3);
	assert_int_equal(side.runs[1].lock_acquisitions, 200);
	assert_int_equal(side.runs[2].lock_acquisitions, 300);
	assert_string_equal(side.thp, "[always] madvise never");
	sk_bench_release(&side);
	free(log1);
	free(log2);
}

static void test_bench_verdict(void **state)
{
	const long long base[] = { 34700, 34900, 34400, 35000, 34600 };
	const long long same[] = { 34800, 34500, 35100, 34650, 34750 };
	const long long less[] = { 30000, 30500, 29800, 30200, 31000 };
	const long long more[] = { 37000, 37500, 36800, 37200, 38000 };
	struct sk_gate_thresholds t = { .lock_ratio_pct = 5, .throughput_pct = 10,
					 .alpha = 0.05, .min_runs = 3 };
	struct sk_bench b, p;
	char *lb = bench_log(base, 5, 0, 2500), *lp, *text;
	json_t *v, *m;

	(void)state;
	sk_bench_parse(&b, lb, strlen(lb));

	lp = bench_log(less, 5, 1, 2500);
	sk_bench_parse(&p, lp, strlen(lp));
	v = sk_bench_compare(&b, &p, &t, counters);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
	m = json_object_get(json_object_get(v, "metrics"), "lru_lock_per_1000_scanned");
	assert_true(json_real_value(json_object_get(json_object_get(m, "baseline"),
						    "median")) == 347.0);
	assert_true(json_real_value(json_object_get(m, "p")) < 0.0080);
	assert_true(json_real_value(json_object_get(m, "change_pct")) < -12.9);
	assert_non_null(strstr(json_string_value(json_array_get(
		json_object_get(v, "reasons"), 0)), "improved"));
	json_decref(v);
	sk_bench_release(&p);
	free(lp);

	lp = bench_log(same, 5, 1, 2500);
	sk_bench_parse(&p, lp, strlen(lp));
	v = sk_bench_compare(&b, &p, &t, counters);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
	assert_int_equal(json_array_size(json_object_get(v, "reasons")), 0);
	json_decref(v);
	sk_bench_release(&p);
	free(lp);

	lp = bench_log(more, 5, 1, 2500);
	sk_bench_parse(&p, lp, strlen(lp));
	v = sk_bench_compare(&b, &p, &t, counters);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "fail");
	assert_non_null(strstr(json_string_value(json_array_get(
		json_object_get(v, "reasons"), 0)), "lru_lock_per_1000_scanned +"));
	json_decref(v);
	sk_bench_release(&p);
	free(lp);

	/* 3 and 3 runs: the smallest p is 0.1, so "not run", never a pass */
	{
		struct sk_bench b3, p3;
		char *l3 = bench_log(base, 3, 0, 2500);
		char *m3 = bench_log(less, 3, 1, 2500);

		sk_bench_parse(&b3, l3, strlen(l3));
		sk_bench_parse(&p3, m3, strlen(m3));
		v = sk_bench_compare(&b3, &p3, &t, counters);
		assert_string_equal(json_string_value(json_object_get(v,
				    "verdict")), "not run");
		assert_true(json_real_value(json_object_get(v, "min_p")) > 0.099);
		text = json_dumps(json_object_get(v, "reasons"), 0);
		assert_non_null(strstr(text, "smallest p is 0.100"));
		free(text);
		json_decref(v);
		sk_bench_release(&b3);
		sk_bench_release(&p3);
		free(l3);
		free(m3);
	}

	/* the new counters missing: a fail naming them */
	lp = bench_log(less, 5, 0, 2500);
	sk_bench_parse(&p, lp, strlen(lp));
	v = sk_bench_compare(&b, &p, &t, counters);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "fail");
	text = json_dumps(json_object_get(v, "reasons"), 0);
	assert_non_null(strstr(text, "pgrotate_anon missing from /proc/vmstat"));
	free(text);
	json_decref(v);
	sk_bench_release(&p);
	free(lp);

	sk_bench_release(&b);
	free(lb);
}

/* A console log of n shadow-benchmark runs: kept shadows of 1000 evicted. */
static char *shadow_log(const int *live, const int *offlined, int n,
			double churn, long long evicted)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int i;

	sk_strbuf_adds(&sb, "stablekit-bench: lru_gen 0x0007\r\n");
	for (i = 0; i < n; i++) {
		sk_strbuf_addf(&sb, "stablekit-bench: begin %d\r\n", i + 1);
		if (churn > 0)
			sk_strbuf_addf(&sb, "stablekit-bench: churn usemem: "
				       "workers=1 size=4194304 touches=100000 "
				       "pages=100000 elapsed_s=9.1 "
				       "pages_per_s=%.0f\r\n", churn + i);
		sk_strbuf_addf(&sb, "stablekit-bench: wsbench wsbench: rounds=2 "
			       "hot_pages=2048 live_evicted=%lld live_shadows=%d "
			       "offlined_evicted=%lld offlined_shadows=%d "
			       "elapsed_s=30.5\r\n", evicted, live[i], evicted,
			       offlined[i]);
		sk_strbuf_adds(&sb, "stablekit-bench: vmstat workingset_nodereclaim 700\n");
		sk_strbuf_addf(&sb, "stablekit-bench: end %d\n", i + 1);
	}
	return sk_strbuf_detach(&sb);
}

static void test_bench_shadow_parse(void **state)
{
	const int live[] = { 50 }, off[] = { 20 };
	char *log = shadow_log(live, off, 1, 12000, 1000);
	struct sk_bench b;
	json_t *runs;

	(void)state;
	assert_int_equal(sk_bench_parse(&b, log, strlen(log)), 0);
	assert_int_equal(b.nr, 1);
	assert_true(b.runs[0].churn_pages_per_s == 12000);
	assert_int_equal(b.runs[0].hot_pages, 2048);
	assert_int_equal(b.runs[0].live_evicted, 1000);
	assert_int_equal(b.runs[0].offlined_shadows, 20);
	assert_true(sk_bench_shadow_kept(&b.runs[0], 0) == 5.0);
	assert_true(sk_bench_shadow_kept(&b.runs[0], 1) == 2.0);
	/* a run without lock_stat, churn or wsbench has none of them */
	assert_true(b.runs[0].lock_acquisitions == -1);
	runs = sk_bench_runs_json(&b);
	assert_true(json_real_value(json_object_get(json_object_get(
		json_array_get(runs, 0), "wsbench"), "kept_live_pct")) == 5.0);
	assert_true(json_real_value(json_object_get(json_array_get(runs, 0),
		    "churn_pages_per_s")) == 12000);
	json_decref(runs);
	sk_bench_release(&b);
	free(log);

	/* wsbench failed (its error instead of its numbers): no value */
	log = sk_xstrdup("stablekit-bench: begin 1\n"
			 "stablekit-bench: wsbench wsbench: cachestat: Function not implemented\n"
			 "stablekit-bench: end 1\n");
	sk_bench_parse(&b, log, strlen(log));
	assert_int_equal(b.nr, 1);
	assert_true(b.runs[0].hot_pages == -1);
	assert_true(b.runs[0].churn_pages_per_s == -1);
	assert_true(isnan(sk_bench_shadow_kept(&b.runs[0], 0)));
	runs = sk_bench_runs_json(&b);
	assert_null(json_object_get(json_array_get(runs, 0), "wsbench"));
	json_decref(runs);
	sk_bench_release(&b);
	free(log);
}

static const char *metric_str(json_t *v, const char *metric, const char *key)
{
	return json_string_value(json_object_get(json_object_get(
		json_object_get(v, "metrics"), metric), key));
}

static json_t *shadow_compare(const int *bl, const int *bo, const int *pl,
			      const int *po, double bchurn, double pchurn,
			      long long evicted)
{
	struct sk_gate_thresholds t = { .alpha = 0.05, .min_runs = 4,
					 .shadow_kept_pct = 10, .fastpath_pct = 5,
					 .kind = SK_BENCH_SHADOW };
	char *lb = shadow_log(bl, bo, 4, bchurn, evicted);
	char *lp = shadow_log(pl, po, 4, pchurn, evicted);
	struct sk_bench b, p;
	json_t *v;

	sk_bench_parse(&b, lb, strlen(lb));
	sk_bench_parse(&p, lp, strlen(lp));
	v = sk_bench_compare(&b, &p, &t, NULL);
	sk_bench_release(&b);
	sk_bench_release(&p);
	free(lb);
	free(lp);
	return v;
}

/* Series B's metrics: kept shadows gate lower-is-worse, and the churn. */
static void test_bench_shadow_verdict(void **state)
{
	const int low[] = { 30, 40, 35, 45 }, high[] = { 950, 960, 940, 955 };
	const int zero[] = { 0, 0, 0, 0 };
	json_t *v;
	char *text;

	(void)state;
	/* B keeps the shadows: improved, the churn unchanged: a pass */
	v = shadow_compare(low, low, high, high, 12000, 12000, 1000);
	assert_string_equal(json_string_value(json_object_get(v, "bench")), "shadow");
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
	assert_string_equal(metric_str(v, "shadow_kept_live_pct", "verdict"), "pass");
	text = json_dumps(json_object_get(v, "reasons"), 0);
	assert_non_null(strstr(text, "shadow_kept_live_pct improved"));
	free(text);
	assert_null(json_object_get(json_object_get(v, "metrics"),
				    "lru_lock_per_1000_scanned"));
	json_decref(v);

	/* fewer shadows kept, or a slower fast path: a fail naming it */
	v = shadow_compare(high, high, low, high, 12000, 12000, 1000);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "fail");
	assert_string_equal(metric_str(v, "shadow_kept_live_pct", "verdict"), "fail");
	json_decref(v);
	v = shadow_compare(high, high, high, high, 12000, 10000, 1000);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "fail");
	text = json_dumps(json_object_get(v, "reasons"), 0);
	assert_non_null(strstr(text, "stat_fastpath_pages_per_s -"));
	free(text);
	json_decref(v);

	/* no shadow kept on either side after offlining: not measured */
	v = shadow_compare(low, zero, high, zero, 12000, 12000, 1000);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "not run");
	assert_string_equal(metric_str(v, "shadow_kept_offlined_pct", "status"),
			    "not measured");
	assert_non_null(strstr(metric_str(v, "shadow_kept_offlined_pct", "reason"),
			       "0 in every run"));
	json_decref(v);

	/* nothing evicted (no pressure): no value, the numbers shown */
	v = shadow_compare(low, low, high, high, 12000, 12000, 0);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "not run");
	assert_string_equal(metric_str(v, "shadow_kept_live_pct", "status"),
			    "not measured");
	assert_non_null(strstr(metric_str(v, "shadow_kept_live_pct", "reason"),
			       "no value in 4 of 4 baseline"));
	assert_true(json_is_null(json_array_get(json_object_get(json_object_get(
		json_object_get(v, "metrics"), "shadow_kept_live_pct"),
		"baseline_values"), 0)));
	json_decref(v);

	/* no churn line on one side (usemem -D failed): not measured */
	v = shadow_compare(low, low, high, high, 12000, 0, 1000);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "not run");
	text = json_dumps(json_object_get(v, "reasons"), 0);
	assert_non_null(strstr(text, "not measured: stat_fastpath_pages_per_s"));
	free(text);
	json_decref(v);
}

/* A gating metric the guest could not measure is never a pass. */
static void test_bench_not_measured_is_no_pass(void **state)
{
	const long long acq[] = { -1, -1, -1, -1, -1 };
	struct sk_gate_thresholds t = { .lock_ratio_pct = 5, .throughput_pct = 10,
					 .alpha = 0.05, .min_runs = 3 };
	struct sk_bench b, p;
	char *lb = bench_log(acq, 5, 0, 2500), *lp = bench_log(acq, 5, 1, 2500);
	char *text;
	json_t *v;

	(void)state;
	/* a kernel without LOCK_STAT prints no lockstat line */
	sk_bench_parse(&b, lb, strlen(lb));
	sk_bench_parse(&p, lp, strlen(lp));
	v = sk_bench_compare(&b, &p, &t, counters);
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "not run");
	assert_string_equal(metric_str(v, "lru_lock_per_1000_scanned", "status"),
			    "not measured");
	text = json_dumps(json_object_get(v, "reasons"), 0);
	assert_non_null(strstr(text, "not measured: lru_lock_per_1000_scanned: "
			       "no value in 5 of 5 baseline and 5 of 5 patched runs"));
	free(text);
	json_decref(v);
	sk_bench_release(&b);
	sk_bench_release(&p);
	free(lb);
	free(lp);
}

static void test_gate_config_bench(void **state)
{
	char path[] = "/tmp/sk-gate-bench-XXXXXX";
	enum sk_bench_kind k;
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("[gate]\n\tarch = x86_64\n[gate \"linux-7.2.y\"]\n\tbench = shadow\n"
	      "[gate \"linux-7.9.y\"]\n\tbench = shadows\n", f);
	fclose(f);
	assert_int_equal(sk_gate_config_bench(&k, path, "linux-7.2.y"), 0);
	assert_int_equal(k, SK_BENCH_SHADOW);
	assert_int_equal(sk_gate_config_bench(&k, path, "linux-6.12.y"), 0);
	assert_int_equal(k, SK_BENCH_LRULOCK);
	assert_true(sk_gate_config_bench(&k, path, "linux-7.9.y") < 0);
	assert_non_null(strstr(sk_error_last(), "gate.linux-7.9.y.bench: "
			       "unknown benchmark 'shadows'"));
	sk_error_clear();
	assert_int_equal(sk_gate_config_bench(&k, NULL, "linux-7.2.y"), 0);
	assert_int_equal(k, SK_BENCH_LRULOCK);
	unlink(path);
}

static void test_gate_config(void **state)
{
	struct sk_gate_thresholds t;
	char path[] = "/tmp/sk-gate-conf-XXXXXX";
	char *env = NULL;
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("[bench]\n\truns = 7\n\tsize = \"128M $(reboot)\"\n"
	      "[threshold]\n\tlruLockPer1000Scanned = 4.5\n", f);
	fclose(f);
	assert_int_equal(sk_gate_config(&t, &env, path), 0);
	assert_true(t.lock_ratio_pct == 4.5);
	assert_true(t.throughput_pct == 10);
	assert_non_null(strstr(env, "RUNS=7\n"));
	assert_non_null(strstr(env, "SIZE=256M\n"));	/* refused */
	free(env);
	unlink(path);
	assert_int_equal(sk_gate_config(&t, &env, NULL), 0);
	assert_non_null(strstr(env, "RUNS=5\n"));
	free(env);
}

/* A threshold that is no number (NaN above all) fails before any gate. */
static void test_gate_config_thresholds_fail_closed(void **state)
{
	static const char *const bad[] = {
		"alpha = nan", "alpha = 0", "alpha = 2", "throughput = -5",
		"throughput = 5%", "lruLockPer1000Scanned = nan", "minRuns = 0",
		"statFastPath =", NULL
	};
	char path[] = "/tmp/sk-gate-conf-XXXXXX";
	struct sk_gate_thresholds t;
	char *env = NULL;
	size_t i;
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (i = 0; bad[i]; i++) {
		f = fopen(path, "w");
		fprintf(f, "[threshold]\n\t%s\n", bad[i]);
		fclose(f);
		assert_int_equal(sk_gate_config(&t, &env, path), SK_EINVALID);
		assert_non_null(strstr(sk_error_last(), "threshold."));
		assert_null(env);
	}
	f = fopen(path, "w");
	fputs("[threshold]\n\tthroughput = inf\n\talpha = 0.01\n", f);
	fclose(f);
	assert_int_equal(sk_gate_config(&t, &env, path), 0);
	assert_true(isinf(t.throughput_pct) && t.alpha == 0.01);
	free(env);
	unlink(path);
}

static json_t *results_of(const char *log)
{
	struct sk_ktap k;
	json_t *r;

	sk_ktap_parse(&k, log, strlen(log));
	r = sk_kselftest_results(&k);
	sk_ktap_release(&k);
	return r;
}

static const char *status_in(json_t *arr, const char *name)
{
	json_t *o;
	size_t i;

	json_array_foreach(arr, i, o)
		if (!strcmp(json_string_value(json_object_get(o, "name")), name))
			return json_string_value(json_object_get(o, "status"));
	return NULL;
}

static void test_flaky_and_compare(void **state)
{
	json_t *base, *patched, *cmp;

	(void)state;
	base = results_of(
		"TAP version 13\n# selftests: cgroup: test_memcontrol\n"
		"# ok 1 test_memcg_min\n# not ok 2 test_memcg_low\n"
		"# ok 3 test_memcg_max\n# not ok 4 test_memcg_oom\n"
		"not ok 1 selftests: cgroup: test_memcontrol # exit=1\n"
		"# selftests: cgroup: test_memcontrol-retry1\n"
		"# ok 1 test_memcg_min\n# ok 2 test_memcg_low\n"
		"# ok 3 test_memcg_max\n# not ok 4 test_memcg_oom\n"
		"not ok 2 selftests: cgroup: test_memcontrol-retry1 # exit=1\n"
		"1..2\n");
	assert_string_equal(status_in(base, "cgroup/test_memcontrol/test_memcg_low"),
			    "flaky");
	assert_string_equal(status_in(base, "cgroup/test_memcontrol/test_memcg_oom"),
			    "fail");
	assert_null(status_in(base, "cgroup/test_memcontrol-retry1/test_memcg_low"));
	patched = results_of(
		"# selftests: cgroup: test_memcontrol\n"
		"# not ok 1 test_memcg_min\n# ok 2 test_memcg_low\n"
		"# ok 3 test_memcg_max\n# not ok 4 test_memcg_oom\n"
		"# ok 5 test_memcg_new\n"
		"not ok 1 selftests: cgroup: test_memcontrol # exit=1\n"
		"# selftests: cgroup: test_memcontrol-retry1\n"
		"# not ok 1 test_memcg_min\n"
		"not ok 2 selftests: cgroup: test_memcontrol-retry1 # exit=1\n"
		"ok 3 selftests: cgroup: test_kmem\n");
	cmp = sk_kselftest_compare(base, patched);
	assert_int_equal(json_array_size(json_object_get(cmp, "regressions")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(cmp, "regressions"), 0), "name")),
		"cgroup/test_memcontrol/test_memcg_min");
	/*
	 * oom fails in both, and so does its binary: listed once, as the
	 * subtest that says what failed
	 */
	assert_int_equal(json_array_size(json_object_get(cmp, "known_failures")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(cmp, "known_failures"), 0), "name")),
		"cgroup/test_memcontrol/test_memcg_oom");
	assert_int_equal(json_array_size(json_object_get(cmp, "flaky")), 1);
	assert_int_equal(json_array_size(json_object_get(cmp, "new_tests")), 2);
	json_decref(cmp);
	json_decref(base);
	json_decref(patched);
}

/* A size in a subtest's name is what the run measured, not which test. */
static void test_compare_sizes_in_names(void **state)
{
	json_t *base, *patched, *cmp;

	(void)state;
	base = results_of(
		"# selftests: mm: mrelease_test\n"
		"# ok 1 Success reaping a child with 1MB of memory allocations\n"
		"# ok 2 keeps 2 children\n# ok 3 test_v2_MB\n"
		"ok 1 selftests: mm: mrelease_test\n");
	patched = results_of(
		"# selftests: mm: mrelease_test\n"
		"# ok 1 Success reaping a child with 2 MB of memory allocations\n"
		"# ok 2 keeps 3 children\n# ok 3 test_v2_MB\n"
		"ok 1 selftests: mm: mrelease_test\n");
	cmp = sk_kselftest_compare(base, patched);
	/* the size matches across runs; a count is still part of the name */
	assert_int_equal(json_array_size(json_object_get(cmp, "regressions")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(cmp, "regressions"), 0), "name")),
		"mm/mrelease_test/keeps 2 children");
	assert_int_equal(json_array_size(json_object_get(cmp, "new_tests")), 1);
	json_decref(cmp);
	json_decref(base);
	json_decref(patched);
}

static const char *name_in(json_t *cmp, const char *list, size_t i)
{
	return json_string_value(json_object_get(json_array_get(
		json_object_get(cmp, list), i), "name"));
}

/*
 * Three regressions in the first boots; a confirm boot of their binaries
 * keeps the one that fails again with the queue and passes without.
 */
static void test_confirm_boot(void **state)
{
	static const char first_base[] =
		"# selftests: cgroup: test_memcontrol\n"
		"# ok 1 test_memcg_reclaim\n# ok 2 test_memcg_low\n"
		"ok 1 selftests: cgroup: test_memcontrol\n"
		"# selftests: cgroup: test_kmem\n"
		"# ok 1 test_kmem_dead_cgroups\n"
		"ok 2 selftests: cgroup: test_kmem\n";
	static const char first_patched[] =
		"# selftests: cgroup: test_memcontrol\n"
		"# not ok 1 test_memcg_reclaim\n# not ok 2 test_memcg_low\n"
		"not ok 1 selftests: cgroup: test_memcontrol # exit=1\n"
		"# selftests: cgroup: test_kmem\n"
		"# not ok 1 test_kmem_dead_cgroups\n"
		"not ok 2 selftests: cgroup: test_kmem # exit=1\n";
	json_t *base = results_of(first_base), *patched = results_of(first_patched);
	json_t *cbase, *cpatched, *cmp;
	struct sk_strvec bins = { 0 };
	char *why;

	(void)state;
	cmp = sk_kselftest_compare(base, patched);
	assert_int_equal(json_array_size(json_object_get(cmp, "regressions")), 3);
	sk_kselftest_regressed(&bins, cmp);
	assert_int_equal(bins.nr, 2);
	assert_string_equal(bins.items[0], "cgroup/test_memcontrol");
	assert_string_equal(bins.items[1], "cgroup/test_kmem");
	cbase = results_of(
		"# selftests: cgroup: test_memcontrol\n"
		"# ok 1 test_memcg_reclaim\n# ok 2 test_memcg_low\n"
		"ok 1 selftests: cgroup: test_memcontrol\n"
		"# selftests: cgroup: test_kmem\n"
		"# not ok 1 test_kmem_dead_cgroups\n"
		"not ok 2 selftests: cgroup: test_kmem # exit=1\n");
	cpatched = results_of(
		"# selftests: cgroup: test_memcontrol\n"
		"# not ok 1 test_memcg_reclaim\n# ok 2 test_memcg_low\n"
		"not ok 1 selftests: cgroup: test_memcontrol # exit=1\n"
		"# selftests: cgroup: test_kmem\n"
		"# not ok 1 test_kmem_dead_cgroups\n"
		"not ok 2 selftests: cgroup: test_kmem # exit=1\n");
	sk_kselftest_confirm(cmp, cbase, cpatched);
	assert_int_equal(json_array_size(json_object_get(cmp, "regressions")), 1);
	assert_string_equal(name_in(cmp, "regressions", 0),
			    "cgroup/test_memcontrol/test_memcg_reclaim");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		json_array_get(json_object_get(cmp, "regressions"), 0),
		"confirm"), "baseline")), "pass");
	assert_int_equal(json_array_size(json_object_get(cmp, "flaky")), 2);
	assert_string_equal(name_in(cmp, "flaky", 0),
			    "cgroup/test_memcontrol/test_memcg_low");
	assert_string_equal(name_in(cmp, "flaky", 1),
			    "cgroup/test_kmem/test_kmem_dead_cgroups");
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(
		json_object_get(cmp, "flaky"), 1), "reason")), "baseline too"));
	assert_string_equal(sk_kselftest_tally(cmp, &why), "fail");
	assert_string_equal(why, "1 regressions, 0 known failures, 2 flaky, 0 fixed");
	free(why);
	json_decref(cmp);

	/* the baseline reused (no confirm boot of it), the queue passes now */
	cmp = sk_kselftest_compare(base, patched);
	json_decref(cpatched);
	cpatched = results_of(first_base);
	sk_kselftest_confirm(cmp, NULL, cpatched);
	assert_int_equal(json_array_size(json_object_get(cmp, "regressions")), 0);
	assert_null(json_object_get(json_object_get(json_array_get(
		json_object_get(cmp, "flaky"), 0), "confirm"), "baseline"));
	assert_string_equal(sk_kselftest_tally(cmp, &why), "pass");
	free(why);
	json_decref(cmp);

	/* no confirm boot of the queue came back: every regression stands */
	cmp = sk_kselftest_compare(base, patched);
	sk_kselftest_confirm(cmp, cbase, NULL);
	assert_int_equal(json_array_size(json_object_get(cmp, "regressions")), 3);
	assert_int_equal(json_array_size(json_object_get(cmp, "flaky")), 0);
	json_decref(cmp);

	sk_strvec_clear(&bins);
	json_decref(base);
	json_decref(patched);
	json_decref(cbase);
	json_decref(cpatched);
}

/* A console line past the parser's limit is counted and named, not lost. */
static void test_ktap_errors_json(void **state)
{
	struct sk_strbuf log = SK_STRBUF_INIT;
	struct sk_ktap k;
	json_t *e;
	int i;

	(void)state;
	sk_strbuf_adds(&log, "TAP version 13\nok 1 selftests: cgroup: test_core\n");
	sk_ktap_parse(&k, log.buf, log.len);
	assert_null(sk_ktap_errors_json(&k));
	sk_ktap_release(&k);
	for (i = 0; i < 20; i++) {
		sk_strbuf_adds(&log, "# ");
		sk_strbuf_addf(&log, "%0*d\n", SK_KTAP_LINE_MAX + 10, i);
	}
	sk_ktap_parse(&k, log.buf, log.len);
	e = sk_ktap_errors_json(&k);
	assert_non_null(e);
	assert_int_equal(json_integer_value(json_object_get(e, "count")), 20);
	assert_int_equal(json_array_size(json_object_get(e, "first")),
			 SK_KTAP_MAX_ERRORS);
	assert_non_null(strstr(json_string_value(json_array_get(
		json_object_get(e, "first"), 0)), "line 3"));
	json_decref(e);
	sk_ktap_release(&k);
	sk_strbuf_release(&log);
}

static void test_job_script(void **state)
{
	const char *items[] = { "/x/kselftest/cgroup/test_memcontrol",
				"/x/mm/map_populate" };
	struct sk_strvec bins = { items, 2, 2 };
	char *job = sk_kselftest_job("cgroup", &bins, 45, 1);

	(void)state;
	assert_non_null(strstr(job, "run test_memcontrol test_memcontrol cgroup ||\n"
			       "\trun test_memcontrol test_memcontrol-retry1 cgroup\n"));
	assert_non_null(strstr(job, "run map_populate map_populate mm ||"));
	assert_non_null(strstr(job, "# TIMEOUT 45 seconds"));
	/* a skipped binary is not retried */
	assert_non_null(strstr(job, "# SKIP\"; rc=0 ;;"));
	assert_non_null(strstr(job, "selftests: $3: $2"));
	assert_non_null(strstr(job, "echo \"1..$n\""));
	/* the tests' root is ext2 on a second zram device, tmpfs said otherwise */
	assert_non_null(strstr(job, "/sys/class/zram-control/hot_add"));
	assert_non_null(strstr(job, "mount -t ext2 /dev/zram$z $r &&"));
	assert_non_null(strstr(job, "mount -t cgroup2 none $r/sys/fs/cgroup &&"));
	assert_non_null(strstr(job, "chroot $r /bin/sh /stablekit/job chrooted\n"));
	assert_true(strstr(job, "chroot $r /bin/sh") < strstr(job, "n=0\n"));
	assert_non_null(strstr(job, "# root on tmpfs"));
	assert_true(strstr(job, "swapon /dev/zram0") <
		    strstr(job, "hot_add"));
	free(job);
}

/* A metric with no threshold is measured and shown, never a pass or a fail. */
static void test_bench_not_gated(void **state)
{
	const long long base[] = { 34700, 34900, 34400, 35000, 34600 };
	const long long more[] = { 37000, 37500, 36800, 37200, 38000 };
	struct sk_gate_thresholds t = { .lock_ratio_pct = INFINITY,
					 .throughput_pct = 10, .alpha = 0.05,
					 .min_runs = 3 };
	struct sk_bench b, p;
	char *lb = bench_log(base, 5, 0, 2500), *lp = bench_log(more, 5, 1, 2500);
	json_t *v, *m;

	(void)state;
	sk_bench_parse(&b, lb, strlen(lb));
	sk_bench_parse(&p, lp, strlen(lp));
	v = sk_bench_compare(&b, &p, &t, counters);
	m = json_object_get(json_object_get(v, "metrics"), "lru_lock_per_1000_scanned");
	assert_string_equal(json_string_value(json_object_get(m, "verdict")), "info");
	assert_true(json_is_false(json_object_get(m, "gated")));
	assert_null(json_object_get(m, "threshold_pct"));
	assert_true(json_is_true(json_object_get(m, "significant")));
	m = json_object_get(json_object_get(v, "metrics"), "throughput_pages_per_s");
	assert_true(json_is_true(json_object_get(m, "gated")));
	assert_non_null(json_object_get(m, "threshold_pct"));
	assert_string_equal(json_string_value(json_object_get(v, "verdict")), "pass");
	json_decref(v);
	sk_bench_release(&b);
	sk_bench_release(&p);
	free(lb);
	free(lp);
}

/* Two sides with no result to compare are "not run", never a pass. */
/* A binary that did not build ran nothing: never a pass over the rest. */
static void test_kselftest_not_built_is_no_pass(void **state)
{
	json_t *none = json_array(), *both, *queue_only;
	json_t *bad = json_string("cgroup/test_kmem");
	const char *hdr = "cgroup/test_kmem: test_kmem.c:18:10: fatal error: "
			  "cgroup_util.h: No such file or directory";
	char *why;

	(void)state;
	both = json_pack("[s]", hdr);
	queue_only = json_pack("[s, s]", "cgroup/test_core: ld: oops", hdr);

	why = sk_xstrdup("0 regressions");
	assert_string_equal(sk_kselftest_not_built(none, none, "pass", &why), "pass");
	assert_string_equal(why, "0 regressions");
	assert_string_equal(sk_kselftest_not_built(NULL, NULL, "pass", &why), "pass");

	/* the same binary on both sides: nothing compared for it */
	assert_string_equal(sk_kselftest_not_built(both, both, "pass", &why),
			    "not run");
	assert_string_equal(why, "not run: 1 kselftest binary did not build on "
			    "the baseline (cgroup/test_kmem: test_kmem.c:18:10: "
			    "fatal error: cgroup_util.h: No such file or "
			    "directory); the rest compared: 0 regressions");
	free(why);

	/* built on the baseline, not with the queue: the queue broke it */
	why = sk_xstrdup("0 regressions");
	assert_string_equal(sk_kselftest_not_built(both, queue_only, "pass", &why),
			    "fail");
	assert_string_equal(why, "builds on the baseline, not with the queue: "
			    "cgroup/test_core: ld: oops");
	free(why);

	/* only the baseline's side: still nothing to compare it with */
	why = sk_xstrdup("0 regressions");
	assert_string_equal(sk_kselftest_not_built(both, none, "pass", &why),
			    "not run");
	free(why);

	/* not a list: unreadable, never a pass */
	why = sk_xstrdup("0 regressions");
	assert_string_equal(sk_kselftest_not_built(none, bad, "pass", &why),
			    "not run");
	assert_string_equal(why, "not run: kselftest.not_built is not a list");
	free(why);

	/* a regression stays the verdict */
	why = sk_xstrdup("1 regressions");
	assert_string_equal(sk_kselftest_not_built(both, both, "fail", &why), "fail");
	assert_string_equal(why, "1 regressions");
	free(why);
	json_decref(none);
	json_decref(both);
	json_decref(queue_only);
	json_decref(bad);
}

/* A stored baseline that did not build every binary is run again. */
static void test_stored_baseline_unbuilt(void **state)
{
	char tmpl[] = "/tmp/sk-stored-XXXXXX";
	char *dir = mkdtemp(tmpl), *f, *why;
	const char *full = "{\"kselftest\": {\"not_built\": [], \"results\": []}}";
	const char *part = "{\"kselftest\": {\"not_built\": "
			   "[\"cgroup/test_kmem: no cgroup_util.h\"]}}";

	(void)state;
	assert_non_null(dir);
	f = sk_path_join(dir, "results.json");
	assert_int_equal(sk_write_file_atomic(f, full, strlen(full)), 0);
	assert_null(sk_kselftest_stored_unbuilt(f));
	assert_int_equal(sk_write_file_atomic(f, part, strlen(part)), 0);
	why = sk_kselftest_stored_unbuilt(f);
	assert_string_equal(why, "the stored baseline did not build 1 kselftest "
			    "binary (cgroup/test_kmem: no cgroup_util.h)");
	free(why);
	assert_int_equal(sk_write_file_atomic(f, "{", 1), 0);
	why = sk_kselftest_stored_unbuilt(f);
	assert_non_null(why);
	assert_non_null(strstr(why, "unreadable"));
	free(why);
	unlink(f);
	free(f);
	rmdir(dir);
}

static void test_kselftest_verdict_needs_results(void **state)
{
	json_t *empty = json_array(), *ok, *skipped, *broken, *cmp;
	char *why;

	(void)state;
	ok = results_of("ok 1 selftests: cgroup: test_core\n");
	skipped = results_of("ok 1 selftests: cgroup: test_core # SKIP\n");
	broken = results_of("not ok 1 selftests: cgroup: test_core # exit=1\n");
	/* the comparison alone says 0 regressions of two empty sets */
	cmp = sk_kselftest_compare(empty, empty);
	assert_int_equal(json_array_size(json_object_get(cmp, "regressions")), 0);
	json_decref(cmp);

	assert_string_equal(sk_kselftest_verdict(empty, empty, &cmp, &why),
			    "not run");
	assert_null(cmp);
	assert_string_equal(why, "not run: baseline: no kselftest result in the console");
	free(why);
	assert_string_equal(sk_kselftest_verdict(ok, empty, &cmp, &why), "not run");
	assert_string_equal(why, "not run: patched: no kselftest result in the console");
	free(why);
	assert_string_equal(sk_kselftest_verdict(NULL, ok, &cmp, &why), "not run");
	assert_string_equal(why, "not run: baseline: no kselftest results");
	free(why);
	assert_string_equal(sk_kselftest_verdict(skipped, skipped, &cmp, &why),
			    "not run");
	assert_string_equal(why, "not run: baseline: every one of 1 kselftests skipped");
	assert_null(cmp);
	free(why);

	assert_string_equal(sk_kselftest_verdict(ok, ok, &cmp, &why), "pass");
	assert_non_null(cmp);
	assert_string_equal(why, "0 regressions, 0 known failures, 0 flaky, 0 fixed");
	json_decref(cmp);
	free(why);
	assert_string_equal(sk_kselftest_verdict(ok, broken, &cmp, &why), "fail");
	assert_string_equal(why, "1 regressions, 0 known failures, 0 flaky, 0 fixed");
	json_decref(cmp);
	free(why);
	json_decref(empty);
	json_decref(ok);
	json_decref(skipped);
	json_decref(broken);
}

/* One `stablekit test` run: a pass needs an ok boot and real results. */
static void test_test_status(void **state)
{
	struct sk_boot_result boot = { 0 };
	json_t *empty = json_array(), *ok, *skipped, *broken;
	char *why;

	(void)state;
	ok = results_of("ok 1 selftests: cgroup: test_core\n");
	skipped = results_of("ok 1 selftests: cgroup: test_core # SKIP\n");
	broken = results_of("not ok 1 selftests: cgroup: test_core # exit=1\n");
	boot.status = SK_BOOT_OK;
	assert_string_equal(sk_test_status(&boot, NULL, 0, &why), "pass");
	assert_null(why);
	assert_string_equal(sk_test_status(&boot, ok, 0, &why), "pass");
	assert_null(why);
	assert_string_equal(sk_test_status(&boot, empty, 0, &why), "not run");
	assert_string_equal(why, "not run: no kselftest result in the console");
	free(why);
	assert_string_equal(sk_test_status(&boot, skipped, 0, &why), "not run");
	free(why);
	assert_string_equal(sk_test_status(&boot, broken, 0, &why), "fail");
	assert_string_equal(why, "1 kselftest failed");
	free(why);
	assert_string_equal(sk_test_status(&boot, ok, 2, &why), "fail");
	assert_string_equal(why, "2 kselftest binaries did not build");
	free(why);
	/* a guest that ran nothing: rc=127 from ci/guest/init */
	boot.status = SK_BOOT_GUEST_FAIL;
	boot.reason = "the guest's job ended with rc=127, not 0 (no /stablekit/job)";
	assert_string_equal(sk_test_status(&boot, NULL, 0, &why), "fail");
	assert_string_equal(why, "boot: the guest's job ended with rc=127, not 0 "
			    "(no /stablekit/job)");
	free(why);
	assert_string_equal(sk_test_status(&boot, ok, 0, &why), "fail");
	free(why);
	json_decref(empty);
	json_decref(ok);
	json_decref(skipped);
	json_decref(broken);
}

/* The guest's /init: no job, or one it cannot run, is never rc=0. */
static void test_guest_init_reports_a_missing_job(void **state)
{
	struct sk_strbuf init = SK_STRBUF_INIT;
	struct sk_guest_opts go = { 0 };
	struct sk_boot_result boot;
	const char *no_job, *not_exec, *run, *done;

	(void)state;
	assert_int_equal(sk_read_file(&init, SK_TEST_TOP "/ci/guest/init"), 0);
	no_job = strstr(init.buf, "[ ! -e /stablekit/job ]");
	not_exec = strstr(init.buf, "[ ! -x /stablekit/job ]");
	run = strstr(init.buf, "\t/stablekit/job\n\trc=$?\n");
	done = strstr(init.buf, "echo \"stablekit-guest: done rc=$rc\"");
	assert_non_null(no_job);
	assert_non_null(strstr(no_job, "rc=127"));
	assert_non_null(not_exec);
	assert_non_null(strstr(not_exec, "rc=126"));
	assert_true(no_job < not_exec && not_exec < run && run < done);
	/* only the probe boot says rc=0 without running a job */
	assert_non_null(strstr(init.buf, "stablekit.probe /proc/cmdline; then\n\trc=0\n"));
	assert_null(strstr(init.buf, "\nrc=0\n"));
	sk_strbuf_release(&init);

	/* and the host never boots a guest without one */
	go.top = SK_TEST_TOP;
	go.kernel = "/nonexistent/bzImage";
	go.workdir = "/nonexistent";
	assert_true(sk_guest_run(&boot, &go) < 0);
	assert_int_equal(boot.status, SK_BOOT_ERROR);
	assert_string_equal(boot.reason, "guest: no job to run");
	sk_boot_result_release(&boot);
}

/*
 * One byte that is not UTF-8 on a "not ok" line: jansson refuses such a
 * name, and the test and its verdict used to vanish, a pass.
 */
static void test_invalid_utf8_fails_not_passes(void **state)
{
	static const char log[] =
		"TAP version 13\n1..2\n"
		"ok 1 cgroup: test_kmem\n"
		"not ok 2 cgroup: test_core \xff broken\n";
	struct sk_boot_result boot = { 0 };
	json_t *r = results_of(log), *o;
	char *why = NULL;
	size_t i, found = 0;

	(void)state;
	assert_int_equal(json_array_size(r), 2);
	json_array_foreach(r, i, o) {
		const char *name = json_string_value(json_object_get(o, "name"));

		assert_non_null(name);
		if (strstr(name, "\xef\xbf\xbd")) {
			assert_string_equal(json_string_value(json_object_get(o,
					    "status")), "fail");
			found++;
		}
	}
	assert_int_equal(found, 1);
	boot.status = SK_BOOT_OK;
	assert_string_equal(sk_test_status(&boot, r, 0, &why), "fail");
	free(why);
	json_decref(r);
}

/* The cgroup helpers beside the tests (6.12) or in lib/ (7.x). */
static void test_kselftest_suite_layouts(void **state)
{
	const struct sk_kselftest_suite *cg = sk_kselftest_suite("cgroup");
	char tmpl[] = "/tmp/sk-ksft-XXXXXX";
	char *dir = mkdtemp(tmpl), *old, *new, *f;
	struct sk_strvec a = { 0 };

	(void)state;
	assert_non_null(cg);
	old = sk_path_join(dir, "6.12");
	new = sk_path_join(dir, "7.2");
	assert_int_equal(sk_mkdir_p(old, 0755), 0);
	f = sk_path_join(old, "cgroup_util.c");
	assert_int_equal(sk_write_file_atomic(f, "", 0), 0);
	free(f);
	f = sk_xstrfmt("%s/lib/include", new);
	assert_int_equal(sk_mkdir_p(f, 0755), 0);
	free(f);
	f = sk_xstrfmt("%s/lib/cgroup_util.c", new);
	assert_int_equal(sk_write_file_atomic(f, "", 0), 0);
	free(f);

	sk_kselftest_suite_args(&a, old, cg);
	assert_int_equal(a.nr, 1);
	assert_string_equal(a.items[0], "cgroup_util.c");
	sk_strvec_clear(&a);

	sk_kselftest_suite_args(&a, new, cg);
	assert_int_equal(a.nr, 2);
	f = sk_xstrfmt("-I%s/lib/include", new);
	assert_string_equal(a.items[0], f);
	free(f);
	assert_string_equal(a.items[1], "lib/cgroup_util.c");
	sk_strvec_clear(&a);
	assert_int_equal(sk_rmrf(dir), 0);
	free(old);
	free(new);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kselftest_suite_layouts),
		cmocka_unit_test(test_kselftest_verdict_needs_results),
		cmocka_unit_test(test_kselftest_not_built_is_no_pass),
		cmocka_unit_test(test_stored_baseline_unbuilt),
		cmocka_unit_test(test_test_status),
		cmocka_unit_test(test_invalid_utf8_fails_not_passes),
		cmocka_unit_test(test_gate_config_thresholds_fail_closed),
		cmocka_unit_test(test_guest_init_reports_a_missing_job),
		cmocka_unit_test(test_bench_parse),
		cmocka_unit_test(test_bench_move),
		cmocka_unit_test(test_bench_verdict),
		cmocka_unit_test(test_bench_not_gated),
		cmocka_unit_test(test_bench_shadow_parse),
		cmocka_unit_test(test_bench_shadow_verdict),
		cmocka_unit_test(test_bench_not_measured_is_no_pass),
		cmocka_unit_test(test_gate_config_bench),
		cmocka_unit_test(test_gate_config),
		cmocka_unit_test(test_flaky_and_compare),
		cmocka_unit_test(test_compare_sizes_in_names),
		cmocka_unit_test(test_confirm_boot),
		cmocka_unit_test(test_ktap_errors_json),
		cmocka_unit_test(test_job_script),
	};

	int ret;

	git_libgit2_init();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return ret;
}
