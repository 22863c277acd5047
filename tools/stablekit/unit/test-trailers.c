#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "error.h"
#include "series.h"
#include "trailers.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixes_well_formed),
		cmocka_unit_test(test_fixes_malformed),
		cmocka_unit_test(test_cc_stable_bounds),
		cmocka_unit_test(test_trailer_block_is_last_paragraph),
		cmocka_unit_test(test_no_trailer_block),
	};

	return cmocka_run_group_tests_name("trailers", tests, NULL, NULL);
}
