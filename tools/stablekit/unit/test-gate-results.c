#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"
#include "gate/gate-results.h"

static int setup(void **state)
{
	char *dir = NULL;

	if (sk_mkdtemp_in(&dir, sk_tmp_dir(), "sk-test-gate-results"))
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

static char **strings(size_t *nr, size_t n, ...)
{
	char **v = sk_xcalloc(n + 1, sizeof(*v));
	va_list ap;
	size_t i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		v[i] = sk_xstrdup(va_arg(ap, const char *));
	va_end(ap);
	*nr = n;
	return v;
}

/* A gate that ran to the end, two arches, the baseline not reused. */
static void finished(struct sk_gate_results *r)
{
	memset(r, 0, sizeof(*r));
	sk_gate_results_add_stage(r, "queue", "pass", NULL, 0, "x86_64");
	sk_gate_results_add_stage(r, "kselftest", "fail", "1 regressions",
				  160.5, "x86_64");
	sk_gate_results_add_stage(r, "boot-arm64", "not run",
				  "not run: no userland", 0, "arm64");
	r->complete = 1;
	r->branch = sk_xstrdup("linux-6.12.y");
	r->arch = sk_xstrdup("x86_64");
	r->verdict = sk_xstrdup("fail");
	r->reasons = strings(&r->nr_reasons, 2, "kselftest: fail: 1 regressions",
			     "boot-arm64: not run: no userland");
	r->has_reasons = 1;
	r->bench = sk_xstrdup("lrulock");
	r->seconds = 1115.25;
	r->has_seconds = 1;
	r->results = sk_xstrdup("/r/linux-6.12.y/gate");
	r->baseline_why_not = sk_xstrdup("no stored baseline");
	r->baseline_store = sk_xstrdup("/r/linux-6.12.y/gate-baseline/x86_64");
	r->arches = strings(&r->nr_arches, 2, "x86_64", "arm64");
	r->runner = sk_xstrdup("local");
	r->config = sk_xstrdup("/usr/share/stablekit/ci/gate.conf");
	r->config_from = sk_xstrdup("shipped");
	r->graph = sk_xcalloc(3, sizeof(*r->graph));
	r->nr_graph = 2;
	r->graph[0].step = sk_xstrdup("objects");
	r->graph[0].done = 1;
	r->graph[0].seconds = 95;
	r->graph[1].step = sk_xstrdup("kernel x86_64");
	r->graph[1].after = strings(&r->graph[1].nr_after, 1, "objects");
	r->graph[1].seconds = 40.5;
}

static char *text_of(const char *path)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	assert_int_equal(sk_read_file(&sb, path), 0);
	return sk_strbuf_detach(&sb);
}

/* Written, read back and written again: the same struct, the same file. */
static void test_round_trip(void **state)
{
	char *path = sk_path_join(*state, "gate.json");
	char *again = sk_path_join(*state, "again.json");
	struct sk_gate_results in, out;
	const struct sk_gate_results_stage *s;
	char *t1, *t2;

	finished(&in);
	assert_int_equal(sk_gate_results_write(path, &in), 0);
	assert_int_equal(sk_gate_results_read(&out, path), 0);
	assert_true(out.complete);
	assert_string_equal(out.branch, "linux-6.12.y");
	assert_string_equal(out.arch, "x86_64");
	assert_string_equal(out.verdict, "fail");
	assert_int_equal(out.nr_reasons, 2);
	assert_string_equal(out.reasons[1], "boot-arm64: not run: no userland");
	assert_int_equal(out.nr_stages, 3);
	s = sk_gate_results_stage(&out, "kselftest");
	assert_non_null(s);
	assert_string_equal(s->status, "fail");
	assert_string_equal(s->reason, "1 regressions");
	assert_true(s->seconds == 160.5);
	assert_string_equal(s->arch, "x86_64");
	assert_null(sk_gate_results_stage(&out, "queue")->reason);
	assert_null(sk_gate_results_stage(&out, "bench-classic"));
	assert_string_equal(out.bench, "lrulock");
	assert_true(out.has_seconds && out.seconds == 1115.25);
	assert_string_equal(out.results, in.results);
	assert_false(out.baseline_reused);
	assert_string_equal(out.baseline_why_not, "no stored baseline");
	assert_null(out.baseline_tip);
	assert_string_equal(out.baseline_store, in.baseline_store);
	assert_int_equal(out.nr_arches, 2);
	assert_string_equal(out.arches[1], "arm64");
	assert_string_equal(out.runner, "local");
	assert_string_equal(out.config, "/usr/share/stablekit/ci/gate.conf");
	assert_string_equal(out.config_from, "shipped");
	assert_int_equal(out.nr_graph, 2);
	assert_true(out.graph[0].done);
	assert_false(out.graph[1].done);
	assert_int_equal(out.graph[1].nr_after, 1);
	assert_string_equal(out.graph[1].after[0], "objects");
	assert_true(out.graph[1].seconds == 40.5);

	assert_int_equal(sk_gate_results_write(again, &out), 0);
	t1 = text_of(path);
	t2 = text_of(again);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	sk_gate_results_release(&in);
	sk_gate_results_release(&out);
	free(again);
	free(path);
}

/* While the gate runs: branch, arch, verdict, reasons and stages alone. */
static void test_partial(void **state)
{
	char *path = sk_path_join(*state, "gate.json");
	struct sk_gate_results in, out;
	json_t *o;

	finished(&in);
	in.complete = 0;
	o = sk_gate_results_to_json(&in);
	assert_int_equal(json_object_size(o), 5);
	assert_non_null(json_object_get(o, "stages"));
	assert_null(json_object_get(o, "graph"));
	json_decref(o);
	assert_int_equal(sk_gate_results_write(path, &in), 0);
	assert_int_equal(sk_gate_results_read(&out, path), 0);
	assert_false(out.complete);
	assert_false(out.has_seconds);
	assert_int_equal(out.nr_stages, 3);
	sk_gate_results_release(&in);
	sk_gate_results_release(&out);
	free(path);
}

static void put(const char *path, const char *text)
{
	assert_int_equal(sk_write_file_atomic(path, text, strlen(text)), 0);
}

/* A key of the wrong type: an error naming the file and the key. */
static void test_wrong_type_names_key(void **state)
{
	char *path = sk_path_join(*state, "gate.json");
	struct sk_gate_results out;

	put(path, "{\"verdict\": \"pass\", \"stages\": [{\"name\": \"boot\","
	    " \"status\": \"pass\"}, {\"name\": \"kselftest\", \"status\": \"pass\","
	    " \"seconds\": \"160\"}]}");
	assert_int_equal(sk_gate_results_read(&out, path), SK_EINVALID);
	assert_true(!strncmp(sk_error_last(), "unreadable: ", 12));
	assert_non_null(strstr(sk_error_last(), path));
	assert_non_null(strstr(sk_error_last(),
		"key 'stages[1].seconds': expected a number, not a string"));
	assert_int_equal(out.nr_stages, 0);	/* released */

	put(path, "{\"verdict\": [\"pass\"]}");
	assert_int_equal(sk_gate_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'verdict': expected a string, not an array"));

	put(path, "{\"reasons\": [\"a\", {}]}");
	assert_int_equal(sk_gate_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'reasons[1]': expected a string, not an object"));

	put(path, "{\"baseline\": {\"reused\": 1}}");
	assert_int_equal(sk_gate_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'baseline.reused': expected a boolean"));

	put(path, "[]");
	assert_int_equal(sk_gate_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "expected an object, not an array"));
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_type_names_key, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
