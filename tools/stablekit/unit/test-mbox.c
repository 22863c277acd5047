#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/utf8.h"
#include "mail/mbox.h"

static void test_qp_soft_breaks_and_escapes(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char in[] = "a=3Db=\nc =C3=BC=\r\nd";

	(void)state;
	assert_int_equal(sk_decode_qp(&sb, in, strlen(in)), 0);
	assert_string_equal(sb.buf, "a=bc \xc3\xbc" "d");
	sk_strbuf_reset(&sb);
	assert_int_equal(sk_decode_qp(&sb, "=xy plain = end=", 16), 0);
	assert_string_equal(sb.buf, "=xy plain = end=");
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
	sk_strbuf_reset(&sb);
	/* plain text around words, '=' that starts none, spaces kept in text */
	assert_int_equal(sk_decode_rfc2047(&sb,
		"a = b =?x  =?utf-8?q?=C3=BC?=  c=  =?utf-8?q?d?=\t=?utf-8?q?e?= "), 0);
	assert_string_equal(sb.buf, "a = b =?x  \xc3\xbc  c=  de ");
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

/* A multipart mail nested levels deep (the issue's 60,000 levels). */
static char *nested_multipart(int levels)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int i;

	sk_strbuf_adds(&sb, "From x Mon Sep 17 00:00:00 2001\nFrom: A <a@b>\n"
		       "Subject: deep\nMessage-Id: <deep@x>\n"
		       "Content-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 1; i <= levels; i++)
		sk_strbuf_addf(&sb, "--b%d\nContent-Type: multipart/mixed; "
			       "boundary=b%d\n\n", i - 1, i);
	sk_strbuf_addf(&sb, "--b%d\nContent-Type: text/plain\n\ntext\n", levels);
	return sk_strbuf_detach(&sb);
}

static void test_mime_nesting_is_bounded(void **state)
{
	char *deep = nested_multipart(60000);
	char *ok = nested_multipart(SK_MIME_MAX_DEPTH - 1);
	struct sk_mbox mb = SK_MBOX_INIT;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "deep.mbox", deep, strlen(deep)),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(),
			       "deep.mbox:55: MIME parts nested deeper than 16 levels"));
	sk_mbox_release(&mb);
	assert_int_equal(sk_mbox_parse_buf(&mb, "ok.mbox", ok, strlen(ok)), 0);
	assert_string_equal(mb.mails[0].body, "text\n");
	sk_mbox_release(&mb);
	free(deep);
	free(ok);
}

static void test_mime_parts_are_bounded(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_mbox mb = SK_MBOX_INIT;
	int i;

	(void)state;
	sk_strbuf_adds(&sb, "From: A <a@b>\nSubject: many\n"
		       "Content-Type: multipart/mixed; boundary=b\n\n");
	for (i = 0; i <= SK_MIME_MAX_PARTS; i++)
		sk_strbuf_adds(&sb, "--b\nContent-Type: text/plain\n\nx\n");
	assert_int_equal(sk_mbox_parse_buf(&mb, "many.eml", sb.buf, sb.len),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(),
			       "many.eml:1: more than 1000 MIME parts in one mail"));
	sk_mbox_release(&mb);
	sk_strbuf_release(&sb);
}

/* A subpart's errors name its own line in the file. */
static void test_mime_part_errors_name_the_line(void **state)
{
	const char in[] = "From: A <a@b>\nSubject: x\n"
		"Content-Type: multipart/mixed; boundary=b\n\n"
		"preamble\n--b\nContent-Type: text/plain; charset=no-such-set\n\n"
		"text\n--b--\n";
	struct sk_mbox mb = SK_MBOX_INIT;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "p.eml", in, strlen(in)),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "p.eml:9: unknown charset"));
	sk_mbox_release(&mb);
}

/*
 * The header rule: an encoded word that decodes to CR, LF or NUL yields a
 * space, so no header can be forged in what we write for b4.
 */
