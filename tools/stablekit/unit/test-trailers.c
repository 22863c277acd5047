#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "mail/series.h"
#include "mail/trailers.h"
#include "core/strbuf.h"

static void test_fixes_well_formed(void **state)
{
	struct sk_fixes f;

	(void)state;
	assert_int_equal(sk_fixes_parse(&f,
		"7404BD37CFBE (\"mm: workingset: use lruvec_lru_size() to get the number of lru pages\")"), 0);
	assert_string_equal(f.sha, "7404bd37cfbe");
	assert_string_equal(f.subject,
		"mm: workingset: use lruvec_lru_size() to get the number of lru pages");
	sk_fixes_release(&f);
}

/* The stable convention: "# 5.7" names the first release with the bug. */
static void test_fixes_version_comment(void **state)
{
	struct sk_fixes f;

	(void)state;
	/* Sang-Heon Jeon's mm/hugetlb fix, linux-mm 2025 */
	assert_int_equal(sk_fixes_parse(&f,
		"cf11e85fc08c (\"mm: hugetlb: optionally allocate gigantic hugepages using cma\") # 5.7"), 0);
	assert_string_equal(f.sha, "cf11e85fc08c");
	assert_string_equal(f.subject,
		"mm: hugetlb: optionally allocate gigantic hugepages using cma");
	sk_fixes_release(&f);
	assert_int_equal(sk_fixes_parse(&f, "cf11e85fc08c (\"a (b) c\") #v5.7+"), 0);
	assert_string_equal(f.subject, "a (b) c");
	sk_fixes_release(&f);
}

/* git log --pretty=reference: "abbrev (subject, author date)". */
static void test_fixes_reference_style(void **state)
{
	struct sk_fixes f;

	(void)state;
	assert_int_equal(sk_fixes_parse(&f,
		"cf11e85fc08c (mm: hugetlb: optionally allocate gigantic hugepages using cma, 2020-04-10)"), 0);
	assert_string_equal(f.sha, "cf11e85fc08c");
	assert_string_equal(f.subject,
		"mm: hugetlb: optionally allocate gigantic hugepages using cma");
	sk_fixes_release(&f);
	assert_int_equal(sk_fixes_parse(&f,
		"1da177e4c3f4 (Linux-2.6.12-rc2, 2005-04-16)"), 0);
	assert_string_equal(f.subject, "Linux-2.6.12-rc2");
	sk_fixes_release(&f);
	/* no date, or no subject: still not a reference */
	assert_int_equal(sk_fixes_parse(&f, "cf11e85fc08c (mm: hugetlb: x)"), SK_EINVALID);
	sk_fixes_release(&f);
	assert_int_equal(sk_fixes_parse(&f, "cf11e85fc08c (, 2020-04-10)"), SK_EINVALID);
	sk_fixes_release(&f);
	assert_int_equal(sk_fixes_parse(&f, "cf11e85fc08c (x, 2020-4-10)"), SK_EINVALID);
	sk_fixes_release(&f);
}

static void test_fixes_malformed(void **state)
{
	struct sk_fixes f;

	(void)state;
	assert_int_equal(sk_fixes_parse(&f, "and cc:stable as the commit"), SK_EINVALID);
	sk_fixes_release(&f);
	assert_int_equal(sk_fixes_parse(&f, "7404bd37cfbe (\"mm: workingset: use"), SK_EINVALID);
	sk_fixes_release(&f);
	assert_int_equal(sk_fixes_parse(&f, "abc (\"too short\")"), SK_EINVALID);
	sk_fixes_release(&f);
	/* prose after the subject is no "# version" comment */
	assert_int_equal(sk_fixes_parse(&f,
		"7404bd37cfbe (\"mm: x\") and the follow-up"), SK_EINVALID);
	sk_fixes_release(&f);
}

static void test_cc_stable_bounds(void **state)
{
	struct sk_cc_stable c;

	(void)state;
	assert_true(sk_cc_is_stable(&c, "stable@vger.kernel.org"));
	assert_int_equal(c.min_major, 0);
	sk_cc_stable_release(&c);
	assert_true(sk_cc_is_stable(&c, "<stable@vger.kernel.org> # 7.2.x"));
	assert_int_equal(c.min_major, 7);
	assert_int_equal(c.min_minor, 2);
	sk_cc_stable_release(&c);
	assert_true(sk_cc_is_stable(&c, "stable@vger.kernel.org # v6.1+: 1234abcd: foo"));
	assert_int_equal(c.min_major, 6);
	assert_int_equal(c.min_minor, 1);
	sk_cc_stable_release(&c);
	assert_false(sk_cc_is_stable(&c, "<stable+noautosel@kernel.org> # reason"));
	assert_false(sk_cc_is_stable(&c, "linux-mm@kvack.org"));
}

