#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gate/ktap.h"
#include "core/strbuf.h"
#include "core/utf8.h"

static void parse(struct sk_ktap *k, const char *text)
{
	assert_int_equal(sk_ktap_parse(k, text, strlen(text)), 0);
}

static enum sk_ktap_status status_of(const struct sk_ktap *k,
				     const char *name)
{
	const struct sk_ktap_test *t = sk_ktap_find(k, name);

	if (!t)
		fail_msg("no test '%s'", name);
	return t->status;
}

/* What the kselftest runner prints for cgroup, on a serial console. */
static const char runner[] =
	"TAP version 13\r\n"
	"1..2\r\n"
	"# timeout set to 45\r\n"
	"# selftests: cgroup: test_memcontrol\r\n"
	"# TAP version 13\r\n"
	"# 1..4\r\n"
	"# ok 1 test_memcg_subtree_control\r\n"
	"[    3.141592] random: crng init done\r\n"
	"# not ok 2 test_memcg_min\r\n"
	"# ok 3 test_memcg_swap_max_peak # SKIP no swap\r\n"
	"# ok 4 test_memcg_oom_events # XFAIL known\r\n"
	"# # Totals: pass:1 fail:1 xfail:1 xpass:0 skip:1 error:0\r\n"
	"not ok 1 selftests: cgroup: test_memcontrol # exit=1\r\n"
	"# timeout set to 45\r\n"
	"# selftests: cgroup: test_kmem\r\n"
	"not ok 2 selftests: cgroup: test_kmem # TIMEOUT 45 seconds\r\n";

static void test_runner_nesting(void **state)
{
	struct sk_ktap k;
	unsigned int counts[SK_KTAP_NR_STATUS];
	const struct sk_ktap_test *t;

	(void)state;
	parse(&k, runner);
	assert_int_equal(k.version, 13);
	assert_int_equal(k.planned, 2);
	assert_int_equal(k.nr, 6);
	assert_int_equal(status_of(&k, "cgroup/test_memcontrol"), SK_KTAP_FAIL);
	assert_int_equal(status_of(&k,
		"cgroup/test_memcontrol/test_memcg_subtree_control"),
		SK_KTAP_PASS);
	assert_int_equal(status_of(&k, "cgroup/test_memcontrol/test_memcg_min"),
			 SK_KTAP_FAIL);
	t = sk_ktap_find(&k, "cgroup/test_memcontrol/test_memcg_swap_max_peak");
	assert_non_null(t);
	assert_int_equal(t->status, SK_KTAP_SKIP);
	assert_string_equal(t->reason, "SKIP no swap");
	assert_int_equal(t->depth, 1);
	assert_int_equal(status_of(&k,
		"cgroup/test_memcontrol/test_memcg_oom_events"), SK_KTAP_XFAIL);
	t = sk_ktap_find(&k, "cgroup/test_kmem");
	assert_int_equal(t->status, SK_KTAP_TIMEOUT);
	assert_int_equal(t->nr_subtests, 0);
	t = sk_ktap_find(&k, "cgroup/test_memcontrol");
	assert_int_equal(t->nr_subtests, 4);
	assert_string_equal(t->reason, "exit=1");
	assert_string_equal(t->desc, "selftests: cgroup: test_memcontrol");
	assert_int_equal(k.nr_totals, 1);
	assert_int_equal(k.totals.pass, 1);
	assert_int_equal(k.totals.skip, 1);
	assert_int_equal(k.nr_garbage, 1);
	sk_ktap_count(&k, counts);
	assert_int_equal(counts[SK_KTAP_PASS], 1);
	assert_int_equal(counts[SK_KTAP_FAIL], 1);
	assert_int_equal(counts[SK_KTAP_SKIP], 1);
	assert_int_equal(counts[SK_KTAP_XFAIL], 1);
	assert_int_equal(counts[SK_KTAP_TIMEOUT], 1);
	sk_ktap_release(&k);
}

