#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/fsutil.h"
#include "report/report.h"
#include "core/results.h"
#include "core/strbuf.h"

/* A results root in a fresh temporary directory. */
static int setup(void **state)
{
	char *dir = NULL;

	if (sk_mkdtemp_in(&dir, "/tmp", "sk-test-report"))
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

static void put(const char *root, const char *file, const char *text)
{
	char *path = sk_xstrfmt("%s/linux-6.12.y/%s", root, file);
	json_error_t err;
	json_t *o = json_loads(text, 0, &err);

	assert_non_null(o);
	assert_int_equal(sk_results_save(path, o), 0);
	json_decref(o);
	free(path);
}

static json_t *report(const char *root)
{
	struct sk_report_opts o = { 0 };
	struct sk_status_results status;
	json_t *in = json_pack("{s:[{s:s, s:s}], s:[]}", "branches", "name",
			       "linux-6.12.y", "kind", "downstream", "patches");
	json_t *r;

	assert_int_equal(sk_status_results_from_json(&status, in, "status"), 0);
	json_decref(in);
	o.status = &status;
	o.top = root;
	o.results = root;
	o.branch = "linux-6.12.y";
	o.tester = "Unit Tester <unit@example.org>";
	r = sk_report_branch(&o);
	sk_status_results_release(&status);
	return r;
}

/* The report of linux-6.12.y with the status given as JSON text. */
static json_t *report_with_status(const char *root, const char *text)
{
	struct sk_report_opts o = { 0 };
	struct sk_status_results status;
	json_t *in = json_loads(text, 0, NULL), *r;

	assert_non_null(in);
	assert_int_equal(sk_status_results_from_json(&status, in, "status"), 0);
	json_decref(in);
	o.status = &status;
	o.top = root;
	o.results = root;
	o.branch = "linux-6.12.y";
	r = sk_report_branch(&o);
	sk_status_results_release(&status);
	return r;
}

/* The tracking column is the branch's cells; the tree and stable@ its facts. */
static void test_tracking_is_the_branch_column(void **state)
{
	json_t *r = report_with_status(*state,
		"{\"branches\": [{\"name\": \"mainline\", \"kind\": \"mainline\"},"
		" {\"name\": \"linux-6.12.y\", \"kind\": \"stable\","
		" \"version\": \"6.12\", \"tip\": \"abc\"}],"
		" \"patches\": [{\"id\": \"s:1\", \"subject\": \"mm: x\","
		" \"branches\": {\"mainline\": {\"state\": \"present\"},"
		" \"linux-6.12.y\": {\"state\": \"needed\","
		" \"evidence\": [\"Cc: stable\"]}}}]}");
	json_t *t = json_object_get(r, "tracking");
	json_t *p = json_array_get(json_object_get(t, "patches"), 0);
	json_t *cc = json_object_get(json_object_get(r, "recipients"), "to");

	assert_string_equal(sk_report_str(t, "status"), "pass");
	assert_string_equal(sk_report_str(p, "state"), "needed");
	assert_string_equal(json_string_value(json_array_get(
				json_object_get(p, "evidence"), 0)), "Cc: stable");
	assert_string_equal(sk_report_str(json_object_get(r, "tree"), "version"),
			    "6.12");
	assert_string_equal(sk_report_str(json_object_get(r, "tree"), "tip"), "abc");
	/* nothing queued, so nobody in To: but stable@ */
	assert_string_equal(json_string_value(json_array_get(cc, 0)),
			    "stable@vger.kernel.org");
	json_decref(r);
}

/* A branch status could not track is "not run" with the reason, never a pass. */
static void test_untracked_branch_not_run(void **state)
{
	json_t *r = report_with_status(*state,
		"{\"branches\": [{\"name\": \"linux-6.12.y\","
		" \"problem\": \"ref refs/heads/linux-6.12.y: not found\"}],"
		" \"patches\": []}");
	json_t *t = json_object_get(r, "tracking");

	assert_string_equal(sk_report_str(t, "status"), "not run");
	assert_string_equal(sk_report_str(t, "reason"),
			    "ref refs/heads/linux-6.12.y: not found");
	json_decref(r);
}

static void put_passing(const char *root)
{
	put(root, "port/a.json", "{\"series\": \"a\", \"queue\": \"stable/linux-6.12.y\","
	    " \"failed\": 0, \"proof\": {\"status\": \"pass\"}, \"patches\": [{\"nr\": 1,"
	    " \"subject\": \"mm: x\", \"method\": \"clean\", \"file\": \"x.patch\"}]}");
	put(root, "build/objects/build.json", "{\"buildable\": true, \"gate\": \"pass\","
	    " \"describe\": \"v6.12.117\", \"queue\": {\"status\": \"applied\"},"
	    " \"arches\": [{\"arch\": \"x86_64\", \"baseline\": {\"status\": \"pass\"},"
	    " \"patched\": {\"status\": \"pass\", \"warnings\": 0}}]}");
	put(root, "gate/gate.json", "{\"verdict\": \"pass\", \"reasons\": [], \"stages\": ["
	    "{\"name\": \"boot\", \"status\": \"pass\"},"
	    "{\"name\": \"kselftest\", \"status\": \"pass\"},"
	    "{\"name\": \"bench-classic\", \"status\": \"pass\"}]}");
}

static void test_nothing_ran_is_incomplete(void **state)
{
	json_t *r = report(*state);

	assert_string_equal(sk_report_str(r, "verdict"), "incomplete");
	assert_true(json_is_null(json_object_get(r, "tested_by")));
	assert_string_equal(sk_report_str(json_object_get(r, "gate"), "status"),
			    "not run");
	assert_non_null(strstr(sk_report_str(json_object_get(r, "gate"), "reason"),
			       "gate/gate.json (stablekit gate)"));
	json_decref(r);
}

static void test_all_passed_is_tested(void **state)
{
	json_t *r;

	put_passing(*state);
	r = report(*state);
	assert_string_equal(sk_report_str(r, "verdict"), "pass");
	assert_string_equal(sk_report_str(r, "tested_by"),
			    "Tested-by: Unit Tester <unit@example.org>");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(r,
			 "backports"), "queued")), 1);
	json_decref(r);
}

