#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/options.h"

/* parse "--<name> <value>" against one int option; the value or -1 */
static int parse_int(const struct sk_option *opt, const char *value, int *out)
{
	const char *argv[] = { "cmd", NULL, value, NULL };
	struct sk_option opts[2];
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt->long_name);
	argv[1] = name;
	opts[0] = *opt;
	opts[0].value = out;
	opts[1] = (struct sk_option)SK_OPT_END_();
	return sk_parse_options(3, argv, opts, "cmd");
}

static void test_int_limits(void **state)
{
	const struct sk_option plain = SK_OPT_INT_(0, "n", NULL, "n", "a number");
	int v = 7;

	(void)state;
	assert_int_equal(parse_int(&plain, "2147483647", &v), 0);
	assert_int_equal(v, 2147483647);
	assert_int_equal(parse_int(&plain, "-2147483648", &v), 0);
	assert_int_equal(v, -2147483647 - 1);
	/* past an int: refused, v untouched (it was cast to int before) */
	v = 7;
	assert_int_equal(parse_int(&plain, "2147483648", &v), -1);
	assert_int_equal(parse_int(&plain, "99999999999", &v), -1);
	assert_int_equal(parse_int(&plain, "-2147483649", &v), -1);
	assert_int_equal(parse_int(&plain, "99999999999999999999999", &v), -1);
	assert_int_equal(v, 7);
	assert_int_equal(parse_int(&plain, "12x", &v), -1);
	assert_int_equal(parse_int(&plain, "", &v), -1);
	assert_int_equal(parse_int(&plain, " 3", &v), -1);
	assert_int_equal(v, 7);
}

static void test_range(void **state)
{
	const struct sk_option runs = SK_OPT_RANGE_(0, "runs", NULL, "n", 1, 1000,
						    "runs");
	const struct sk_option secs = SK_OPT_RANGE_(0, "timeout", NULL, "s", 1,
						    SK_OPT_SECONDS_MAX, "limit");
	int v = 5;

	(void)state;
	assert_int_equal(parse_int(&runs, "1", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_int(&runs, "1000", &v), 0);
	assert_int_equal(v, 1000);
	v = 5;
	assert_int_equal(parse_int(&runs, "0", &v), -1);
	assert_int_equal(parse_int(&runs, "-1", &v), -1);
	assert_int_equal(parse_int(&runs, "1001", &v), -1);
	assert_int_equal(parse_int(&runs, "99999999999", &v), -1);
	assert_int_equal(v, 5);
	/* the largest limit whose milliseconds fit an unsigned int */
	assert_int_equal(parse_int(&secs, "4294967", &v), 0);
	assert_true((unsigned long)v * 1000UL <= 0xffffffffUL);
	assert_int_equal(parse_int(&secs, "4294968", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int_limits),
		cmocka_unit_test(test_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
