#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "port/kconfig.h"

/* mm/damon/Kconfig of 6.12, as it is (help texts shortened). */
static const char damon[] =
	"# SPDX-License-Identifier: GPL-2.0-only\n"
	"\n"
	"menu \"Data Access Monitoring\"\n"
	"\n"
	"config DAMON\n"
	"\tbool \"DAMON: Data Access Monitoring Framework\"\n"
	"\thelp\n"
	"\t  This builds a framework that allows kernel subsystems to monitor\n"
	"\t  access frequency of each memory region.\n"
	"\n"
	"\t  depends on nothing: this help line is no attribute\n"
	"\n"
	"config DAMON_KUNIT_TEST\n"
	"\tbool \"Test for damon\" if !KUNIT_ALL_TESTS\n"
	"\tdepends on DAMON && KUNIT=y\n"
	"\tdefault KUNIT_ALL_TESTS\n"
	"\n"
	"config DAMON_VADDR\n"
	"\tbool \"Data access monitoring operations for virtual address spaces\"\n"
	"\tdepends on DAMON && MMU\n"
	"\tselect PAGE_IDLE_FLAG\n"
	"\n"
	"config DAMON_VADDR_KUNIT_TEST\n"
	"\tbool \"Test for DAMON operations\" if !KUNIT_ALL_TESTS\n"
	"\tdepends on DAMON_VADDR && KUNIT=y\n"
	"\tdefault KUNIT_ALL_TESTS\n"
	"\n"
	"endmenu\n";

static int has(char *const *v, size_t nr, const char *s)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static void test_kconfig_depends_on_chain(void **state)
{
	struct sk_kconfig *k = sk_kconfig_new();
	char *const *d;
	size_t nr;

	(void)state;
	sk_kconfig_parse(k, damon, strlen(damon));
	d = sk_kconfig_depends(k, "DAMON_VADDR_KUNIT_TEST", &nr);
	assert_int_equal(nr, 2);
	assert_true(has(d, nr, "DAMON_VADDR"));
	assert_true(has(d, nr, "KUNIT"));
	d = sk_kconfig_depends(k, "DAMON_VADDR", &nr);
	assert_int_equal(nr, 2);
	assert_true(has(d, nr, "DAMON") && has(d, nr, "MMU"));
	/* the help text's "depends on" is text, not an attribute */
	sk_kconfig_depends(k, "DAMON", &nr);
	assert_int_equal(nr, 0);
	assert_true(sk_kconfig_defines(k, "DAMON"));
	assert_false(sk_kconfig_defines(k, "KUNIT"));
	sk_kconfig_free(k);
}