/* KTAP v1 as KUnit prints it: subtests indented by four spaces. */
static const char kunit[] =
	"KTAP version 1\n"
	"1..2\n"
	"    KTAP version 1\n"
	"    # Subtest: list\n"
	"    1..2\n"
	"        KTAP version 1\n"
	"        1..2\n"
	"        ok 1 - param-0\n"
	"        not ok 2 - param-1\n"
	"    not ok 1 - list_test_add # in group\n"
	"    ok 2 - list_test_del\n"
	"not ok 1 - list\n"
	"\tok 1 tab_sub\n"
	"ok 2 tabbed # skip not on this arch\n";

static void test_ktap_indent_nesting(void **state)
{
	struct sk_ktap k;
	const struct sk_ktap_test *t;

	(void)state;
	parse(&k, kunit);
	assert_int_equal(k.version, 1);
	assert_int_equal(k.planned, 2);
	assert_int_equal(k.nr, 7);
	t = sk_ktap_find(&k, "list/list_test_add/param-1");
	assert_non_null(t);
	assert_int_equal(t->depth, 2);
	assert_int_equal(t->status, SK_KTAP_FAIL);
	assert_int_equal(status_of(&k, "list/list_test_add/param-0"),
			 SK_KTAP_PASS);
	t = sk_ktap_find(&k, "list/list_test_add");
	assert_int_equal(t->nr_subtests, 2);
	assert_string_equal(t->reason, "in group");
	assert_int_equal(t->status, SK_KTAP_FAIL);
	assert_int_equal(status_of(&k, "list/list_test_del"), SK_KTAP_PASS);
	assert_int_equal(sk_ktap_find(&k, "list")->nr_subtests, 2);
	assert_int_equal(status_of(&k, "tabbed/tab_sub"), SK_KTAP_PASS);
	assert_int_equal(status_of(&k, "tabbed"), SK_KTAP_SKIP);
	assert_int_equal(k.nr_garbage, 0);
	sk_ktap_release(&k);
}

static void test_garbage_and_missing(void **state)
{
	struct sk_ktap k;
	unsigned int counts[SK_KTAP_NR_STATUS];

	(void)state;
	parse(&k,
	      "SeaBIOS (version 1.16.2-debian-1.16.2-1)\n"
	      "[    0.000000] Linux version 6.12.117\n"
	      "\x1b[2J garbage okay\n"
	      "TAP version 13\n"
	      "1..4\n"
	      "ok one without a number\n"
	      "ok 1 first\n"
	      "[    2.000000] ok 2 kernel log is not a result\n"
	      "not ok\n"
	      "ok 2 - second # TODO later\n"
	      "[    2.5] BUG: kernel NULL pointer dereference\n"
	      "Bail out! guest died\n");
	assert_int_equal(k.planned, 4);
	assert_true(k.bailed_out);
	assert_int_equal(k.nr, 4);
	assert_int_equal(status_of(&k, "first"), SK_KTAP_PASS);
	assert_int_equal(status_of(&k, "second"), SK_KTAP_XFAIL);
	assert_int_equal(status_of(&k, "#3"), SK_KTAP_MISSING);
	assert_int_equal(status_of(&k, "#4"), SK_KTAP_MISSING);
	assert_true(sk_ktap_status_failed(SK_KTAP_MISSING));
	assert_false(sk_ktap_status_failed(SK_KTAP_XFAIL));
	assert_int_equal(k.nr_garbage, 7);
	sk_ktap_count(&k, counts);
	assert_int_equal(counts[SK_KTAP_MISSING], 2);
	sk_ktap_release(&k);
}

