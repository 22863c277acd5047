#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <git2.h>

#include "core/error.h"
#include "mail/patch.h"
#include "mail/pull.h"
#include "core/strvec.h"

static void check_subject(const char *in, int version, int nr, int total,
			  unsigned int flags, const char *title)
{
	struct sk_subject s;

	sk_subject_parse(&s, in);
	assert_int_equal(s.version, version);
	assert_int_equal(s.nr, nr);
	assert_int_equal(s.total, total);
	assert_int_equal(s.flags, flags);
	assert_string_equal(s.title, title);
	sk_subject_release(&s);
}

static void test_subjects(void **state)
{
	(void)state;
	check_subject("[PATCH v3 2/3] mm: x", 3, 2, 3, SK_SUBJ_PATCH, "mm: x");
	check_subject("[PATCHv3 2/3] mm: x", 3, 2, 3, SK_SUBJ_PATCH, "mm: x");
	check_subject("[PATCH] mm: x", 1, 0, 0, SK_SUBJ_PATCH, "mm: x");
	check_subject("[RFC PATCH 0/7] mm: x", 1, 0, 7,
		      SK_SUBJ_PATCH | SK_SUBJ_RFC, "mm: x");
	check_subject("Re: [PATCH v2 2/2] mm: x", 2, 2, 2,
		      SK_SUBJ_PATCH | SK_SUBJ_REPLY, "mm: x");
	check_subject("[PATCH] [fixlet] mm/vmscan: y", 1, 0, 0,
		      SK_SUBJ_PATCH | SK_SUBJ_FIXLET, "mm/vmscan: y");
	check_subject("[PATCH RESEND v2 01/10] a: b", 2, 1, 10,
		      SK_SUBJ_PATCH | SK_SUBJ_RESEND, "a: b");
}

/* Tejun Heo's covers (cgroups list, 2026): "[PATCHSET v2]", no counter. */
static void test_subjects_patchset(void **state)
{
	static const char *const covers[] = {
		"[PATCHSET v2] sched/psi: Fix psimon fork deadlock and rtpoll_timer UAF",
		"[PATCHSET cgroup/for-7.2] cgroup: Per-css kill_css_finish deferral",
		"[PATCHSET v2 sched_ext/for-7.1] sched_ext: Implement cgroup sub-scheduler support",
		"[PATCHSET v2 0/3] a: b",
	};
	struct sk_subject s;
	size_t i;

	(void)state;
	check_subject("[PATCHSET v2] sched/psi: Fix psimon fork deadlock and rtpoll_timer UAF",
		      2, 0, 0, SK_SUBJ_PATCH | SK_SUBJ_PATCHSET,
		      "sched/psi: Fix psimon fork deadlock and rtpoll_timer UAF");
	check_subject("[PATCHSET v2 2/3] a: b", 2, 2, 3,
		      SK_SUBJ_PATCH | SK_SUBJ_PATCHSET, "a: b");
	for (i = 0; i < sizeof(covers) / sizeof(*covers); i++) {
		sk_subject_parse(&s, covers[i]);
		assert_true(sk_subject_is_cover(&s));
		sk_subject_release(&s);
	}
	sk_subject_parse(&s, "Re: [PATCHSET v2] sched/psi: x");
	assert_false(sk_subject_is_cover(&s));
	sk_subject_release(&s);
	sk_subject_parse(&s, "[PATCHSET v2 1/3] a: b");
	assert_false(sk_subject_is_cover(&s));
	sk_subject_release(&s);
	sk_subject_parse(&s, "[PATCH] a: b");
	assert_false(sk_subject_is_cover(&s));
	sk_subject_release(&s);
}

static const char good_diff[] =
	"diff --git a/mm/a.c b/mm/a.c\n"
	"index 1..2 100644\n"
	"--- a/mm/a.c\n"
	"+++ b/mm/a.c\n"
	"@@ -1,3 +1,3 @@ int f(void)\n"
	" one\n"
	"-two\n"
	"+TWO\n"
	" three\n";

static void test_diff_check_lists_files(void **state)
{
	char **files = NULL;
	size_t nr = 0;

	(void)state;
	assert_int_equal(sk_patch_diff_check(good_diff, "x", 10, &files, &nr), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(files[0], "mm/a.c");
	free(files[0]);
	free(files);
}

static void test_diff_check_truncated(void **state)
{
	char **files = NULL;
	size_t nr = 0;
	char *cut = sk_xstrndup(good_diff, strlen(good_diff) - strlen(" three\n"));

	(void)state;
	assert_int_equal(sk_patch_diff_check(cut, "x.mbox", 10, &files, &nr), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "x.mbox:18: truncated patch: the hunk at line 14"));
	free(cut);
	while (nr--)
		free(files[nr]);
	free(files);
}

