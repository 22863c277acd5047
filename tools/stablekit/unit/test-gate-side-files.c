#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"
#include "gate/bench.h"
#include "gate/bench-results.h"
#include "gate/gate-config.h"
#include "gate/kselftest.h"
#include "gate/kselftest-results.h"

/* The report test's results tree: files as a gate wrote them. */
#define FIXTURE SK_TEST_TOP "/tools/stablekit/t/t8000/results/linux-6.12.y/gate/"

static int setup(void **state)
{
	char *dir = NULL;

	if (sk_mkdtemp_in(&dir, sk_tmp_dir(), "sk-test-gate-side-files"))
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	sk_rmrf(*state);
	free(*state);
	return 0;
}

static json_t *entry(const char *name, const char *status)
{
	return json_pack("{s:s, s:s, s:n}", "name", name, "status", status,
			 "reason");
}

/* What the gate writes: sk_kselftest_compare of two sides, read back. */
static void test_compare_round_trip(void **state)
{
	char *path = sk_path_join(*state, "kselftest-compare.json");
	json_t *base = json_pack("[o, o, o, o]",
				 entry("cgroup:test_core:a", "pass"),
				 entry("cgroup:test_core:b", "fail"),
				 entry("cgroup:test_core:c", "pass"),
				 entry("cgroup:test_core:d", "fail"));
	json_t *patched = json_pack("[o, o, o, o, o]",
				    entry("cgroup:test_core:a", "fail"),
				    entry("cgroup:test_core:b", "fail"),
				    entry("cgroup:test_core:c", "flaky"),
				    entry("cgroup:test_core:d", "pass"),
				    entry("cgroup:test_core:e", "pass"));
	json_t *cmp = sk_kselftest_compare(base, patched);
	struct sk_kselftest_compare c;

	assert_int_equal(sk_kselftest_compare_write(path, cmp), 0);
	assert_int_equal(sk_kselftest_compare_read(&c, path), 0);
	assert_int_equal(c.regressions.nr, 1);
	assert_string_equal(c.regressions.v[0].name, "cgroup:test_core:a");
	assert_string_equal(c.regressions.v[0].baseline, "pass");
	assert_string_equal(c.regressions.v[0].patched, "fail");
	assert_false(c.regressions.v[0].has_confirm);
	assert_int_equal(c.known_failures.nr, 1);
	assert_int_equal(c.flaky.nr, 1);
	assert_int_equal(c.fixed.nr, 1);
	assert_string_equal(c.fixed.v[0].name, "cgroup:test_core:d");
	assert_int_equal(c.nr_new_tests, 1);
	assert_string_equal(c.new_tests[0], "cgroup:test_core:e");
	assert_false(c.has_confirm);
	sk_kselftest_compare_release(&c);
	json_decref(cmp);
	json_decref(base);
	json_decref(patched);
	free(path);
}

/* A key the writer spells as the schema does not: refused, nothing written. */
static void test_write_checks_schema(void **state)
{
	char *path = sk_path_join(*state, "kselftest-compare.json");
	json_t *bad = json_pack("{s:[{s:s, s:i}]}", "regressions", "name", "x",
				"patched", 1);

	assert_int_equal(sk_kselftest_compare_write(path, bad), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(),
			       "key 'regressions[0].patched': expected a string"));
	assert_false(sk_path_exists(path));
	json_decref(bad);
	bad = json_pack("{s:{s:[s, i]}}", "kselftest", "not_built", "a", 2);
	free(path);
	path = sk_path_join(*state, "results.json");
	assert_int_equal(sk_kselftest_run_write(path, bad), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'kselftest.not_built[1]'"));
	assert_false(sk_path_exists(path));
	json_decref(bad);
	free(path);
}