static void test_directives(void **state)
{
	struct sk_ktap k;

	(void)state;
	parse(&k,
	      "1..6\n"
	      "ok 1 a # SKIP\n"
	      "not ok 2 b # SKIP not supported\n"
	      "not ok 3 c # TIMEOUT\n"
	      "not ok 4 d # XFAIL\n"
	      "ok 5 #SKIP\n"
	      "ok 6 f # hash in # description\n");
	assert_int_equal(status_of(&k, "a"), SK_KTAP_SKIP);
	assert_int_equal(status_of(&k, "b"), SK_KTAP_SKIP);
	assert_int_equal(status_of(&k, "c"), SK_KTAP_TIMEOUT);
	assert_int_equal(status_of(&k, "d"), SK_KTAP_FAIL);
	assert_int_equal(status_of(&k, "#5"), SK_KTAP_SKIP);
	assert_int_equal(status_of(&k, "f"), SK_KTAP_PASS);
	assert_string_equal(sk_ktap_find(&k, "f")->reason,
			    "hash in # description");
	assert_string_equal(sk_ktap_status_name(SK_KTAP_TIMEOUT), "timeout");
	sk_ktap_release(&k);
	parse(&k, "");
	assert_int_equal(k.nr, 0);
	assert_int_equal(k.planned, -1);
	sk_ktap_release(&k);
	sk_ktap_release(NULL);
}

/* The guest died inside a test binary: its results have no parent. */
static void test_truncated(void **state)
{
	struct sk_ktap k;

	(void)state;
	parse(&k,
	      "TAP version 13\n1..1\n# selftests: cgroup: test_core\n"
	      "# 1..3\n# ok 1 test_cgcore_internal_process_constraint\n"
	      "# ok 2 test_cgcore_top_down_constra");
	assert_int_equal(k.nr, 3);
	assert_int_equal(status_of(&k, "test_cgcore_internal_process_constraint"),
			 SK_KTAP_PASS);
	assert_int_equal(status_of(&k, "#1"), SK_KTAP_MISSING);
	sk_ktap_release(&k);
}

/* A console's CR and NUL bytes are dropped from a line, an empty line is none. */
static void test_cr_and_nul_dropped(void **state)
{
	static const char text[] = "TAP version 13\r\n\n1..1\r\n\r\n"
				   "ok 1 a\0b\r\rc\r\n";
	struct sk_ktap k;

	(void)state;
	assert_int_equal(sk_ktap_parse(&k, text, sizeof(text) - 1), 0);
	assert_int_equal(k.nr, 1);
	assert_string_equal(k.tests[0].name, "abc");
	assert_int_equal(k.tests[0].line, 5);
	assert_int_equal(k.tests[0].status, SK_KTAP_PASS);
	sk_ktap_release(&k);
}

/* The console line: 300,000 "# " prefixes before a result. */
static void test_deep_prefixes_are_a_line_error(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_ktap k;
	int i;

	(void)state;
	sk_strbuf_adds(&sb, "TAP version 13\n1..1\n");
	for (i = 0; i < 300000; i++)
		sk_strbuf_adds(&sb, "# ");
	sk_strbuf_adds(&sb, "ok 1 deep\nok 1 shallow\n");
	assert_int_equal(sk_ktap_parse(&k, sb.buf, sb.len), 0);
	assert_int_equal(k.nr, 1);
	assert_string_equal(k.tests[0].name, "shallow");
	assert_int_equal(k.nr_errors, 1);
	assert_string_equal(k.errors[0], "line 3: longer than 4096 bytes");
	sk_ktap_release(&k);
	sk_strbuf_release(&sb);
}

/* Within the line limit, nesting past SK_KTAP_MAX_DEPTH is an error. */
static void test_depth_limit(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_ktap k;
	int i;

	(void)state;
	for (i = 0; i < SK_KTAP_MAX_DEPTH + 1; i++)
		sk_strbuf_adds(&sb, "\t");
	sk_strbuf_adds(&sb, "ok 1 too deep\n");
	for (i = 0; i < SK_KTAP_MAX_DEPTH; i++)
		sk_strbuf_adds(&sb, "# ");
	sk_strbuf_adds(&sb, "ok 1 deepest\nok 1 top\n");
	assert_int_equal(sk_ktap_parse(&k, sb.buf, sb.len), 0);
	assert_int_equal(k.nr, 2);
	assert_int_equal(k.tests[0].depth, SK_KTAP_MAX_DEPTH);
	assert_int_equal(k.nr_errors, 1);
	assert_string_equal(k.errors[0], "line 1: nested 17 levels deep, more than 16");
	sk_ktap_release(&k);
	sk_strbuf_release(&sb);
}

