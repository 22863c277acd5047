/* Unit tests for lib/mail/listmail.c: threads of an archive, stable mail kinds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mail/listmail.h"
#include "core/strbuf.h"

static void parse(struct sk_mbox *mb, const char *text)
{
	assert_int_equal(sk_mbox_parse_buf(mb, "t.mbox", text, strlen(text)), 0);
}

/* Replies join by In-Reply-To, References, or a parent the archive lacks. */
static void test_threads(void **state)
{
	struct sk_mbox mb = SK_MBOX_INIT;
	struct sk_threads t;

	(void)state;
	parse(&mb,
	      "From x Mon Sep 17 00:00:00 2001\n"
	      "Subject: [PATCH 1/2] a\nMessage-Id: <a1@x>\nIn-Reply-To: <a0@x>\n\nx\n"
	      "From x Mon Sep 17 00:00:00 2001\n"
	      "Subject: other\nMessage-Id: <o@x>\n\nx\n"
	      "From x Mon Sep 17 00:00:00 2001\n"
	      "Subject: [PATCH 2/2] a\nMessage-Id: <a2@x>\nReferences: <a0@x>\n\nx\n"
	      "From x Mon Sep 17 00:00:00 2001\n"
	      "Subject: Re: other\nMessage-Id: <r@x>\nReferences: <q@x> <o@x>\n\nx\n");
	sk_threads_build(&t, &mb);
	assert_int_equal(t.nr, 2);
	assert_int_equal(t.of[0], 0);
	assert_int_equal(t.of[1], 1);
	assert_int_equal(t.of[2], 0);
	assert_int_equal(t.of[3], 1);
	assert_int_equal(sk_listmail_find(&mb, "<a2@x>"), 2);
	assert_int_equal(sk_listmail_find(&mb, "r@x"), 3);
	assert_int_equal(sk_listmail_find(&mb, "a0@x"), -1);
	sk_threads_release(&t);
	sk_mbox_release(&mb);
}

static enum sk_mail_kind kind_of(const char *subject, const char *body)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_mbox mb = SK_MBOX_INIT;
	enum sk_mail_kind k;

	sk_strbuf_addf(&sb, "From x Mon Sep 17 00:00:00 2001\nSubject: %s\n"
		       "Message-Id: <k@x>\n\n%s", subject, body);
	parse(&mb, sb.buf);
	k = sk_mail_kind(&mb.mails[0]);
	sk_mbox_release(&mb);
	sk_strbuf_release(&sb);
	return k;
}

static void test_kinds(void **state)
{
	const char *up = "commit 0123456789ab0123456789ab0123456789ab upstream.\n";

	(void)state;
	assert_int_equal(kind_of("[PATCH v2 1/3] mm: a", ""), SK_MAIL_PATCH);
	assert_int_equal(kind_of("[RFC 1/1] mm: a", ""), SK_MAIL_PATCH);
	assert_int_equal(kind_of("[PATCH RFC] mm: a", ""), SK_MAIL_PATCH);
	assert_int_equal(kind_of("[PATCH v2 0/3] mm: a", ""), SK_MAIL_NONE);
	assert_int_equal(kind_of("Re: [PATCH 1/3] mm: a", ""), SK_MAIL_NONE);
	assert_int_equal(kind_of("mm: a", ""), SK_MAIL_NONE);
	assert_int_equal(kind_of("[PATCH 6.12 041/120] mm: a", up), SK_MAIL_STABLE_REVIEW);
	assert_int_equal(kind_of("[PATCH 6.1.y] mm: a", up), SK_MAIL_STABLE_REVIEW);
	/* a tree tag without an upstream line is an ordinary patch */
	assert_int_equal(kind_of("[PATCH 6.12 041/120] mm: a", "x\n"), SK_MAIL_PATCH);
	assert_int_equal(kind_of("[PATCH AUTOSEL 6.12 01/20] mm: a", "x\n"), SK_MAIL_AUTOSEL);
	assert_int_equal(kind_of("FAILED: patch \"[PATCH] mm: a\" failed to apply to 6.1-stable tree", ""),
			 SK_MAIL_FAILED);
	assert_string_equal(sk_mail_kind_name(SK_MAIL_AUTOSEL), "autosel");
	assert_null(sk_mail_kind_name(SK_MAIL_NONE));
}

static void check_upstream(const char *body, const char *want)
{
	char *got = sk_mail_upstream(body);

	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
}

static void test_upstream(void **state)
{
	(void)state;
	check_upstream("x\n\ncommit b377dcd9a286a6f81922ae442cd1c743bc4a2b35 upstream.\n",
		       "b377dcd9a286a6f81922ae442cd1c743bc4a2b35");
	check_upstream("[ Upstream commit 0123456789ab ]\n", "0123456789ab");
	check_upstream("git cherry-pick -x 0123456789abcdef0123456789abcdef01234567\n",
		       "0123456789abcdef0123456789abcdef01234567");
	check_upstream("From 93ecd6ee95c38cb533fa25f48d3c1c8cb69f410f Mon Sep 17 00:00:00 2001\n",
		       "93ecd6ee95c38cb533fa25f48d3c1c8cb69f410f");
	check_upstream("commit 0123456 upstream.\n", NULL);	/* too short */
	check_upstream("commit 0123456789AB upstream.\n", NULL);	/* not git's */
	check_upstream("see commit 0123456789ab upstream.\n", NULL);
	check_upstream("", NULL);
}

static void test_failed_subject(void **state)
{
	char *s;

	(void)state;
	s = sk_failed_subject("FAILED: patch \"[PATCH] mm: a \"b\"\" failed to apply to 6.1-stable tree");
	assert_string_equal(s, "[PATCH] mm: a \"b\"");
	free(s);
	s = sk_failed_subject("FAILED: Patch \"media: venus: x\" failed to apply to 6.12-stable tree");
	assert_string_equal(s, "media: venus: x");
	free(s);
	assert_null(sk_failed_subject("FAILED: patch \"\" failed to apply to 6.1-stable tree"));
	assert_null(sk_failed_subject("[PATCH] FAILED: x"));
}

static void test_stable_review_body(void **state)
{
	const char *b = "6.12-stable review patch.  If anyone has any objections, please let me know.\n"
			"\n------------------\n\nFrom: Real Author <r@x>\n\n[ Upstream commit 0123456789ab ]\n";
	const char *plain = "From: A <a@x>\n\n------------------\nx\n";

	(void)state;
	assert_string_equal(sk_stable_review_body(b),
			    "From: Real Author <r@x>\n\n[ Upstream commit 0123456789ab ]\n");
	assert_ptr_equal(sk_stable_review_body(plain), plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_upstream),
		cmocka_unit_test(test_failed_subject),
		cmocka_unit_test(test_stable_review_body),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