static void test_encoded_newline_forges_no_header(void **state)
{
	const char in[] =
		"From x Mon Sep 17 00:00:00 2001\n"
		"From: A <a@b>\n"
		"Subject: =?utf-8?q?fix=0AMessage-Id:_<forged@evil>=0D=0ALink:_x?=\n"
		"To: =?utf-8?b?eA0KTWVzc2FnZS1JZDogPGZvcmdlZDJAZXZpbD4=?= <t@x>\n"
		"Cc: =?utf-8?q?a=00b?=\n"
		"Message-Id: <real@x>\n\nbody\n";
	struct sk_mbox mb = SK_MBOX_INIT, back = SK_MBOX_INIT;
	struct sk_strbuf out = SK_STRBUF_INIT;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "inj.mbox", in, strlen(in)), 0);
	assert_string_equal(mb.mails[0].subject,
			    "fix Message-Id: <forged@evil>  Link: x");
	assert_string_equal(sk_mail_header(&mb.mails[0], "To"),
			    "\"x  Message-Id: forged2 at evil\" <t@x>");
	assert_string_equal(sk_mail_header(&mb.mails[0], "Cc"), "a b");
	sk_mbox_format_mail(&out, &mb.mails[0]);
	assert_null(strstr(out.buf, "\nMessage-Id: <forged"));
	assert_null(strstr(out.buf, "\nLink:"));
	assert_int_equal(sk_mbox_parse_buf(&back, "thread.mbx", out.buf, out.len), 0);
	assert_int_equal(back.nr, 1);
	assert_string_equal(back.mails[0].message_id, "<real@x>");
	sk_mbox_release(&back);
	sk_mbox_release(&mb);
	sk_strbuf_release(&out);
}

/*
 * An encoded display name that decodes to address syntax is a name: the
 * address is the angle-addr as sent, the name loses '<' and '>', its '@'
 * becomes " at " and it is quoted when it holds other specials, so that
 * neither we (sk_mail_address) nor git mailinfo (first '@') nor b4 take
 * it for the author.  Plain names are kept as sent.
 */
static void test_display_name_is_no_address(void **state)
{
	static const struct {
		const char *from, *stored, *addr;
	} cases[] = {
		{ "=?utf-8?q?Linus_Torvalds_<torvalds@linux-foundation.org>,?= "
		  "<attacker@evil.example>",
		  "\"Linus Torvalds torvalds at linux-foundation.org,\" "
		  "<attacker@evil.example>", "attacker@evil.example" },
		{ "=?utf-8?q?a\"_<torvalds@x>,_\"b?= <attacker@evil>",
		  "\"a\\\" torvalds at x, \\\"b\" <attacker@evil>", "attacker@evil" },
		{ "\"Linus <torvalds@x>\" <attacker@evil>",
		  "\"Linus torvalds at x\" <attacker@evil>", "attacker@evil" },
		{ "=?utf-8?q?<torvalds@x>?= attacker@evil",
		  "torvalds at x attacker@evil", "torvalds at x attacker@evil" },
		{ "Hui Zhu <zhuhui@kylinos.cn>", "Hui Zhu <zhuhui@kylinos.cn>",
		  "zhuhui@kylinos.cn" },
		{ "\"Zhu, Hui\" <a@b>", "\"Zhu, Hui\" <a@b>", "a@b" },
		{ "John Q. Public <jq@x>", "John Q. Public <jq@x>", "jq@x" },
		{ "=?utf-8?q?J=C3=BCrgen?= <j@x>", "J\xc3\xbcrgen <j@x>", "j@x" },
		{ "<only@x>", "<only@x>", "only@x" },
		{ "bare@x", "bare@x", "bare@x" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sk_mbox mb = SK_MBOX_INIT;
		struct sk_strbuf out = SK_STRBUF_INIT;
		char *in = sk_xstrfmt("From x Mon Sep 17 00:00:00 2001\n"
				      "From: %s\nSubject: s\n"
				      "Message-Id: <m@x>\n\nbody\n",
				      cases[i].from);
		char *addr;

		assert_int_equal(sk_mbox_parse_buf(&mb, "a.mbox", in,
						   strlen(in)), 0);
		assert_string_equal(mb.mails[0].from, cases[i].stored);
		addr = sk_mail_address(mb.mails[0].from);
		assert_string_equal(addr, cases[i].addr);
		/* what b4 gets: the same address last, the name quoted */
		sk_mbox_format_mail(&out, &mb.mails[0]);
		if (strchr(cases[i].stored, '<'))
			assert_non_null(strstr(out.buf, strrchr(cases[i].stored,
							      '<')));
		if (i < 2)
			assert_non_null(strstr(out.buf, cases[i].stored));
		free(addr);
		free(in);
		sk_strbuf_release(&out);
		sk_mbox_release(&mb);
	}
}

/*
 * A msg-id header is printable ASCII, refused with its line otherwise
 * (fuzz-mbox: a Latin-1 Message-Id was converted to UTF-8, written for b4 as
 * an encoded word and read back as that word).
 */
/* Date: as mailers write it; what does not read is -1. */
static void test_mail_time(void **state)
{
	(void)state;
	assert_int_equal(sk_mail_time("Fri, 01 Mar 2024 14:37:22 -0500"), 1709321842);
	assert_int_equal(sk_mail_time("1 Mar 2024 19:37:22 +0000"), 1709321842);
	assert_int_equal(sk_mail_time("Fri, 1 Mar 2024 20:37 +0100"), 1709321820);
	assert_int_equal(sk_mail_time("Fri, 01 Mar 2024 19:37:22 GMT"), 1709321842);
	assert_int_equal(sk_mail_time("Sat, 02 mar 2024 00:07:22 +0430"), 1709321842);
	assert_int_equal(sk_mail_time("yesterday"), -1);
	assert_int_equal(sk_mail_time("Fri, 01 Foo 2024 14:37:22 -0500"), -1);
	assert_int_equal(sk_mail_time(""), -1);
	assert_int_equal(sk_mail_time(NULL), -1);
}

static void test_msgid_header_is_printable_ascii(void **state)
{
	static const struct {
		const char *in, *err;
	} bad[] = {
		{ "From x Mon Sep 17 00:00:00 2001\nSubject: x\n"
		  "Message-Id: <c@\xdbx789\x81" "0>\r\n\nbody\n",
		  "m.mbox:3: byte 0xdb in the Message-Id header" },
		{ "From x Mon Sep 17 00:00:00 2001\nSubject: x\n"
		  "Message-Id: <\xc3\xa9@x>\n\nbody\n",
		  "m.mbox:3: byte 0xc3 in the Message-Id header" },
		{ "From x Mon Sep 17 00:00:00 2001\nSubject: x\n"
		  "Message-Id: <a@x>\nREFERENCES: <p@x>\n <q\x1b@x>\n\nbody\n",
		  "m.mbox:4: byte 0x1b in the REFERENCES header" },
		{ "Subject: x\nIn-Reply-To: <p@x>\x7f\n\nbody\n",
		  "m.mbox:2: byte 0x7f in the In-Reply-To header" },
	};
	const char ok[] = "From x Mon Sep 17 00:00:00 2001\nSubject: x\n"
			  "Message-Id: <a@x>\r\nIn-Reply-To: <p@x>\n"
			  "References: <o@x>\n\t<p@x>\n\nbody\n";
	struct sk_mbox mb = SK_MBOX_INIT, back = SK_MBOX_INIT;
	struct sk_strbuf out = SK_STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(sk_mbox_parse_buf(&mb, "m.mbox", bad[i].in,
						   strlen(bad[i].in)), SK_EINVALID);
		assert_non_null(strstr(sk_error_last(), bad[i].err));
		sk_mbox_release(&mb);
	}
	assert_int_equal(sk_mbox_parse_buf(&mb, "m.mbox", ok, strlen(ok)), 0);
	sk_mbox_format_mail(&out, &mb.mails[0]);
	assert_int_equal(sk_mbox_parse_buf(&back, "thread.mbx", out.buf, out.len), 0);
	assert_string_equal(back.mails[0].message_id, "<a@x>");
	assert_string_equal(back.mails[0].in_reply_to, "<p@x>");
	assert_int_equal(back.mails[0].nr_references, 2);
	assert_string_equal(back.mails[0].references[1], "p@x");
	sk_mbox_release(&back);
	sk_mbox_release(&mb);
	sk_strbuf_release(&out);
}

