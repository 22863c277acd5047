#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "build/build-results.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

static int setup(void **state)
{
	char *dir = NULL;

	if (sk_mkdtemp_in(&dir, sk_tmp_dir(), "sk-test-build-results"))
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

static char **strings(size_t nr, ...)
{
	char **v = sk_xcalloc(nr + 1, sizeof(*v));
	va_list ap;
	size_t i;

	va_start(ap, nr);
	for (i = 0; i < nr; i++)
		v[i] = sk_xstrdup(va_arg(ap, const char *));
	va_end(ap);
	return v;
}

static void variant(struct sk_build_results_variant *v, const char *status,
		    long long warnings, const char *image)
{
	v->status = sk_xstrdup(status);
	v->duration = 12.5;
	v->has_duration = 1;
	v->warnings = warnings;
	v->has_warnings = 1;
	v->errors = 0;
	v->has_errors = 1;
	v->results = sk_xstrdup("/r/x86_64/baseline");
	v->image = image ? sk_xstrdup(image) : NULL;
}

/* A build that ran: every key of build.json with a value. */
static void built(struct sk_build_results *r)
{
	struct sk_build_results_arch *a;

	memset(r, 0, sizeof(*r));
	r->branch = sk_xstrdup("linux-6.12.y");
	r->mode = sk_xstrdup("kernel");
	r->buildable = 1;
	r->tip = sk_xstrdup("e1b8bbf3d1bbab47f37cecb16f04ea85326d3792");
	r->describe = sk_xstrdup("v6.12.117");
	r->worktree = sk_xstrdup("/w/linux-6.12.y/src");
	r->worktree_reused = 1;
	r->checkout_s = 0.25;
	r->patches = strings(2, "0001-a.patch", "0002-b.patch");
	r->nr_patches = 2;
	r->files = strings(1, "mm/vmscan.c");
	r->nr_files = 1;
	r->queue_status = sk_xstrdup("applied");
	r->queue_log = sk_xstrdup("Applying patch 0001-a.patch\n");
	r->kconfig = sk_xstrdup("tinyconfig");
	r->fragments = strings(1, "/top/ci/kconfig/gate.config");
	r->nr_fragments = 1;
	r->parallel = 2;
	r->jobs_per_make = 8;
	r->duration = 99.5;
	r->gate = sk_xstrdup("fail");
	r->results = sk_xstrdup("/r");
	r->arches = sk_xcalloc(2, sizeof(*r->arches));
	r->nr_arches = 1;
	a = &r->arches[0];
	a->arch = sk_xstrdup("x86_64");
	a->cc = sk_xstrdup("gcc");
	a->toolchain = sk_xstrdup("gcc (Debian 12.2.0-14) 12.2.0");
	variant(&a->baseline, "pass", 0, "/r/x86_64/baseline/bzImage");
	variant(&a->patched, "pass", 1, NULL);
	a->new_warnings = sk_xcalloc(2, sizeof(*a->new_warnings));
	a->nr_new_warnings = 2;
	a->has_new_warnings = 1;
	a->new_warnings[0].diag.file = sk_xstrdup("mm/vmscan.c");
	a->new_warnings[0].diag.line = 123;
	a->new_warnings[0].diag.column = 5;
	a->new_warnings[0].diag.function = sk_xstrdup("shrink_lruvec");
	a->new_warnings[0].diag.severity = sk_xstrdup("warning");
	a->new_warnings[0].diag.message = sk_xstrdup("unused variable 'x' [-Wunused-variable]");
	a->new_warnings[0].allowed = 1;
	a->new_warnings[1].text = sk_xstrdup("mm/vmscan.c:9:1: warning: y");
	a->gate_failed = 1;
	a->gate_why = sk_xstrdup("1 new warning");
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
	char *path = sk_path_join(*state, "build.json");
	char *again = sk_path_join(*state, "again.json");
	struct sk_build_results in, out;
	const struct sk_build_results_warning *w;
	char *t1, *t2;

	built(&in);
	assert_int_equal(sk_build_results_write(path, &in), 0);
	assert_int_equal(sk_build_results_read(&out, path), 0);
	assert_string_equal(out.branch, "linux-6.12.y");
	assert_string_equal(out.mode, "kernel");
	assert_true(out.buildable);
	assert_null(out.why);
	assert_null(out.not_run);
	assert_string_equal(out.tip, in.tip);
	assert_string_equal(out.describe, "v6.12.117");
	assert_true(out.worktree_reused);
	assert_true(out.checkout_s == 0.25);
	assert_int_equal(out.nr_patches, 2);
	assert_string_equal(out.patches[1], "0002-b.patch");
	assert_int_equal(out.nr_files, 1);
	assert_string_equal(out.queue_status, "applied");
	assert_string_equal(out.queue_log, in.queue_log);
	assert_string_equal(out.kconfig, "tinyconfig");
	assert_int_equal(out.nr_fragments, 1);
	assert_int_equal(out.parallel, 2);
	assert_int_equal(out.jobs_per_make, 8);
	assert_null(out.distcc_hosts);
	assert_true(out.duration == 99.5);
	assert_string_equal(out.gate, "fail");
	assert_string_equal(out.results, "/r");
	assert_int_equal(out.nr_arches, 1);
	assert_non_null(sk_build_results_arch(&out, "x86_64"));
	assert_null(sk_build_results_arch(&out, "arm64"));
	assert_string_equal(out.arches[0].toolchain, in.arches[0].toolchain);
	assert_string_equal(out.arches[0].baseline.image,
			    "/r/x86_64/baseline/bzImage");
	assert_null(out.arches[0].patched.image);
	assert_null(out.arches[0].patched.note);
	assert_int_equal(out.arches[0].patched.warnings, 1);
	assert_true(out.arches[0].patched.has_errors);
	assert_true(out.arches[0].patched.duration == 12.5);
	assert_true(out.arches[0].gate_failed);
	assert_string_equal(out.arches[0].gate_why, "1 new warning");
	assert_int_equal(out.arches[0].nr_new_warnings, 2);
	w = &out.arches[0].new_warnings[0];
	assert_null(w->text);
	assert_string_equal(w->diag.file, "mm/vmscan.c");
	assert_int_equal(w->diag.line, 123);
	assert_int_equal(w->diag.column, 5);
	assert_string_equal(w->diag.function, "shrink_lruvec");
	assert_string_equal(w->diag.message, in.arches[0].new_warnings[0].diag.message);
	assert_true(w->allowed);
	assert_string_equal(out.arches[0].new_warnings[1].text,
			    "mm/vmscan.c:9:1: warning: y");

	assert_int_equal(sk_build_results_write(again, &out), 0);
	t1 = text_of(path);
	t2 = text_of(again);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	sk_build_results_release(&in);
	sk_build_results_release(&out);
	free(again);
	free(path);
}

static int has(json_t *o, const char *key)
{
	return json_object_get(o, key) != NULL;
}

/* Not run and not built: the keys those files have always had, no more. */
static void test_short_shapes(void **state)
{
	char *path = sk_path_join(*state, "build.json");
	struct sk_build_results in = { 0 }, out;
	json_t *o;

	in.branch = sk_xstrdup("linux-6.12.y");
	in.mode = sk_xstrdup("objects");
	in.not_run = sk_xstrdup("not run: the selected series did not port: x");
	o = sk_build_results_to_json(&in);
	assert_int_equal(json_object_size(o), 6);
	assert_string_equal(json_string_value(json_object_get(o, "why")), in.not_run);
	assert_string_equal(json_string_value(json_object_get(o, "gate")), "not run");
	assert_true(json_is_false(json_object_get(o, "buildable")));
	assert_false(has(o, "arches"));
	json_decref(o);
	assert_int_equal(sk_build_results_write(path, &in), 0);
	assert_int_equal(sk_build_results_read(&out, path), 0);
	assert_string_equal(out.not_run, in.not_run);
	assert_false(out.buildable);
	sk_build_results_release(&out);

	free(in.not_run);
	in.not_run = NULL;
	in.why = sk_xstrdup("the tree has no 'Makefile'");
	o = sk_build_results_to_json(&in);
	assert_int_equal(json_object_size(o), 4);
	assert_string_equal(json_string_value(json_object_get(o, "why")), in.why);
	assert_false(has(o, "gate"));
	json_decref(o);
	sk_build_results_release(&in);
	free(path);
}

static void put(const char *path, const char *text)
{
	assert_int_equal(sk_write_file_atomic(path, text, strlen(text)), 0);
}

/* A key of the wrong type: an error naming the file and the key. */
static void test_wrong_type_names_key(void **state)
{
	char *path = sk_path_join(*state, "build.json");
	struct sk_build_results out;

	put(path, "{\"buildable\": true, \"arches\": [{\"arch\": \"x86_64\"},"
	    " {\"arch\": \"i386\", \"baseline\": {\"status\": \"pass\","
	    " \"warnings\": \"2\"}}]}");
	assert_int_equal(sk_build_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), path));
	assert_non_null(strstr(sk_error_last(),
		"key 'arches[1].baseline.warnings': expected an integer, not a string"));
	assert_int_equal(out.nr_arches, 0);	/* released */

	put(path, "{\"buildable\": \"yes\"}");
	assert_int_equal(sk_build_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'buildable': expected a boolean"));

	put(path, "{\"queue\": {\"patches\": [\"a.patch\", 3]}}");
	assert_int_equal(sk_build_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'queue.patches[1]': expected a string"));

	put(path, "{\"arches\": [{\"new_warnings\": [7]}]}");
	assert_int_equal(sk_build_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'arches[0].new_warnings[0]'"));
	free(path);
}

/* No file is "not run"; a file that is no JSON says where. */
static void test_missing_and_unparsable(void **state)
{
	char *path = sk_path_join(*state, "build.json");
	struct sk_build_results out;

	assert_int_equal(sk_build_results_read(&out, path), SK_ENOTFOUND);
	assert_true(!strncmp(sk_error_last(), "not run: no ", 12));
	put(path, "{\n\"buildable\":");
	assert_int_equal(sk_build_results_read(&out, path), SK_EINVALID);
	assert_true(!strncmp(sk_error_last(), "unreadable: ", 12));
	assert_non_null(strstr(sk_error_last(), "build.json:2:"));
	free(path);
}

/* The staging directory's paths, as they are once it is in place. */
static void test_move(void **state)
{
	struct sk_build_results r;

	(void)state;
	built(&r);
	free(r.arches[0].patched.results);
	r.arches[0].patched.results = sk_xstrdup("/res/kernel.tmp/x86_64/patched");
	free(r.arches[0].baseline.image);
	r.arches[0].baseline.image = sk_xstrdup("/res/kernel.tmp");
	free(r.worktree);
	r.worktree = sk_xstrdup("/res/kernel.tmpother/src");
	sk_build_results_move(&r, "/res/kernel.tmp", "/res/kernel");
	assert_string_equal(r.arches[0].patched.results, "/res/kernel/x86_64/patched");
	assert_string_equal(r.arches[0].baseline.image, "/res/kernel");
	assert_string_equal(r.worktree, "/res/kernel.tmpother/src");
	sk_build_results_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_shapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_type_names_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_and_unparsable, setup, teardown),
		cmocka_unit_test(test_move),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
