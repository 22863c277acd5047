#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "track/scan.h"

/* The widest "# X.Y" bound of several Cc: stable lines wins. */
static void test_msg_cc_stable_bounds(void **state)
{
	struct sk_scan_msg m;

	(void)state;
	assert_int_equal(sk_scan_msg_parse(&m,
		"mm: b: fix the leak\n\nFree it.\n\n"
		"Cc: stable@vger.kernel.org # 6.9+\n"
		"Cc: <stable@vger.kernel.org> # 6.1.x\n"
		"Signed-off-by: A <a@example.org>\n"), 0);
	assert_int_equal(m.cc_stable, 1);
	assert_int_equal(m.cc_major, 6);
	assert_int_equal(m.cc_minor, 1);
	sk_scan_msg_release(&m);

	/* an unbounded Cc: stable admits every version */
	assert_int_equal(sk_scan_msg_parse(&m,
		"x\n\nCc: stable@vger.kernel.org # 6.9+\n"
		"Cc: stable@vger.kernel.org\n"), 0);
	assert_int_equal(m.cc_stable, 1);
	assert_int_equal(m.cc_major, 0);
	sk_scan_msg_release(&m);
	assert_int_equal(sk_scan_msg_parse(&m,
		"x\n\nCc: stable@vger.kernel.org\n"
		"Cc: stable@vger.kernel.org # 6.9+\n"), 0);
	assert_int_equal(m.cc_major, 0);
	sk_scan_msg_release(&m);
}

/* The stable rules' way to name a prerequisite: "# 3.3.x: <sha>: subject". */
static void test_msg_cc_stable_prerequisites(void **state)
{
	struct sk_scan_msg m;

	(void)state;
	assert_int_equal(sk_scan_msg_parse(&m,
		"sched: fix\n\n"
		"Cc: <stable@vger.kernel.org> # 3.3.x: a1f84a3: sched: Check for idle\n"
		"Cc: <stable@vger.kernel.org> # 3.3.x: 1B9508F: sched: Rate-limit newidle\n"
		"Cc: <stable@vger.kernel.org> # 3.3.x\n"
		"Cc: <stable@vger.kernel.org> # 3.3.x: fe7de49: sched: Set skip_clock_update\n"
		"Cc: <stable@vger.kernel.org> # 3.4: the one after the fix\n"
		"Cc: <stable@vger.kernel.org> # 3.4: abc\n"), 0);
	assert_int_equal(m.cc_major, 3);
	assert_int_equal(m.cc_minor, 3);
	assert_int_equal(m.nr_needs, 3);
	assert_string_equal(m.needs[0], "a1f84a3");
	assert_string_equal(m.needs[1], "1b9508f");
	assert_string_equal(m.needs[2], "fe7de49");
	sk_scan_msg_release(&m);
}

/* noautosel is an opt-out; a Cc: of another list is no Cc: stable. */
static void test_msg_not_stable(void **state)
{
	struct sk_scan_msg m;

	(void)state;
	assert_int_equal(sk_scan_msg_parse(&m,
		"x\n\nCc: stable+noautosel@kernel.org # racy\n"
		"Cc: linux-mm@kvack.org\n"), 0);
	assert_int_equal(m.cc_stable, 0);
	sk_scan_msg_release(&m);
}

static void test_msg_fixes_and_revert(void **state)
{
	struct sk_scan_msg m;

	(void)state;
	assert_int_equal(sk_scan_msg_parse(&m,
		"Revert \"mm: b: fix the leak\"\n\n"
		"This reverts commit 9c0424c915d257257afc9b0ac52db18589b7aa15.\n\n"
		"Fixes: 1d8ada74314e (\"mm: a: add the pool\")\n"), 0);
	assert_int_equal(m.cc_stable, 0);
	assert_int_equal(m.facts.nr_fixes, 1);
	assert_string_equal(m.facts.fixes[0].sha, "1d8ada74314e");
	assert_string_equal(m.facts.fixes[0].subject, "mm: a: add the pool");
	assert_int_equal(m.facts.nr_uprefs, 1);
	assert_int_equal(m.facts.uprefs[0].kind, SK_UPREF_REVERT);
	assert_string_equal(m.facts.uprefs[0].sha,
			    "9c0424c915d257257afc9b0ac52db18589b7aa15");
	sk_scan_msg_release(&m);
}

/*
 * The earlier change wrote line 20 (its changed span); the later one's
 * hunk, with its context, reads lines 18 to 24 of the same file.
 */
static void test_lines_overlap(void **state)
{
	struct sk_scan_hunk early = { 17, 7, 20, 1 }, late = { 18, 7, 18, 7 };
	struct sk_scan_hunk far = { 30, 7, 30, 7 };
	struct sk_scan_file e = { "mm/a.c", "mm/a.c", &early, 1, 1 };
	struct sk_scan_file l = { "mm/a.c", "mm/a.c", &late, 1, 1 };
	struct sk_scan_file f = { "mm/a.c", "mm/a.c", &far, 1, 1 };
	struct sk_scan_file other = { "mm/b.c", "mm/b.c", &late, 1, 1 };
	struct sk_scan_file added = { NULL, "mm/a.c", &late, 1, 1 };

	(void)state;
	assert_int_equal(sk_scan_lines_overlap(&l, &e), 1);
	assert_int_equal(sk_scan_lines_overlap(&f, &e), 0);
	assert_int_equal(sk_scan_lines_overlap(&other, &e), 0);
	/* a file the later change adds has no lines to share */
	assert_int_equal(sk_scan_lines_overlap(&added, &e), 0);
}

/* Adjacent, not overlapping: [18, 25) and line 25. */
static void test_lines_edges(void **state)
{
	struct sk_scan_hunk early = { 22, 7, 25, 1 }, late = { 18, 7, 18, 7 };
	struct sk_scan_hunk pure_add = { 24, 0, 24, 2 };
	struct sk_scan_file e = { "x.c", "x.c", &early, 1, 1 };
	struct sk_scan_file l = { "x.c", "x.c", &late, 1, 1 };
	struct sk_scan_file a = { "x.c", "x.c", &pure_add, 1, 1 };

	(void)state;
	assert_int_equal(sk_scan_lines_overlap(&l, &e), 0);
	/* an insertion with no context at line 24 still meets line 24 */
	early.new_start = 24;
	assert_int_equal(sk_scan_lines_overlap(&a, &e), 1);
}

static void test_state_names(void **state)
{
	(void)state;
	assert_string_equal(sk_scan_state_name(SK_SCAN_NEW), "new");
	assert_string_equal(sk_scan_state_name(SK_SCAN_PRESENT), "present");
	assert_string_equal(sk_scan_state_name(SK_SCAN_REVERTED_UPSTREAM),
			    "reverted upstream");
	assert_string_equal(sk_scan_state_name(SK_SCAN_REVERTED_HERE),
			    "reverted here");
	assert_string_equal(sk_scan_state_name(SK_SCAN_NR), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msg_cc_stable_bounds),
		cmocka_unit_test(test_msg_cc_stable_prerequisites),
		cmocka_unit_test(test_msg_not_stable),
		cmocka_unit_test(test_msg_fixes_and_revert),
		cmocka_unit_test(test_lines_overlap),
		cmocka_unit_test(test_lines_edges),
		cmocka_unit_test(test_state_names),
	};

	return cmocka_run_group_tests_name("scan", tests, NULL, NULL);
}
