#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "track/status-results.h"

/* What `stablekit status --json` prints, every kind of value once. */
static const char status_text[] =
	"{\"repository\": \"/work/linux\","
	" \"branches\": ["
	"  {\"name\": \"linux-7.2.y\", \"ref\": \"refs/heads/linux-7.2.y\","
	"   \"kind\": \"stable\", \"version\": \"7.2\", \"base\": \"v7.2.13\","
	"   \"tip\": \"cc8936ca195d359c4be35863923f579be4f722ff\","
	"   \"arch\": [\"x86_64\", \"arm64\"]},"
	"  {\"name\": \"mainline\", \"ref\": \"refs/heads/master\","
	"   \"kind\": \"mainline\", \"version\": null, \"base\": null,"
	"   \"tip\": null, \"arch\": [],"
	"   \"problem\": \"the embedded workspace has no mainline tree\"}],"
	" \"patches\": [{\"id\": \"shadow:1\", \"series\": \"shadow\","
	"  \"version\": 3, \"nr\": 1, \"subject\": \"mm: redirect stats\","
	"  \"author\": \"Hui Zhu <zhuhui@kylinos.cn>\","
	"  \"upstream\": [{\"commit\": \"0123456789abcdef0123456789abcdef01234567\","
	"   \"subject\": \"mm: redirect stats\", \"match\": \"patch-id\","
	"   \"proof\": \"patch-id\", \"reverted_by\": null}],"
	"  \"similar\": [{\"commit\": \"89abcdef0123456789abcdef0123456789abcdef\","
	"   \"subject\": \"mm: redirect stats\", \"difference\": \"mm/workingset.c: +1 -0\","
	"   \"reverted_by\": \"fedcba9876543210fedcba9876543210fedcba98\"}],"
	"  \"branches\": {"
	"   \"linux-7.2.y\": {\"state\": \"needed\","
	"    \"evidence\": [\"Fixes: 7404bd37cfbe is in the branch\"],"
	"    \"commits\": [], \"deps\": [\"shadow:2\"],"
	"    \"differs_from_upstream\": false,"
	"    \"upstream_by_proxy\": \"linux-7.3.y\"},"
	"   \"mainline\": {\"state\": \"unknown\", \"evidence\": [],"
	"    \"commits\": [], \"deps\": [], \"differs_from_upstream\": true,"
	"    \"upstream_by_proxy\": null}}}],"
	" \"stale\": [{\"branch\": \"linux-7.2.y\", \"series\": \"shadow\","
	"  \"ported\": 2, \"latest\": 3, \"ported_label\": \"v2\","
	"  \"latest_label\": \"v3\"}]}";

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *o = json_loads(text, 0, &e);

	if (!o)
		fail_msg("%s at %d", e.text, e.line);
	return o;
}

/* Read, then write: the same JSON, so the schema holds every key. */
static void test_round_trip(void **state)
{
	struct sk_status_results r;
	json_t *in = parse(status_text), *out;

	assert_int_equal(sk_status_results_from_json(&r, in, "status.json"), 0);
	assert_int_equal(r.nr_branches, 2);
	assert_string_equal(r.branches[1].problem,
			    "the embedded workspace has no mainline tree");
	assert_null(r.branches[1].version);
	assert_string_equal(r.patches[0].cells[0].state, "needed");
	assert_string_equal(r.patches[0].cells[0].deps[0], "shadow:2");
	assert_true(r.patches[0].cells[1].differs_from_upstream);
	assert_string_equal(r.stale.items[0].latest_label, "v3");
	out = sk_status_results_to_json(&r);
	assert_true(json_equal(in, out));
	json_decref(out);
	json_decref(in);
	sk_status_results_release(&r);
}

/* The cells are found by branch, whatever order the object has them in. */
static void test_cells_by_branch(void **state)
{
	struct sk_status_results r;
	json_t *in = parse("{\"branches\": [{\"name\": \"a\"}, {\"name\": \"b\"}],"
			   " \"patches\": [{\"id\": \"s:1\", \"branches\": {"
			   "  \"b\": {\"state\": \"present\"},"
			   "  \"a\": {\"state\": \"needed\"}}}]}");

	assert_int_equal(sk_status_results_from_json(&r, in, "status.json"), 0);
	assert_string_equal(r.patches[0].cells[0].state, "needed");
	assert_string_equal(r.patches[0].cells[1].state, "present");
	assert_int_equal(sk_status_results_branch_index(&r, "b"), 1);
	assert_int_equal(sk_status_results_branch_index(&r, "c"), -1);
	assert_null(sk_status_results_branch(&r, "c"));
	json_decref(in);
	sk_status_results_release(&r);
}

static void expect_error(const char *text, const char *message)
{
	struct sk_status_results r;
	json_t *in = parse(text);

	assert_int_equal(sk_status_results_from_json(&r, in, "status.json"),
			 SK_EINVALID);
	if (!strstr(sk_error_last(), message))
		fail_msg("'%s' lacks '%s'", sk_error_last(), message);
	sk_error_clear();
	json_decref(in);
	sk_status_results_release(&r);
}

static void test_wrong_type_named(void **state)
{
	expect_error("{\"branches\": [{\"name\": \"a\"}], \"patches\": [{\"id\": \"s:1\","
		     " \"branches\": {\"a\": {\"state\": \"needed\","
		     " \"evidence\": \"Fixes: in the branch\"}}}]}",
		     "status.json: key 'patches[0].branches.a.evidence'");
	expect_error("{\"branches\": [{\"name\": \"a\", \"arch\": \"x86_64\"}]}",
		     "status.json: key 'branches[0].arch'");
	expect_error("{\"branches\": [], \"stale\": [{\"ported\": \"v2\"}]}",
		     "status.json: key 'stale[0].ported'");
}

static void test_unknown_or_twice_listed_branch(void **state)
{
	expect_error("{\"branches\": [{\"name\": \"a\"}], \"patches\": [{\"id\": \"s:1\","
		     " \"branches\": {\"b\": {\"state\": \"needed\"}}}]}",
		     "status.json: key 'patches[0].branches.b': not one of the branches listed");
	expect_error("{\"branches\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}",
		     "status.json: key 'branches[1]': branch 'a' is listed twice");
	expect_error("{\"branches\": [{\"kind\": \"stable\"}]}",
		     "status.json: key 'branches[0]': a branch has no name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_cells_by_branch),
		cmocka_unit_test(test_wrong_type_named),
		cmocka_unit_test(test_unknown_or_twice_listed_branch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