static void test_kconfig_blocks(void **state)
{
	static const char text[] =
		"menuconfig CGROUPS\n"
		"\tbool \"Control Group support\"\n"
		"\n"
		"if CGROUPS\n"
		"\n"
		"config MEMCG\n"
		"\tbool \"Memory controller\"\n"
		"\tselect PAGE_COUNTER\n"
		"\n"
		"menu \"Tests\"\n"
		"\tdepends on DEBUG_KERNEL\n"
		"\n"
		"choice\n"
		"\tprompt \"Mode\"\n"
		"\tdepends on MEMCG\n"
		"config MODE_A\n"
		"\tbool \"A\"\n"
		"endchoice\n"
		"\n"
		"endmenu\n"
		"\n"
		"endif # CGROUPS\n"
		"\n"
		"config OUTSIDE\n"
		"\tbool \"not in any block\"\n";
	struct sk_kconfig *k = sk_kconfig_new();
	char *const *d;
	size_t nr;

	(void)state;
	sk_kconfig_parse(k, text, strlen(text));
	d = sk_kconfig_depends(k, "MEMCG", &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(d[0], "CGROUPS");
	d = sk_kconfig_depends(k, "MODE_A", &nr);
	assert_int_equal(nr, 3);
	assert_true(has(d, nr, "CGROUPS") && has(d, nr, "DEBUG_KERNEL") &&
		    has(d, nr, "MEMCG"));
	sk_kconfig_depends(k, "OUTSIDE", &nr);
	assert_int_equal(nr, 0);
	sk_kconfig_free(k);
}

static void test_kconfig_only_what_must_hold(void **state)
{
	static const char text[] =
		"config A\n"
		"\tdepends on X86_64 || COMPILE_TEST\n"
		"config B\n"
		"\tdepends on !PREEMPT_RT && SMP\n"
		"config C\n"
		"\tdepends on NET != n && BLOCK = y && FOO = n && BAR=m\n"
		"config D\n"
		"\tdepends on (PCI && HAS_IOMEM) && \\\n"
		"\t\tUSB\n"
		"config E\n"
		"\tdepends on (X86 || ARM64) && NUMA\n"
		"config F\n"
		"\tdepends on SYSFS\n"
		"config F\n"
		"\tdepends on PROC_FS # a second definition adds its own\n";
	struct sk_kconfig *k = sk_kconfig_new();
	char *const *d;
	size_t nr;

	(void)state;
	sk_kconfig_parse(k, text, strlen(text));
	sk_kconfig_depends(k, "A", &nr);
	assert_int_equal(nr, 0);
	d = sk_kconfig_depends(k, "B", &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(d[0], "SMP");
	d = sk_kconfig_depends(k, "C", &nr);
	assert_int_equal(nr, 3);
	assert_true(has(d, nr, "NET") && has(d, nr, "BLOCK") && has(d, nr, "BAR"));
	d = sk_kconfig_depends(k, "D", &nr);
	assert_int_equal(nr, 3);
	assert_true(has(d, nr, "PCI") && has(d, nr, "HAS_IOMEM") && has(d, nr, "USB"));
	d = sk_kconfig_depends(k, "E", &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(d[0], "NUMA");
	d = sk_kconfig_depends(k, "F", &nr);
	assert_int_equal(nr, 2);
	assert_true(has(d, nr, "SYSFS") && has(d, nr, "PROC_FS"));
	sk_kconfig_free(k);
}

static void test_kconfig_unbalanced_blocks(void **state)
{
	static const char text[] =
		"endif\n"
		"endmenu\n"
		"if A\n"
		"if B\n"
		"config C\n"
		"\tdepends on\n";
	struct sk_kconfig *k = sk_kconfig_new();
	char *const *d;
	size_t nr;

	(void)state;
	sk_kconfig_parse(k, text, strlen(text));
	d = sk_kconfig_depends(k, "C", &nr);
	assert_int_equal(nr, 2);
	assert_true(has(d, nr, "A") && has(d, nr, "B"));
	sk_kconfig_free(k);
}

/*
 * A backslash continues an attribute line (as the kernel's lexer does in
 * parameters), never a line of help text: the next entry stays an entry.
 */
static void test_kconfig_continuation(void **state)
{
	static const char text[] =
		"config A\n"
		"\tdepends on B && \\\n"
		"\t\t   C\n"
		"\thelp\n"
		"\t  Paths look like C:\\\n"
		"config D\n"
		"\tdepends on E\n"
		"config F\n"
		"\tdepends on G && \\\n"
		"config H\n";
	struct sk_kconfig *k = sk_kconfig_new();
	char *const *d;
	size_t nr;

	(void)state;
	sk_kconfig_parse(k, text, strlen(text));
	d = sk_kconfig_depends(k, "A", &nr);
	assert_int_equal(nr, 2);
	assert_true(has(d, nr, "B") && has(d, nr, "C"));
	assert_true(sk_kconfig_defines(k, "D"));
	d = sk_kconfig_depends(k, "D", &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(d[0], "E");
	/* "config H" continues F's depends line: a word of it, no entry */
	assert_false(sk_kconfig_defines(k, "H"));
	sk_kconfig_free(k);
}

/* Hostile nesting: bounded, no deep recursion, nothing required of it. */
static void test_kconfig_deep_parentheses(void **state)
{
	struct sk_kconfig *k = sk_kconfig_new();
	size_t n = 50000, len, i;
	char *text = malloc(2 * n + 64);
	char *const *d;
	size_t nr;

	(void)state;
	assert_non_null(text);
	len = (size_t)sprintf(text, "config DEEP\n\tdepends on SMP && ");
	for (i = 0; i < n; i++)
		text[len++] = '(';
	text[len++] = 'X';
	for (i = 0; i < n; i++)
		text[len++] = ')';
	text[len++] = '\n';
	sk_kconfig_parse(k, text, len);
	d = sk_kconfig_depends(k, "DEEP", &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(d[0], "SMP");
	free(text);
	sk_kconfig_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kconfig_depends_on_chain),
		cmocka_unit_test(test_kconfig_blocks),
		cmocka_unit_test(test_kconfig_only_what_must_hold),
		cmocka_unit_test(test_kconfig_unbalanced_blocks),
		cmocka_unit_test(test_kconfig_continuation),
		cmocka_unit_test(test_kconfig_deep_parentheses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
