#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "error.h"
#include "mbox.h"

static void test_qp_soft_breaks_and_escapes(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char in[] = "a=3Db=\nc =C3=BC=\r\nd";

	(void)state;
	assert_int_equal(sk_decode_qp(&sb, in, strlen(in)), 0);
	assert_string_equal(sb.buf, "a=bc \xc3\xbc" "d");
	sk_strbuf_release(&sb);
}

static void test_base64_round_trip(void **state)
{
	const char *samples[] = { "", "f", "fo", "foo", "foob", "fooba", "Hüi Zhü" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		struct sk_strbuf enc = SK_STRBUF_INIT, dec = SK_STRBUF_INIT;

		sk_encode_base64(&enc, samples[i], strlen(samples[i]));
		assert_int_equal(sk_decode_base64(&dec, enc.buf, enc.len), 0);
		assert_string_equal(dec.buf, samples[i]);
		sk_strbuf_release(&enc);
		sk_strbuf_release(&dec);
	}
}

static void test_base64_rejects_garbage(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	(void)state;
	assert_int_equal(sk_decode_base64(&sb, "QUJD@", 5), SK_EINVALID);
	sk_strbuf_release(&sb);
}

static void test_rfc2047_words_join(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	(void)state;
	assert_int_equal(sk_decode_rfc2047(&sb,
		"=?utf-8?q?H=C3=BCi?= =?UTF-8?B?IFpow7w=?= <h@z>"), 0);
	assert_string_equal(sb.buf, "Hüi Zhü <h@z>");
	sk_strbuf_reset(&sb);
	assert_int_equal(sk_decode_rfc2047(&sb, "=?iso-8859-1?q?J=F6rg?= x"), 0);
	assert_string_equal(sb.buf, "Jörg x");
	sk_strbuf_release(&sb);
}

static void test_utf8_check(void **state)
{
	(void)state;
	assert_true(sk_is_utf8("plain", 5));
	assert_true(sk_is_utf8("\xc3\xbc", 2));
	assert_false(sk_is_utf8("\xfc", 1));		/* latin-1 ü */
	assert_false(sk_is_utf8("\xc3", 1));		/* cut short */
}

static void test_headers_unfold_and_body_unescape(void **state)
{
	const char in[] =
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"Subject: [PATCH 1/2] a very long\n"
		"\tsubject\n"
		"Message-Id: <x@y>\n"
		"\n"
		">From the start\n"
		">>From quoted\n"
		"\n"
		"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"Subject: second\n"
		"\n"
		"body\n";
	struct sk_mbox mb = SK_MBOX_INIT;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "t", in, strlen(in)), 0);
	assert_int_equal(mb.nr, 2);
	assert_string_equal(mb.mails[0].subject, "[PATCH 1/2] a very long subject");
	assert_string_equal(mb.mails[0].body, "From the start\n>From quoted\n\n");
	assert_int_equal(mb.mails[0].line, 2);
	assert_int_equal(mb.mails[1].line, 10);
	sk_mbox_release(&mb);
}

static void test_malformed_header_names_line(void **state)
{
	const char in[] = "From a b\nSubject: x\nthis is not a header\n\nbody\n";
	struct sk_mbox mb = SK_MBOX_INIT;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "f.mbox", in, strlen(in)), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "f.mbox:3: malformed mail header"));
	sk_mbox_release(&mb);
}

static void test_msgid_strip(void **state)
{
	char *a = sk_msgid_strip(" <abc@def> "), *b = sk_msgid_strip("abc@def");

	(void)state;
	assert_string_equal(a, "abc@def");
	assert_string_equal(b, "abc@def");
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qp_soft_breaks_and_escapes),
		cmocka_unit_test(test_base64_round_trip),
		cmocka_unit_test(test_base64_rejects_garbage),
		cmocka_unit_test(test_rfc2047_words_join),
		cmocka_unit_test(test_utf8_check),
		cmocka_unit_test(test_headers_unfold_and_body_unescape),
		cmocka_unit_test(test_malformed_header_names_line),
		cmocka_unit_test(test_msgid_strip),
	};

	return cmocka_run_group_tests_name("mbox", tests, NULL, NULL);
}
