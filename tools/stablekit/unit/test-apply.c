#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apply.h"
#include "error.h"

/* The shape of the kernel code the seed's hunks meet: two enums, a function. */
static const char base[] =
	"enum lruvec_flags {\n"
	"\tLRUVEC_CGROUP_CONGESTED,\n"
	"\tLRUVEC_NODE_CONGESTED,\n"
	"};\n"
	"\n"
	"enum node_stat_item {\n"
	"\tPGSCAN_ANON,\n"
	"\tPGSCAN_FILE,\n"
	"\tPGREFILL,\n"
	"\tNR_VM_NODE_STAT_ITEMS\n"
	"};\n"
	"\n"
	"static int evict(void)\n"
	"{\n"
	"\tint a = 0;\n"
	"\treturn a;\n"
	"}\n";

static const char diff[] =
	"diff --git a/x.h b/x.h\n"
	"--- a/x.h\n"
	"+++ b/x.h\n"
	"@@ -7,3 +7,4 @@ enum node_stat_item {\n"
	" \tPGSCAN_ANON,\n"
	" \tPGSCAN_FILE,\n"
	"+\tPGROTATE_ANON,\n"
	" \tPGREFILL,\n";

static int run(struct sk_strbuf *out, struct sk_apply_report *rep,
	       const char *old, const char *d, unsigned int flags)
{
	sk_strbuf_reset(out);
	sk_apply_report_release(rep);
	return sk_apply_text(out, rep, "x.h", old, d, flags);
}

static void test_clean(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, base, diff, 0), 0);
	assert_non_null(strstr(out.buf, "\tPGSCAN_FILE,\n\tPGROTATE_ANON,\n\tPGREFILL,\n"));
	assert_int_equal(sk_apply_max_offset(&rep), 0);
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

static void test_offset(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT, moved = SK_STRBUF_INIT, desc = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	sk_strbuf_adds(&moved, "/* one */\n/* two */\n/* three */\n");
	sk_strbuf_adds(&moved, base);
	assert_int_equal(run(&out, &rep, moved.buf, diff, 0), 0);
	assert_int_equal(sk_apply_max_offset(&rep), 3);
	assert_int_equal(sk_apply_max_fuzz(&rep), 0);
	sk_apply_describe(&desc, &rep);
	assert_string_equal(desc.buf, "offset +3 in x.h hunk 1");
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
	sk_strbuf_release(&moved);
	sk_strbuf_release(&desc);
}

static void test_fuzz_only_when_allowed(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
	char *older = sk_xstrdup(base);

	(void)state;
	/* an older tree: the first context line differs */
	memcpy(strstr(older, "PGSCAN_ANON"), "PGSCAN_KSWP", 11);
	assert_int_equal(run(&out, &rep, older, diff, 0), SK_ECONFLICT);
	assert_false(rep.hunks[0].applied);
	assert_non_null(strstr(rep.hunks[0].met, "PGSCAN_KSWP"));
	assert_int_equal(run(&out, &rep, older, diff, SK_APPLY_FUZZ), 0);
	assert_int_equal(sk_apply_max_fuzz(&rep), 1);
	assert_non_null(strstr(out.buf, "\tPGSCAN_FILE,\n\tPGROTATE_ANON,\n"));
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
	free(older);
}

static void test_never_into_another_definition(void **state)
{
	/* the hunk's code only exists inside enum lruvec_flags now */
	static const char other[] =
		"enum lruvec_flags {\n"
		"\tPGSCAN_ANON,\n"
		"\tPGSCAN_FILE,\n"
		"\tPGREFILL,\n"
		"};\n"
		"\n"
		"enum node_stat_item {\n"
		"\tPGSTEAL,\n"
		"\tNR_VM_NODE_STAT_ITEMS\n"
		"};\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, other, diff, SK_APPLY_FUZZ), SK_ECONFLICT);
	assert_false(rep.hunks[0].applied);
	assert_string_equal(rep.hunks[0].funcname, "enum node_stat_item {");
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

static void test_hunks_stay_in_order(void **state)
{
	static const char two[] =
		"diff --git a/x.h b/x.h\n"
		"--- a/x.h\n"
		"+++ b/x.h\n"
		"@@ -2,2 +2,2 @@ enum lruvec_flags {\n"
		"-\tLRUVEC_CGROUP_CONGESTED,\n"
		"+\tLRUVEC_CGROUP_BUSY,\n"
		" \tLRUVEC_NODE_CONGESTED,\n"
		"@@ -15,2 +15,2 @@ static int evict(void)\n"
		"-\tint a = 0;\n"
		"+\tint a = 1;\n"
		" \treturn a;\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, base, two, 0), 0);
	assert_int_equal(rep.nr, 2);
	assert_non_null(strstr(out.buf, "LRUVEC_CGROUP_BUSY"));
	assert_non_null(strstr(out.buf, "int a = 1;"));
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_offset),
		cmocka_unit_test(test_fuzz_only_when_allowed),
		cmocka_unit_test(test_never_into_another_definition),
		cmocka_unit_test(test_hunks_stay_in_order),
	};

	return cmocka_run_group_tests_name("apply", tests, NULL, NULL);
}