/* Errors are counted; only the first few are kept. */
static void test_errors_are_bounded(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_ktap k;
	int i;

	(void)state;
	for (i = 0; i < 100; i++)
		sk_strbuf_adds(&sb, "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tok 1 x\n");
	assert_int_equal(sk_ktap_parse(&k, sb.buf, sb.len), 0);
	assert_int_equal(k.nr_errors, 100);
	assert_string_equal(k.errors[SK_KTAP_MAX_ERRORS - 1],
			    "line 16: nested 17 levels deep, more than 16");
	sk_ktap_release(&k);
	sk_strbuf_release(&sb);
}

/* A subtest under a long parent keeps a path of at most NAME_MAX bytes. */
static void test_name_is_cut(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_ktap k;
	int i;

	(void)state;
	for (i = 0; i < SK_KTAP_MAX_DEPTH; i++)
		sk_strbuf_adds(&sb, "\t");
	sk_strbuf_adds(&sb, "ok 1 leaf\n");
	for (i = SK_KTAP_MAX_DEPTH; i-- > 0;) {
		int j;

		for (j = 0; j < i; j++)
			sk_strbuf_addch(&sb, '\t');
		sk_strbuf_adds(&sb, "ok 1 ");
		for (j = 0; j < 100; j++)
			sk_strbuf_addch(&sb, 'a' + i % 26);
		sk_strbuf_addch(&sb, '\n');
	}
	assert_int_equal(sk_ktap_parse(&k, sb.buf, sb.len), 0);
	assert_int_equal(k.nr, SK_KTAP_MAX_DEPTH + 1);
	assert_int_equal(strlen(k.tests[0].name), SK_KTAP_NAME_MAX);
	assert_int_equal(k.tests[0].parent, 1);
	assert_true(k.nr_errors > 0);
	assert_non_null(strstr(k.errors[0], "test name cut at 1024 bytes"));
	sk_ktap_release(&k);
	sk_strbuf_release(&sb);
}

static void test_invalid_utf8_is_read_and_said(void **state)
{
	static const char log[] = "not ok 1 bad \xc3\x28 name\nok 2 good\n";
	struct sk_ktap k;

	(void)state;
	parse(&k, log);
	assert_int_equal(k.nr, 2);
	assert_string_equal(k.tests[0].desc, "bad \xef\xbf\xbd( name");
	assert_int_equal(k.tests[0].status, SK_KTAP_FAIL);
	assert_int_equal(k.nr_errors, 1);
	assert_non_null(strstr(k.errors[0], "line 1: invalid UTF-8"));
	sk_ktap_release(&k);
}

/* A name cut at the limit is never cut inside a character. */
static void test_name_cut_keeps_utf8(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_ktap k;
	int i;

	(void)state;
	sk_strbuf_adds(&sb, "ok 1 a");
	for (i = 0; i < SK_KTAP_NAME_MAX; i++)
		sk_strbuf_adds(&sb, "\xc3\xa9");
	sk_strbuf_addch(&sb, '\n');
	assert_int_equal(sk_ktap_parse(&k, sb.buf, sb.len), 0);
	assert_true(strlen(k.tests[0].name) <= SK_KTAP_NAME_MAX);
	assert_true(sk_utf8_valid(k.tests[0].name, strlen(k.tests[0].name)));
	sk_ktap_release(&k);
	sk_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runner_nesting),
		cmocka_unit_test(test_ktap_indent_nesting),
		cmocka_unit_test(test_garbage_and_missing),
		cmocka_unit_test(test_directives),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_cr_and_nul_dropped),
		cmocka_unit_test(test_deep_prefixes_are_a_line_error),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_errors_are_bounded),
		cmocka_unit_test(test_name_is_cut),
		cmocka_unit_test(test_invalid_utf8_is_read_and_said),
		cmocka_unit_test(test_name_cut_keeps_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
