#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/patchid.h"

/* The ids were given by git patch-id --stable (git 2.39) for these texts. */
static const char one[] =
	"diff --git a/f b/f\n"
	"index 1234567..89abcde 100644\n"
	"--- a/f\n"
	"+++ b/f\n"
	"@@ -1 +1 @@\n"
	"-a\n"
	"+b\n";
static const char one_id[] = "e897e68f3d28ff9d46e3eee9734b8298f517d9fe";

static const char renamed[] =
	"diff --git a/a.c b/b.c\n"
	"similarity index 90%\n"
	"rename from a.c\n"
	"rename to b.c\n"
	"index 1234567..89abcde 100644\n"
	"--- a/a.c\n"
	"+++ b/b.c\n"
	"@@ -1,2 +1,2 @@\n"
	" x\n"
	"-a\n"
	"+b\n";
static const char renamed_id[] = "d5e01496531b4151a23894c8cdaa6a3e855dd7e5";

static void pid(char out[41], const char *text)
{
	assert_int_equal(sk_patchid_text(out, text, strlen(text)), 0);
}

static void test_git_ids(void **state)
{
	char id[41];

	(void)state;
	pid(id, one);
	assert_string_equal(id, one_id);
	/* line numbers, blanks, the index line and the message do not count */
	pid(id, "Subject: x\n\nbody\n---\ndiff --git a/f b/f\n--- a/f\n"
	    "+++ b/f\n@@ -10 +10 @@\n-a\n+ b\n\\ No newline at end of file\n");
	assert_string_equal(id, one_id);
	pid(id, renamed);
	assert_string_equal(id, renamed_id);
}

static void test_header_lines_count(void **state)
{
	char a[41], b[41];
	char text[sizeof(renamed)];

	(void)state;
	/* git hashes "similarity index": another score, another id */
	memcpy(text, renamed, sizeof(renamed));
	memcpy(strstr(text, "90%"), "91%", 3);
	pid(a, renamed);
	pid(b, text);
	assert_string_not_equal(a, b);
}

static void test_files_in_any_order(void **state)
{
	char a[41], b[41];
	const char *f = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n"
			"-a\n+b\n";
	const char *g = "diff --git a/g b/g\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n"
			"-c\n+d\n";
	char fg[512], gf[512];

	(void)state;
	snprintf(fg, sizeof(fg), "%s%s", f, g);
	snprintf(gf, sizeof(gf), "%s%s", g, f);
	pid(a, fg);
	pid(b, gf);
	assert_string_equal(a, b);
	pid(b, f);
	assert_string_not_equal(a, b);
}

static void test_no_diff_no_id(void **state)
{
	char id[41];

	(void)state;
	pid(id, "");
	assert_string_equal(id, "");
	pid(id, "just a message\n");
	assert_string_equal(id, "");
}

static void test_similarity(void **state)
{
	const char *a = "one\ntwo\nthree\nfour\n";

	(void)state;
	assert_int_equal(sk_patchid_similarity(a, strlen(a), a, strlen(a)),
			 100);
	/* "two\n" of 19 bytes is gone, "2\n" came: 15 of 19 bytes kept */
	assert_int_equal(sk_patchid_similarity(a, strlen(a),
					       "one\n2\nthree\nfour\n", 17),
			 15 * 100 / 19);
	/* CR of CRLF is no difference in text */
	assert_int_equal(sk_patchid_similarity("a\nb\n", 4, "a\r\nb\r\n", 6),
			 4 * 100 / 6);
	assert_int_equal(sk_patchid_similarity(a, strlen(a), "", 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_git_ids),
		cmocka_unit_test(test_header_lines_count),
		cmocka_unit_test(test_files_in_any_order),
		cmocka_unit_test(test_no_diff_no_id),
		cmocka_unit_test(test_similarity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
