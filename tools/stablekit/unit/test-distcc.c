#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "project/distcc.h"

static char *hosts(size_t nr, const char *one)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	for (i = 0; i < nr; i++)
		sk_strbuf_addf(&sb, "%s%s", i ? " " : "", one);
	return sk_strbuf_detach(&sb);
}

static void test_hosts_and_slots(void **state)
{
	int slots = 0;

	(void)state;
	assert_int_equal(sk_distcc_hosts_parse("localhost a:3632/8 b,lzo",
					       &slots), 0);
	assert_int_equal(slots, 2 + 8 + 4);
	assert_int_equal(sk_distcc_hosts_parse("@a", &slots), SK_EINVALID);
	assert_int_equal(sk_distcc_hosts_parse("", &slots), SK_EINVALID);
}

/* The most the list may say: 1024 hosts of 1024 jobs, an int. */
static void test_largest_list(void **state)
{
	char *spec = hosts(SK_DISTCC_MAX_HOSTS, "h/1024");
	int slots = 0;

	(void)state;
	assert_int_equal(sk_distcc_hosts_parse(spec, &slots), 0);
	assert_int_equal(slots, 1024 * 1024);
	free(spec);
	spec = hosts(SK_DISTCC_MAX_HOSTS + 1, "h");
	assert_int_equal(sk_distcc_hosts_parse(spec, &slots), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "more than 1024 hosts"));
	free(spec);
}

/*
 * A 14.7 MB line of "a/1024" hosts summed past INT_MAX (2.1 million
 * hosts of 1024 jobs): refused by its length, no sum overflows.
 */
static void test_huge_line_refused(void **state)
{
	char *spec = hosts(2100000, "a/1024");
	int slots = 12345;

	(void)state;
	assert_true(strlen(spec) > 14000000);
	assert_int_equal(sk_distcc_hosts_parse(spec, &slots), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "bytes long, more than 65536"));
	assert_int_equal(slots, 12345);
	free(spec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hosts_and_slots),
		cmocka_unit_test(test_largest_list),
		cmocka_unit_test(test_huge_line_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
