#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "mail/maintainers.h"
#include "core/strbuf.h"

static const char text[] =
	"Preamble text\n"
	"\tM: Maintainer: not an entry (indented)\n"
	"\n"
	"MM\n"
	"M:\tAndrew Morton <akpm@linux-foundation.org>\n"
	"L:\tlinux-mm@kvack.org\n"
	"S:\tMaintained\n"
	"F:\tmm/\n"
	"X:\tmm/secret.c\n"
	"\n"
	"MEMCG\n"
	"M:\tShakeel Butt <shakeel.butt@linux.dev>\n"
	"R:\tMuchun Song <muchun.song@linux.dev>\n"
	"L:\tcgroups@vger.kernel.org\n"
	"F:\tmm/memcontrol*.c\n"
	"\n"
	"COCCI\n"
	"M:\tJulia <julia@inria.fr>\n"
	"N:\t\\.cocci$\n";

static void test_parse_sections(void **state)
{
	struct sk_maintainers m;

	(void)state;
	assert_int_equal(sk_maintainers_parse(&m, "M", text), 0);
	assert_int_equal(m.nr, 3);
	assert_string_equal(m.sections[1].title, "MEMCG");
	assert_int_equal(m.sections[1].entries[0].tag, 'M');
	sk_maintainers_release(&m);
}

static void test_most_specific_is_to(void **state)
{
	struct sk_maintainers m;
	struct sk_recipients r;
	const char *paths[] = { "mm/memcontrol.c" };

	(void)state;
	assert_int_equal(sk_maintainers_parse(&m, "M", text), 0);
	sk_maintainers_recipients(&r, &m, paths, 1);
	assert_int_equal(r.nr_to, 1);
	assert_string_equal(r.to[0], "Shakeel Butt <shakeel.butt@linux.dev>");
	assert_int_equal(r.nr_cc, 4);	/* Muchun, cgroups, akpm, linux-mm */
	sk_recipients_release(&r);
	sk_maintainers_release(&m);
}

static void test_exclusions_and_regex(void **state)
{
	struct sk_maintainers m;

	(void)state;
	assert_int_equal(sk_maintainers_parse(&m, "M", text), 0);
	assert_int_equal(sk_maintainers_score(&m.sections[0], "mm/secret.c"), 0);
	assert_true(sk_maintainers_score(&m.sections[0], "mm/sub/dir.c") > 0);
	assert_int_equal(sk_maintainers_score(&m.sections[1], "mm/sub/memcontrol.c"), 0);
	assert_true(sk_maintainers_score(&m.sections[2], "a/b/rule.cocci") > 0);
	/* compiled once, matched again and again */
	assert_non_null(m.sections[2].entries[1].rx);
	assert_true(sk_maintainers_score(&m.sections[2], "rule.cocci") > 0);
	assert_int_equal(sk_maintainers_score(&m.sections[2], "rule.cocci.c"), 0);
	sk_maintainers_release(&m);
	/* a pattern regcomp refuses matches nothing, as no file is named so */
	assert_int_equal(sk_maintainers_parse(&m, "M", "BAD RE\nM:\tA <a@b>\nN:\t[\n"), 0);
	assert_null(m.sections[0].entries[1].rx);
	assert_int_equal(sk_maintainers_score(&m.sections[0], "["), 0);
	sk_maintainers_release(&m);
}

static void test_entry_outside_section(void **state)
{
	struct sk_maintainers m;

	(void)state;
	assert_int_equal(sk_maintainers_parse(&m, "BAD", "\nF:\tmm/\n"), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "BAD:2:"));
	sk_maintainers_release(&m);
}

/*
 * An N: pattern glibc cannot match in bounded time is refused with its
 * line; the kernel's own kinds of pattern are not.
 */
/* An entry with nothing after its tag names no recipient. */
static void test_empty_entry_is_no_recipient(void **state)
{
	struct sk_maintainers m;
	struct sk_recipients r;
	const char *paths[] = { "mm/vmscan.c" };
	size_t i;

	(void)state;
	assert_int_equal(sk_maintainers_parse(&m, "M",
		"MM\nM:\t\nM:  \t\r\nL:\tlinux-mm@kvack.org \nF:\tmm/\n"), 0);
	assert_int_equal(m.nr, 1);
	assert_int_equal(m.sections[0].nr, 2);
	assert_string_equal(m.sections[0].entries[0].value, "linux-mm@kvack.org");
	sk_maintainers_recipients(&r, &m, paths, 1);
	assert_int_equal(r.nr_to, 0);
	assert_int_equal(r.nr_cc, 1);
	for (i = 0; i < r.nr_cc; i++)
		assert_true(r.cc[i][0] != '\0');
	sk_recipients_release(&r);
	sk_maintainers_release(&m);
}

static void test_regex_blowup_refused(void **state)
{
	static const char *const tame[] = {
		"[^a-z]tegra", "\\bmxc[^\\d]", "^.*/vdso/[^/]*getrandom[^/]+$",
		"bcm[9]?63138", "include/uapi/linux/nl80211-.*",
		"include\\/linux\\/page[-_][a-zA-Z]*", "a{2,3}b", NULL
	};
	static const char *const wild[] = {
		"a++++++++++++++++++++++", "(a+)+", "(a|b*)*x", "a*?", "x{1,2}+",
		NULL
	};
	struct sk_maintainers m;
	size_t i;

	(void)state;
	for (i = 0; tame[i]; i++) {
		char *text = sk_xstrfmt("SEC\nM:\tA <a@b>\nN:\t%s\n", tame[i]);

		assert_int_equal(sk_maintainers_parse(&m, "MAINTAINERS", text), 0);
		sk_maintainers_release(&m);
		free(text);
	}
	for (i = 0; wild[i]; i++) {
		char *text = sk_xstrfmt("SEC\nM:\tA <a@b>\nN:\t%s\n", wild[i]);

		assert_int_equal(sk_maintainers_parse(&m, "MAINTAINERS", text),
				 SK_EINVALID);
		assert_non_null(strstr(sk_error_last(), "MAINTAINERS:3: N: pattern"));
		sk_maintainers_release(&m);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_sections),
		cmocka_unit_test(test_most_specific_is_to),
		cmocka_unit_test(test_exclusions_and_regex),
		cmocka_unit_test(test_regex_blowup_refused),
		cmocka_unit_test(test_empty_entry_is_no_recipient),
		cmocka_unit_test(test_entry_outside_section),
	};

	return cmocka_run_group_tests_name("maintainers", tests, NULL, NULL);
}