static void test_failed_port_fails(void **state)
{
	json_t *r;

	put_passing(*state);
	put(*state, "port/a.json", "{\"series\": \"a\", \"failed\": 1,"
	    " \"proof\": {\"status\": \"pass\"}, \"patches\": [{\"nr\": 1,"
	    " \"subject\": \"mm: x\", \"method\": \"FAILED\"}]}");
	r = report(*state);
	assert_string_equal(sk_report_str(r, "verdict"), "fail");
	assert_true(json_is_null(json_object_get(r, "tested_by")));
	json_decref(r);
}

static void test_unreadable_input_is_named(void **state)
{
	char *path = sk_xstrfmt("%s/linux-6.12.y/gate/gate.json", (char *)*state);
	json_t *r;

	put_passing(*state);
	assert_int_equal(sk_write_file_atomic(path, "{\n\"verdict\":", 12), 0);
	r = report(*state);
	assert_int_equal(json_array_size(json_object_get(r, "input_errors")), 1);
	assert_non_null(strstr(json_string_value(json_array_get(json_object_get(
		r, "input_errors"), 0)), "gate/gate.json:2:"));
	assert_string_not_equal(sk_report_str(r, "verdict"), "pass");
	json_decref(r);
	free(path);
}

/*
 * A key of the wrong type in gate.json or build.json: an input error
 * naming the file and the key, and the section not run, never a pass.
 */
static void test_wrong_type_is_named(void **state)
{
	json_t *r, *errs;

	put_passing(*state);
	put(*state, "gate/gate.json", "{\"verdict\": \"pass\", \"reasons\": [], \"stages\": ["
	    "{\"name\": \"boot\", \"status\": \"pass\"},"
	    "{\"name\": \"kselftest\", \"status\": true},"
	    "{\"name\": \"bench-classic\", \"status\": \"pass\"}]}");
	put(*state, "build/objects/build.json", "{\"buildable\": true, \"gate\": \"pass\","
	    " \"queue\": {\"status\": \"applied\"},"
	    " \"arches\": [{\"arch\": \"x86_64\", \"baseline\": {\"status\": \"pass\"},"
	    " \"patched\": {\"status\": \"pass\", \"warnings\": 0.5}}]}");
	r = report(*state);
	errs = json_object_get(r, "input_errors");
	assert_int_equal(json_array_size(errs), 2);
	/* the gate's is read first */
	assert_non_null(strstr(json_string_value(json_array_get(errs, 0)),
		"gate/gate.json: key 'stages[1].status': expected a string, not a boolean"));
	assert_non_null(strstr(json_string_value(json_array_get(errs, 1)),
		"build/objects/build.json: key 'arches[0].patched.warnings': expected an integer"));
	assert_string_equal(sk_report_str(json_object_get(r, "gate"), "status"),
			    "not run");
	assert_string_equal(sk_report_str(json_array_get(json_object_get(r,
			    "builds"), 0), "status"), "not run");
	assert_string_not_equal(sk_report_str(r, "verdict"), "pass");
	json_decref(r);
}

static void test_html_escapes(void **state)
{
	json_t *r;
	char *html;

	put_passing(*state);
	put(*state, "port/a.json", "{\"series\": \"a\", \"failed\": 0,"
	    " \"proof\": {\"status\": \"pass\"}, \"patches\": [{\"nr\": 1,"
	    " \"subject\": \"<img src=x onerror=alert(1)> & \\\"q\\\"\","
	    " \"method\": \"clean\", \"file\": \"x.patch\"}]}");
	r = report(*state);
	html = sk_report_html(r);
	assert_null(strstr(html, "<img"));
	assert_non_null(strstr(html, "&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;"));
	free(html);
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nothing_ran_is_incomplete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_passed_is_tested, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_port_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_input_is_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_type_is_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tracking_is_the_branch_column, setup, teardown),
		cmocka_unit_test_setup_teardown(test_untracked_branch_not_run, setup, teardown),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
