#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <time.h>
#include <unistd.h>

#include "port/apply.h"
#include "core/error.h"

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

/*
 * #16.2: a fuzz-1 match on the file's first line used to look for the
 * named function above line 0 ((size_t)c - skip_lead wrapped): a heap
 * over-read and a crash.  Now there is simply nothing above it.
 */
static void test_fuzz_match_on_line_one(void **state)
{
	static const char d[] =
		"--- a/x.h\n"
		"+++ b/x.h\n"
		"@@ -1,5 +1,5 @@ static int f(void)\n"
		" A\n"
		" B\n"
		"-C\n"
		"+D\n"
		" E\n"
		" F\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, "B\nC\nE\nG\n", d, SK_APPLY_FUZZ), SK_ECONFLICT);
	assert_false(rep.hunks[0].applied);
	/* without a function name to keep, fuzz may place it there */
	assert_int_equal(run(&out, &rep, "B\nC\nE\nG\n",
			     "--- a/x.h\n+++ b/x.h\n@@ -1,5 +1,5 @@\n A\n B\n-C\n+D\n E\n F\n",
			     SK_APPLY_FUZZ), 0);
	assert_string_equal(out.buf, "B\nD\nE\nG\n");
	assert_int_equal(rep.hunks[0].got_line, 1);
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/* A function as 6.12 has it, and as an older tree has it (3 lines differ). */
static const char evict_new[] =
	"static int reclaim(int n)\n"
	"{\n"
	"\tint a = 0;\n"
	"\tint b = 1;\n"
	"\tint c = 2;\n"
	"\n"
	"\ta += n;\n"
	"\treturn a;\n"
	"}\n"
	"\n"
	"static int evict(int n)\n"
	"{\n"
	"\tint a = 0;\n"
	"\tint b = 1;\n"
	"\tint c = 3;\n"
	"\n"
	"\ta += n;\n"
	"\treturn a;\n"
	"}\n";

static const char evict_diff[] =
	"--- a/x.c\n"
	"+++ b/x.c\n"
	"@@ -13,6 +13,6 @@ static int evict(int n)\n"
	" \tint a = 1;\n"
	" \tint b = 2;\n"
	" \tint c = 3;\n"
	"-\ta += n;\n"
	"+\ta += 2 * n;\n"
	" \treturn a;\n"
	" }\n";

/* #29: fuzz 2 in the function upstream changes, the only such place */
static void test_fuzz3_in_the_same_function(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
	char *tree = sk_xstrdup(evict_new);

	(void)state;
	/* the older tree lacks the blank line before "a += n" */
	memmove(strstr(strstr(tree, "evict"), "\n\n") + 1,
		strstr(strstr(tree, "evict"), "\n\n") + 2,
		strlen(strstr(strstr(tree, "evict"), "\n\n") + 2) + 1);
	assert_int_equal(run(&out, &rep, tree, evict_diff, SK_APPLY_FUZZ), SK_ECONFLICT);
	assert_int_equal(run(&out, &rep, tree, evict_diff, SK_APPLY_FUZZ3), 0);
	assert_int_equal(rep.hunks[0].fuzz, 2);
	assert_string_equal(rep.hunks[0].scope, "evict");
	assert_non_null(strstr(rep.hunks[0].placed, "fuzz 2"));
	assert_non_null(strstr(rep.hunks[0].placed, "(static int evict(int n))"));
	/* evict's line changed, reclaim's did not */
	assert_non_null(strstr(strstr(out.buf, "evict"), "\ta += 2 * n;\n"));
	assert_null(strstr(out.buf, "a += 2 * n;\n\treturn a;\n}\n\nstatic int evict"));
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
	free(tree);
}

/*
 * #29: the same lines in another function are never taken, as `patch -F3`
 * takes them: here only reclaim() keeps the three-line shape.
 */
static void test_fuzz3_never_into_another_function(void **state)
{
	static const char tree[] =
		"static int reclaim(int n)\n"
		"{\n"
		"\tint a = 1;\n"
		"\tint b = 2;\n"
		"\tint c = 3;\n"
		"\ta += n;\n"
		"\treturn a;\n"
		"}\n"
		"\n"
		"static int evict(int n)\n"
		"{\n"
		"\treturn n;\n"
		"}\n";
	static const char d[] =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,6 +1,6 @@\n"
		" static int evict(int n)\n"
		" {\n"
		" \tint a = 1;\n"
		"-\ta += n;\n"
		"+\ta += 2 * n;\n"
		" \treturn a;\n"
		" }\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, tree, d, SK_APPLY_FUZZ3), SK_ECONFLICT);
	assert_false(rep.hunks[0].applied);
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/* #29: two places in the function match as well: refused, not guessed */
static void test_fuzz3_ambiguous_is_refused(void **state)
{
	static const char tree[] =
		"static int evict(int n)\n"
		"{\n"
		"\tlock();\n"
		"\tn++;\n"
		"\tunlock();\n"
		"\tif (n)\n"
		"\t\tgoto out;\n"
		"\tlock();\n"
		"\tn++;\n"
		"\tunlock();\n"
		"out:\n"
		"\treturn n;\n"
		"}\n";
	static const char d[] =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -3,5 +3,5 @@ static int evict(int n)\n"
		" \tspin_lock();\n"
		" \tlock();\n"
		"-\tn++;\n"
		"+\tn += 2;\n"
		" \tunlock();\n"
		" \tspin_unlock();\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, tree, d, SK_APPLY_FUZZ3), SK_ECONFLICT);
	assert_false(rep.hunks[0].applied);
	assert_int_equal(rep.hunks[0].ambiguous, 2);
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/*
 * #29: git's @@ text names a one-line function that ends above the hunk;
 * the hunk is at the top level, where the target has it too (after
 * another line git would name): placed, not "another function".
 */
static void test_oneliner_at_line_is_top_level(void **state)
{
	static const char tree[] =
		"static inline bool on(void) { return true; }\n"
		"static DEFINE_MUTEX(lock);\n"
		"\n"
		"#ifdef CONFIG_X\n"
		"#endif\n"
		"\n"
		"static int evict(void)\n"
		"{\n"
		"\treturn 0;\n"
		"}\n";
	static const char d[] =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -1,6 +1,7 @@ static inline bool on(void) { return true; }\n"
		" \n"
		" #ifdef CONFIG_Y\n"
		" #endif\n"
		"+int evict_count;\n"
		" \n"
		" static int evict(void)\n"
		" {\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, tree, d, SK_APPLY_FUZZ3), 0);
	assert_true(rep.hunks[0].fuzz >= 1);
	assert_null(rep.hunks[0].scope);
	assert_non_null(strstr(out.buf, "#endif\nint evict_count;\n\nstatic int evict(void)\n"));
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/*
 * #29: the hunk's own lines say which function it changes (helper()); the
 * @@ line names the function before it, which this tree does not have.
 */
static void test_hunk_lines_over_at_text(void **state)
{
	static const char tree[] =
		"static int helper(int x)\n"
		"{\n"
		"\tint y = x;\n"
		"\treturn y;\n"
		"}\n"
		"\n"
		"static int other(void)\n"
		"{\n"
		"\treturn 0;\n"
		"}\n";
	static const char d[] =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -10,7 +10,7 @@ static int before(void)\n"
		" static int helper(int x)\n"
		" {\n"
		" \tint y = x;\n"
		"-\treturn y;\n"
		"+\treturn y + 1;\n"
		" }\n"
		" \n"
		" static int later(void)\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, tree, d, SK_APPLY_FUZZ3), 0);
	assert_string_equal(rep.hunks[0].scope, "helper");
	assert_non_null(strstr(rep.hunks[0].placed, "in helper as upstream"));
	assert_non_null(strstr(out.buf, "\treturn y + 1;\n}\n"));
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/*
 * #29, from mm/ksm's fix (590c03ca6a3f) on 6.12: the hunk's first change
 * rewrites the signature of ksm_vma_flags(), which 6.12 does not have;
 * the @@ line names the function before it.  The hunk is refused, and
 * says it changes ksm_vma_flags(), not that it is at the top level.
 */
static void test_refused_signature_names_its_function(void **state)
{
	static const char tree[] =
		"static int __ksm_del_vma(struct vm_area_struct *vma)\n"
		"{\n"
		"\treturn 0;\n"
		"}\n"
		"\n"
		"void ksm_add_vma(struct vm_area_struct *vma)\n"
		"{\n"
		"\tif (__ksm_should_add_vma(vma->vm_file, vma->vm_flags))\n"
		"\t\t__ksm_add_vma(vma);\n"
		"}\n";
	static const char d[] =
		"--- a/x.c\n"
		"+++ b/x.c\n"
		"@@ -8,8 +8,8 @@ static int __ksm_del_vma(struct vm_area_struct *vma)\n"
		"  * Returns: @vm_flags possibly updated to mark mergeable.\n"
		"  */\n"
		"-vm_flags_t ksm_vma_flags(const struct mm_struct *mm, const struct file *file,\n"
		"+vm_flags_t ksm_vma_flags(struct mm_struct *mm, const struct file *file,\n"
		" \t\t\t vm_flags_t vm_flags)\n"
		" {\n"
		" \tif (mm_flags_test(MMF_VM_MERGE_ANY, mm) &&\n"
		" \t    __ksm_should_add_vma(file, vm_flags))\n"
		" \t\tvm_flags |= VM_MERGEABLE;\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, tree, d, SK_APPLY_FUZZ3), SK_ECONFLICT);
	assert_false(rep.hunks[0].applied);
	assert_string_equal(rep.hunks[0].changes, "ksm_vma_flags");
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/*
 * #29, from mm/userfaultfd's fix (0217c7fb4de4) on 6.12: the function
 * after the new one is renamed upstream, so all three trailing context
 * lines differ while the three leading ones hold; placed like the human
 * backport, after huge_page_shift().
 */
static void test_fuzz3_one_end_renamed(void **state)
{
	static const char tree[] =
		"static inline unsigned huge_page_shift(struct hstate *h)\n"
		"{\n"
		"\treturn h->order + PAGE_SHIFT;\n"
		"}\n"
		"\n"
		"static inline bool hstate_is_gigantic(struct hstate *h)\n"
		"{\n"
		"\treturn huge_page_order(h) > MAX_PAGE_ORDER;\n"
		"}\n";
	static const char d[] =
		"--- a/x.h\n"
		"+++ b/x.h\n"
		"@@ -3,6 +3,7 @@ static inline unsigned huge_page_shift(struct hstate *h)\n"
		" \treturn h->order + PAGE_SHIFT;\n"
		" }\n"
		" \n"
		"+static inline pgoff_t hugetlb_index(void);\n"
		" static inline bool order_is_gigantic(unsigned int order)\n"
		" {\n"
		" \treturn order > MAX_PAGE_ORDER;\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, tree, d, SK_APPLY_FUZZ), SK_ECONFLICT);
	assert_int_equal(run(&out, &rep, tree, d, SK_APPLY_FUZZ3), 0);
	assert_int_equal(rep.hunks[0].fuzz, 3);
	assert_non_null(strstr(rep.hunks[0].placed, "(0 dropped before, 3 after)"));
	assert_non_null(strstr(out.buf, "}\n\nstatic inline pgoff_t hugetlb_index(void);\n"
				   "static inline bool hstate_is_gigantic"));
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/* #16.2: truncated and overflowing headers are refused, not over-read */
static void test_bad_headers(void **state)
{
	static const char *const bad[] = {
		"--- a/x.h\n+++ b/x.h\n@@ -7",
		"--- a/x.h\n+++ b/x.h\n@@ -7,3 +",
		"--- a/x.h\n+++ b/x.h\n@@ -9223372036854775807,3 +9223372036854775807,4 @@\n"
		" \tPGSCAN_ANON,\n \tPGSCAN_FILE,\n+\tPGROTATE_ANON,\n \tPGREFILL,\n",
		"--- a/x.h\n+++ b/x.h\n@@ -9223372036854775806 +1 @@\n-a\n+b\n",
	};
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(run(&out, &rep, base, bad[i], SK_APPLY_FUZZ), SK_EINVALID);
		assert_int_equal(rep.nr, 0);
	}
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/*
 * #16.2: a hunk at line 2,000,000,000 was searched position by position
 * for 23 s.  The search is bounded by the file: a hunk beyond its end is
 * looked for from the end (as git apply does), at once.
 */
static void test_far_hunk_is_fast(void **state)
{
	static const char far[] =
		"--- a/x.h\n"
		"+++ b/x.h\n"
		"@@ -2000000000,3 +2000000000,4 @@ enum node_stat_item {\n"
		" \tPGSCAN_ANON,\n"
		" \tPGSCAN_FILE,\n"
		"+\tPGROTATE_ANON,\n"
		" \tPGREFILL,\n";
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
	struct timespec t0, t1;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run(&out, &rep, base, far, 0), 0);
	assert_int_equal(rep.hunks[0].got_line, 7);
	assert_int_equal(rep.hunks[0].want_line, 2000000000);
	assert_int_equal(run(&out, &rep, "a\nb\n", far, SK_APPLY_FUZZ), SK_ECONFLICT);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 2);
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/* "@@ -2,0 +3 @@" (diff -U0) inserts after line 2, not before it. */
static void test_insert_without_context(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, "a\nb\nc\n",
			     "--- a/x.h\n+++ b/x.h\n@@ -2,0 +3 @@\n+new\n", 0), 0);
	assert_string_equal(out.buf, "a\nb\nnew\nc\n");
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/* A file the target lacks: every hunk of it fails and says why (issue #15). */
static void test_absent_file_reports_its_hunks(void **state)
{
	struct sk_apply_report rep = { 0 };
	char dir[] = "/tmp/test-apply-XXXXXX";
	static const char two[] =
		"--- a/x.h\n+++ b/x.h\n"
		"@@ -7,3 +7,4 @@ enum node_stat_item {\n"
		" \tPGSCAN_ANON,\n \tPGSCAN_FILE,\n+\tPGROTATE_ANON,\n \tPGREFILL,\n"
		"@@ -17,2 +18,3 @@ static int evict(void)\n"
		" \tint a = 0;\n+\ta++;\n \treturn a;\n";

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(sk_apply_dir(&rep, dir, two, SK_APPLY_FUZZ), SK_ECONFLICT);
	assert_int_equal(rep.nr, 2);
	assert_true(rep.hunks[0].absent && rep.hunks[1].absent);
	assert_false(rep.hunks[0].applied || rep.hunks[1].applied);
	assert_int_equal(rep.hunks[1].nr, 2);
	assert_string_equal(rep.hunks[1].funcname, "static int evict(void)");
	assert_string_equal(rep.hunks[0].path, "x.h");
	sk_apply_report_release(&rep);
	rmdir(dir);
}

/* The ksmbd shape: a helper renamed in a context line between the changes. */
static const char link_tree[] =
	"static int create_link(struct work *work)\n"
	"{\n"
	"\tif (rc) {\n"
	"\t\t\trc = -EINVAL;\n"
	"\t\t\tgoto out;\n"
	"\t\t}\n"
	"\t} else {\n"
	"\t\trc = -EEXIST;\n"
	"\t\tgoto out;\n"
	"\t}\n"
	"\tpath_unlock(&parent, &path);\n"
	"\t}\n"
	"\trc = vfs_link(work);\n"
	"out:\n"
	"\treturn rc;\n"
	"}\n";

static const char link_diff[] =
	"--- a/x.h\n"
	"+++ b/x.h\n"
	"@@ -3,11 +3,11 @@ static int create_link(struct work *work)\n"
	" \tif (rc) {\n"
	" \t\t\trc = -EINVAL;\n"
	"-\t\t\tgoto out;\n"
	" \t\t}\n"
	" \t} else {\n"
	" \t\trc = -EEXIST;\n"
	"-\t\tgoto out;\n"
	" \t}\n"
	" \tpath_end_removing(&path);\n"
	"+\tif (rc)\n"
	"+\t\tgoto out;\n"
	" \t}\n"
	" \trc = vfs_link(work);\n";

/* One context line worded otherwise: applied, the tree's wording kept. */
static void test_one_context_line_differs(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	assert_int_equal(run(&out, &rep, link_tree, link_diff, 0), SK_ECONFLICT);
	assert_int_equal(run(&out, &rep, link_tree, link_diff, SK_APPLY_FUZZ), 0);
	assert_non_null(strstr(out.buf, "\t\trc = -EEXIST;\n\t}\n"
			       "\tpath_unlock(&parent, &path);\n"
			       "\tif (rc)\n\t\tgoto out;\n\t}\n"));
	assert_null(strstr(out.buf, "path_end_removing"));
	assert_null(strstr(out.buf, "\t\t\tgoto out;\n"));
	assert_int_equal(sk_apply_max_fuzz(&rep), 1);
	assert_non_null(strstr(rep.hunks[0].placed, "context: line 9 of the hunk reads"));
	assert_string_equal(rep.hunks[0].scope, "create_link");
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
}

/* A line the hunk removes is not there as upstream has it: never applied. */
static void test_removed_line_differs_is_refused(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT, tree = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
	char *p;

	(void)state;
	sk_strbuf_adds(&tree, link_tree);
	p = strstr(tree.buf, "\t\tgoto out;\n\t}\n\tpath_unlock");
	memcpy(p, "\t\tgoto err;", 11);
	assert_int_equal(run(&out, &rep, tree.buf, link_diff, SK_APPLY_FUZZ3),
			 SK_ECONFLICT);
	/* and two context lines worded otherwise are one too many */
	sk_strbuf_reset(&tree);
	sk_strbuf_adds(&tree, link_tree);
	p = strstr(tree.buf, "\t} else {");
	memcpy(p, "\t} elze {", 9);
	assert_int_equal(run(&out, &rep, tree.buf, link_diff, SK_APPLY_FUZZ3),
			 SK_ECONFLICT);
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
	sk_strbuf_release(&tree);
}

/* Two places where the rest matches as well: a refusal, never a guess. */
static void test_context_differs_twice_is_refused(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT, tree = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };

	(void)state;
	sk_strbuf_adds(&tree, link_tree);
	sk_strbuf_adds(&tree, link_tree);
	assert_int_equal(run(&out, &rep, tree.buf, link_diff, SK_APPLY_FUZZ),
			 SK_ECONFLICT);
	assert_int_equal(rep.hunks[0].ambiguous, 2);
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
	sk_strbuf_release(&tree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_offset),
		cmocka_unit_test(test_fuzz_only_when_allowed),
		cmocka_unit_test(test_never_into_another_definition),
		cmocka_unit_test(test_hunks_stay_in_order),
		cmocka_unit_test(test_fuzz_match_on_line_one),
		cmocka_unit_test(test_fuzz3_in_the_same_function),
		cmocka_unit_test(test_fuzz3_never_into_another_function),
		cmocka_unit_test(test_fuzz3_ambiguous_is_refused),
		cmocka_unit_test(test_oneliner_at_line_is_top_level),
		cmocka_unit_test(test_hunk_lines_over_at_text),
		cmocka_unit_test(test_refused_signature_names_its_function),
		cmocka_unit_test(test_fuzz3_one_end_renamed),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_far_hunk_is_fast),
		cmocka_unit_test(test_insert_without_context),
		cmocka_unit_test(test_absent_file_reports_its_hunks),
		cmocka_unit_test(test_one_context_line_differs),
		cmocka_unit_test(test_removed_line_differs_is_refused),
		cmocka_unit_test(test_context_differs_twice_is_refused),
	};

	return cmocka_run_group_tests_name("apply", tests, NULL, NULL);
}