static void test_run_round_trip(void **state)
{
	char *path = sk_path_join(*state, "results.json");
	json_t *o = json_pack("{s:s, s:s, s:s, s:{s:s, s:s, s:f}, s:{s:[o, o],"
			      " s:{s:i, s:i}, s:[s], s:{s:i, s:[s]}}}",
			      "arch", "x86_64", "status", "fail",
			      "log", "/w/console.log",
			      "boot", "status", "ok", "accel", "tcg", "seconds", 12.5,
			      "kselftest", "results",
			      entry("cgroup:test_kmem:x", "pass"),
			      entry("cgroup:test_kmem:y", "fail"),
			      "counts", "pass", 1, "fail", 1,
			      "not_built", "cgroup/test_zswap: no zswap.h",
			      "parse_errors", "count", 3, "first", "bad line");
	struct sk_kselftest_run r;
	json_t *v;

	json_object_set_new(json_array_get(json_object_get(json_object_get(o,
		"kselftest"), "results"), 1), "retries", json_integer(2));
	assert_int_equal(sk_kselftest_run_write(path, o), 0);
	assert_int_equal(sk_kselftest_run_read(&r, path), 0);
	assert_string_equal(r.arch, "x86_64");
	assert_null(r.kernel);
	assert_string_equal(r.status, "fail");
	assert_true(r.has_boot);
	assert_string_equal(r.boot_status, "ok");
	assert_int_equal(r.nr_results, 2);
	assert_true(r.results[1].has_retries && r.results[1].retries == 2);
	assert_false(r.results[0].has_retries);
	assert_int_equal(r.nr_not_built, 1);
	assert_int_equal(r.parse_errors, 3);
	assert_string_equal(r.first_parse_errors[0], "bad line");
	v = sk_kselftest_counts_json(&r);
	assert_true(json_equal(v, json_object_get(json_object_get(o,
					"kselftest"), "counts")));
	json_decref(v);
	v = sk_kselftest_entries_json(&r);
	assert_true(json_equal(v, json_object_get(json_object_get(o,
					"kselftest"), "results")));
	json_decref(v);
	sk_kselftest_run_release(&r);
	json_decref(o);
	free(path);
}

/* The files of a real-shaped gate run read as the schema says. */
static void test_fixture_files(void **state)
{
	struct sk_kselftest_compare c;
	struct sk_kselftest_run r;
	struct sk_bench_results b;
	const struct sk_bench_results_metric *m = NULL;
	size_t i;

	(void)state;
	assert_int_equal(sk_kselftest_compare_read(&c, FIXTURE
				"kselftest-compare.json"), 0);
	assert_int_equal(c.regressions.nr, 0);
	assert_int_equal(c.known_failures.nr, 1);
	assert_string_equal(c.flaky.v[0].patched, "flaky");
	sk_kselftest_compare_release(&c);
	assert_int_equal(sk_kselftest_run_read(&r, FIXTURE
				"kselftest-patched/results.json"), 0);
	assert_true(r.has_counts && r.has_results);
	assert_true(r.nr_results > 0);
	sk_kselftest_run_release(&r);

	assert_int_equal(sk_bench_results_read(&b, FIXTURE "bench-classic.json"), 0);
	assert_string_equal(b.mode, "classic");
	assert_string_equal(b.verdict, "pass");
	assert_int_equal(b.nr_runs[0], 5);
	assert_int_equal(b.nr_runs[1], 5);
	assert_int_equal(b.nr_counters, 4);
	for (i = 0; i < b.nr_metrics; i++)
		if (!strcmp(b.metrics[i].name, "lru_lock_per_1000_scanned"))
			m = &b.metrics[i];
	assert_non_null(m);
	assert_true(m->has_summary && m->has_threshold);
	assert_true(m->threshold_pct == 5);
	assert_true(m->baseline.median == 347.0);
	assert_string_equal(m->verdict, "pass");
	sk_bench_results_release(&b);
}