static void test_diff_check_unsafe_paths(void **state)
{
	const char *bad[] = {
		"diff --git a/../x b/../x\n",
		"--- a/mm/../../x\n",
		"+++ /etc/passwd\n",
		"+++ b/.git/config\n",
		"rename to ../../x\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char **files = NULL;
		size_t nr = 0;

		assert_int_equal(sk_patch_diff_check(bad[i], "y", 1, &files, &nr), SK_EINVALID);
		assert_non_null(strstr(sk_error_last(), "y:1: unsafe path"));
		free(files);
	}
}

/* #16.10: "rename from /etc/passwd" passed; symlink diffs failed late */
static void test_diff_check_rename_and_symlink(void **state)
{
	static const char rename[] =
		"diff --git a/mm/a.c b/mm/b.c\n"
		"similarity index 100%\n"
		"rename from /etc/passwd\n"
		"rename to mm/b.c\n";
	static const char link[] =
		"diff --git a/mm/l b/mm/l\n"
		"new file mode 120000\n"
		"index 0000000..1111111\n"
		"--- /dev/null\n"
		"+++ b/mm/l\n"
		"@@ -0,0 +1 @@\n"
		"+/etc/passwd\n"
		"\\ No newline at end of file\n";
	char **files = NULL;
	size_t nr = 0;

	(void)state;
	assert_int_equal(sk_patch_diff_check(rename, "r.mbox", 40, &files, &nr), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "r.mbox:42: unsafe path '/etc/passwd'"));
	assert_int_equal(sk_patch_diff_check(link, "l.mbox", 10, &files, &nr), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(),
			       "l.mbox:11: 'mm/l' is a symbolic link (mode 120000)"));
	sk_strvec_free_array(files, nr);
}

/* #14.1: a stable review mail's diff has no "diff --git" line */
static void test_quilt_style_mail(void **state)
{
	static const char mbox[] =
		"From stable Mon Sep 17 00:00:00 2001\n"
		"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
		"Date: Mon, 5 Jan 2026 10:00:00 +0000\n"
		"Subject: [PATCH 6.12 041/120] mm: fix x\n"
		"Message-Id: <r@example.org>\n"
		"\n"
		"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n"
		"\n"
		"Signed-off-by: A U Thor <author@example.org>\n"
		"---\n"
		" mm/x.c | 2 +-\n"
		"\n"
		"--- a/mm/x.c\n"
		"+++ b/mm/x.c\n"
		"@@ -1,3 +1,3 @@\n"
		" a\n"
		"-b\n"
		"+B\n"
		" c\n";
	struct sk_mbox mb = SK_MBOX_INIT;
	struct sk_patch p;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "r.mbox", mbox, strlen(mbox)), 0);
	assert_true(sk_mail_has_diff(&mb.mails[0]));
	if (sk_patch_parse(&p, &mb.mails[0]))
		fail_msg("%s", sk_error_last());
	assert_int_equal(p.nr_files, 1);
	assert_string_equal(p.files[0], "mm/x.c");
	assert_int_equal(strlen(p.patch_id), 40);
	sk_patch_release(&p);
	sk_mbox_release(&mb);
}

static void test_slugify(void **state)
{
	char *a = sk_slugify("mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost");
	char *b = sk_slugify("mm: workingset: fix the shadow node budget under MGLRU");
	char *c = sk_slugify("../../$(x) /");

	(void)state;
	assert_string_equal(a, "mm-vmscan-reduce-lru_lock-contention-via-vmstat");
	assert_string_equal(b, "mm-workingset-fix-the-shadow-node-budget-under-mglru");
	assert_string_equal(c, "x");
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_subjects_patchset),
		cmocka_unit_test(test_diff_check_lists_files),
		cmocka_unit_test(test_diff_check_truncated),
		cmocka_unit_test(test_diff_check_unsafe_paths),
		cmocka_unit_test(test_diff_check_rename_and_symlink),
		cmocka_unit_test(test_quilt_style_mail),
		cmocka_unit_test(test_slugify),
	};

	git_libgit2_init();
	return cmocka_run_group_tests_name("patch", tests, NULL, NULL);
}
