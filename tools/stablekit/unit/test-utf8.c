#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/json.h"
#include "core/strbuf.h"
#include "core/utf8.h"

static int valid(const char *s)
{
	return sk_utf8_valid(s, strlen(s));
}

/* The sequences jansson refuses are the ones refused here. */
static void test_valid_as_jansson(void **state)
{
	static const char *const cases[] = {
		"plain", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
		"\xff", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xc3", "\xe2\x82", "\x80", NULL
	};
	size_t i;

	(void)state;
	for (i = 0; cases[i]; i++) {
		json_t *j = json_string(cases[i]);

		assert_int_equal(valid(cases[i]), j != NULL);
		json_decref(j);
	}
}

static void test_scrub(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	(void)state;
	assert_int_equal(sk_utf8_scrub(&sb, "a\xff" "b\xc3", 4), 2);
	assert_string_equal(sb.buf, "a\xef\xbf\xbd" "b\xef\xbf\xbd");
	sk_strbuf_release(&sb);
}

static void test_cut(void **state)
{
	(void)state;
	assert_int_equal(sk_utf8_cut("a\xc3\xa9", 2), 1);
	assert_int_equal(sk_utf8_cut("a\xc3\xa9", 3), 3);
	assert_int_equal(sk_utf8_cut("ab", 1), 1);
}

static void test_json_string_never_null(void **state)
{
	json_t *j;

	(void)state;
	j = sk_json_string("not ok \xff");
	assert_non_null(j);
	assert_string_equal(json_string_value(j), "not ok \xef\xbf\xbd");
	json_decref(j);
	j = sk_json_string(NULL);
	assert_true(json_is_null(j));
	json_decref(j);
}

/* A guest's escape sequences reach no terminal: ESC, BEL, CSI, DEL shown. */
static void test_printable(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	(void)state;
	sk_utf8_add_printable(&sb, "a\x1b]0;pwned\x07\x1b[2J\tb\xc2\x9b" "31m"
			      "\x7f\r\xc3\xbc\n");
	assert_string_equal(sb.buf, "a\\x1b]0;pwned\\x07\\x1b[2J\tb\\u009b"
			    "31m\\x7f\\x0d\xc3\xbc\n");
	sk_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_as_jansson),
		cmocka_unit_test(test_scrub),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_printable),
		cmocka_unit_test(test_json_string_never_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