/* The report's forms of a bench file, read again, say the same. */
static void test_bench_forms_round_trip(void **state)
{
	char *path = sk_path_join(*state, "bench-classic.json");
	struct sk_bench_results a, b;
	json_t *o = json_object(), *metrics = json_object(), *s1, *s2;
	size_t i;

	assert_int_equal(sk_bench_results_read(&a, FIXTURE "bench-classic.json"), 0);
	for (i = 0; i < a.nr_metrics; i++)
		json_object_set_new(metrics, a.metrics[i].name,
				    sk_bench_results_metric_json(&a.metrics[i]));
	json_object_set_new(o, "metrics", metrics);
	json_object_set_new(o, "new_counters", sk_bench_results_counters_json(&a));
	json_object_set_new(o, "runs", sk_bench_results_runs_json(&a));
	json_object_set_new(o, "reasons", sk_bench_results_reasons_json(&a));
	assert_int_equal(sk_bench_results_write(path, o), 0);
	assert_int_equal(sk_bench_results_read(&b, path), 0);
	assert_int_equal(b.nr_metrics, a.nr_metrics);
	assert_int_equal(b.nr_runs[1], a.nr_runs[1]);
	assert_true(b.runs[1][4].lru_lock_per_1000_scanned ==
		    a.runs[1][4].lru_lock_per_1000_scanned);
	assert_int_equal(b.runs[0][0].nr_counters, a.runs[0][0].nr_counters);
	s1 = sk_bench_results_runs_json(&a);
	s2 = sk_bench_results_runs_json(&b);
	assert_true(json_equal(s1, s2));
	json_decref(s1);
	json_decref(s2);
	s1 = sk_bench_results_metric_json(&a.metrics[0]);
	s2 = sk_bench_results_metric_json(&b.metrics[0]);
	assert_true(json_equal(s1, s2));
	json_decref(s1);
	json_decref(s2);
	sk_bench_results_release(&a);
	sk_bench_results_release(&b);
	json_decref(o);
	free(path);
}

/* What sk_bench_compare writes for too few runs reads as the schema. */
static void test_bench_compare_reads(void **state)
{
	static const char log[] =
		"stablekit-bench: lru_gen 0x0007\n"
		"stablekit-bench: begin 1\n"
		"stablekit-bench: usemem usemem: workers=1 size=1 touches=1 "
		"pages=100 elapsed_s=2.0 pages_per_s=50\n"
		"stablekit-bench: vmstat pgscan_anon 1000\n"
		"stablekit-bench: lockstat &lruvec->lru_lock 300 1\n"
		"stablekit-bench: end 1\n";
	struct sk_gate_thresholds t = { .lock_ratio_pct = 5, .throughput_pct = 10,
					 .alpha = 0.05, .min_runs = 3 };
	char *path = sk_path_join(*state, "bench-mglru.json");
	struct sk_bench b, p;
	struct sk_bench_results r;
	json_t *cmp;

	assert_int_equal(sk_bench_parse(&b, log, strlen(log)), 0);
	assert_int_equal(sk_bench_parse(&p, log, strlen(log)), 0);
	cmp = sk_bench_compare(&b, &p, &t, NULL);
	json_object_set_new(cmp, "runs", json_pack("{s:o, s:o}", "baseline",
			    sk_bench_runs_json(&b), "patched", sk_bench_runs_json(&p)));
	assert_int_equal(sk_bench_results_write(path, cmp), 0);
	assert_int_equal(sk_bench_results_read(&r, path), 0);
	assert_string_equal(r.verdict, "not run");
	assert_true(r.has_reasons && r.nr_reasons >= 1);
	assert_int_equal(r.baseline_runs, 1);
	assert_int_equal(r.nr_runs[0], 1);
	assert_int_equal(r.runs[0][0].lru_lock_acquisitions, 300);
	assert_true(r.nr_metrics > 0);
	sk_bench_results_release(&r);
	sk_bench_release(&b);
	sk_bench_release(&p);
	json_decref(cmp);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_compare_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_checks_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixture_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_forms_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_compare_reads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