static void test_trailer_block_is_last_paragraph(void **state)
{
	const char msg[] =
		"Subject line body.\n\nFixes: in prose is not a trailer here.\nMore text.\n\n"
		"Fixes: 7404bd37cfbe (\"x\")\n"
		"Cc: stable@vger.kernel.org # 7.1.x\n"
		"Signed-off-by: A <a@b>\n"
		"Link: https://lore.kernel.org/r/1@2\n"
		" continued\n";
	struct sk_trailer *t = NULL;
	size_t nr = 0, alloc = 0;
	size_t cut = sk_trailers_parse(&t, &nr, &alloc, msg);

	(void)state;
	assert_int_equal(nr, 4);
	assert_string_equal(t[0].key, "Fixes");
	assert_string_equal(t[1].value, "stable@vger.kernel.org # 7.1.x");
	assert_string_equal(t[3].value, "https://lore.kernel.org/r/1@2 continued");
	assert_int_equal(strncmp(msg + cut, "Fixes: 7404", 11), 0);
	sk_trailers_free(t, nr);
}

static void test_no_trailer_block(void **state)
{
	const char msg[] = "Just a message.\n\nWith: a colon but prose after\nyes.\n";
	struct sk_trailer *t = NULL;
	size_t nr = 0, alloc = 0;

	(void)state;
	assert_int_equal(sk_trailers_parse(&t, &nr, &alloc, msg), strlen(msg));
	assert_int_equal(nr, 0);
}

/* Keys are what git-config takes as a name: series.conf stores them. */
static void test_keys_git_can_read_back(void **state)
{
	const char msg[] = "Body.\n\nAcked-by: A <a@b>\n1st-by: B <b@c>\n";
	struct sk_trailer *t = NULL;
	size_t nr = 0, alloc = 0;

	(void)state;
	assert_true(sk_trailer_key_valid("Reviewed-by", 11));
	assert_true(sk_trailer_key_valid("X-2", 3));
	assert_false(sk_trailer_key_valid("1st-by", 6));
	assert_false(sk_trailer_key_valid("-by", 3));
	assert_false(sk_trailer_key_valid("Tested_by", 9));
	assert_false(sk_trailer_key_valid("T\xc3\xa9st", 5));
	assert_false(sk_trailer_key_valid("", 0));
	/* the shape of a trailer, but no key series.conf can store */
	sk_trailers_parse(&t, &nr, &alloc, msg);
	assert_int_equal(nr, 2);
	assert_string_equal(t[1].key, "1st-by");
	assert_false(sk_trailer_key_valid(t[1].key, strlen(t[1].key)));
	sk_trailers_free(t, nr);
}

/* Continuation lines join in order, each once (the join is linear). */
static void test_many_continuation_lines(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_trailer *t = NULL;
	size_t nr = 0, alloc = 0;
	int i;

	(void)state;
	sk_strbuf_adds(&sb, "Body.\n\nLink: a\n");
	for (i = 0; i < 20000; i++)
		sk_strbuf_addf(&sb, "  %d\n", i % 10);
	sk_strbuf_adds(&sb, "Acked-by: B\n\tb2\n");
	sk_trailers_parse(&t, &nr, &alloc, sb.buf);
	assert_int_equal(nr, 2);
	assert_int_equal(strlen(t[0].value), 1 + 2 * 20000);
	assert_int_equal(strncmp(t[0].value, "a 0 1 2", 7), 0);
	assert_string_equal(t[1].value, "B b2");
	sk_trailers_free(t, nr);
	sk_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixes_well_formed),
		cmocka_unit_test(test_fixes_version_comment),
		cmocka_unit_test(test_fixes_reference_style),
		cmocka_unit_test(test_fixes_malformed),
		cmocka_unit_test(test_cc_stable_bounds),
		cmocka_unit_test(test_trailer_block_is_last_paragraph),
		cmocka_unit_test(test_no_trailer_block),
		cmocka_unit_test(test_keys_git_can_read_back),
		cmocka_unit_test(test_many_continuation_lines),
	};

	return cmocka_run_group_tests_name("trailers", tests, NULL, NULL);
}