static void test_header_sanitize(void **state)
{
	char s[] = "a\rb\nc\0d\te\vf\fg\x7fh\x1bi\xc2\x85j\xe2\x80\xa8k"
		   "\xe2\x80\xa9l \xc3\xbc\xe2\x80\x94";

	(void)state;
	sk_utf8_one_line(s, sizeof(s) - 1);
	assert_int_equal(sk_utf8_line_break("a\tb\xc3\xbc", 4), 4);
	assert_int_equal(sk_utf8_line_break("ab\xe2\x80\xa8", 5), 2);
	assert_int_equal(sk_utf8_line_break("a\nb", 3), 1);
	assert_memory_equal(s, "a b c d\te f g h i  j   k   l \xc3\xbc\xe2\x80\x94",
			    sizeof(s) - 1);
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
		cmocka_unit_test(test_mime_nesting_is_bounded),
		cmocka_unit_test(test_mime_parts_are_bounded),
		cmocka_unit_test(test_mime_part_errors_name_the_line),
		cmocka_unit_test(test_encoded_newline_forges_no_header),
		cmocka_unit_test(test_msgid_header_is_printable_ascii),
		cmocka_unit_test(test_mail_time),
		cmocka_unit_test(test_header_sanitize),
		cmocka_unit_test(test_display_name_is_no_address),
	};

	return cmocka_run_group_tests_name("mbox", tests, NULL, NULL);
}
