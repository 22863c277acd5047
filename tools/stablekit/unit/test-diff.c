#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <git2.h>

#include "port/apply.h"
#include "port/cocci.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/interdiff.h"
#include "build/kbuild.h"
#include "mail/mbox.h"
#include "mail/patch.h"
#include "core/strvec.h"

static const char gitdiff[] =
	"diff --git a/mm/a.c b/mm/a.c\n"
	"index 1111111..2222222 100644\n"
	"--- a/mm/a.c\n"
	"+++ b/mm/a.c\n"
	"@@ -10,3 +10,4 @@ static int f(void)\n"
	" one\n"
	"-two\n"
	"+TWO\n"
	"+2\n"
	" three\n"
	"@@ -40 +41 @@\n"
	"-x\n"
	"\\ No newline at end of file\n"
	"+y\n"
	"diff --git a/old.c b/new.c\n"
	"similarity index 90%\n"
	"rename from old.c\n"
	"rename to new.c\n"
	"diff --git a/bin.dat b/bin.dat\n"
	"new file mode 100644\n"
	"index 0000000..3333333\n"
	"GIT binary patch\n"
	"literal 3\n"
	"KcmZQzWB>pF00961\n"
	"\n"
	"literal 0\n"
	"HcmV?d00001\n"
	"\n"
	"diff --git a/gone.c b/gone.c\n"
	"deleted file mode 100755\n"
	"--- a/gone.c\n"
	"+++ /dev/null\n"
	"@@ -1 +0,0 @@\n"
	"-bye\n";

static int parse(struct sk_diff *d, const char *text)
{
	return sk_diff_parse(d, text, strlen(text), "t.diff", 1, 0);
}

/* parse must fail and its message contain want */
static void refused(const char *text, const char *want)
{
	struct sk_diff d;

	assert_int_equal(parse(&d, text), SK_EINVALID);
	if (!strstr(sk_error_last(), want))
		fail_msg("'%s' lacks '%s'", sk_error_last(), want);
	assert_int_equal(d.nr, 0);
}

static void test_git_diff(void **state)
{
	struct sk_diff d;
	const struct sk_diff_hunk *h;

	(void)state;
	assert_int_equal(parse(&d, gitdiff), 0);
	assert_int_equal(d.nr, 4);
	assert_string_equal(d.files[0].old_path, "mm/a.c");
	assert_string_equal(d.files[0].new_path, "mm/a.c");
	assert_int_equal(d.files[0].flags, SK_DIFF_GIT);
	assert_int_equal(d.files[0].line, 1);
	assert_string_equal(d.files[0].old_blob, "1111111");
	assert_string_equal(d.files[0].new_blob, "2222222");
	assert_string_equal(d.files[1].old_blob, "");	/* no index line */
	assert_string_equal(d.files[2].old_blob, "0000000");
	assert_string_equal(d.files[2].new_blob, "3333333");
	assert_int_equal(d.files[0].nr_hunks, 2);
	h = &d.files[0].hunks[0];
	assert_int_equal(h->old_start, 10);
	assert_int_equal(h->old_count, 3);
	assert_int_equal(h->new_start, 10);
	assert_int_equal(h->new_count, 4);
	assert_int_equal(h->line, 5);
	assert_string_equal(h->funcname, "static int f(void)");
	assert_int_equal(h->nr_lines, 5);
	assert_int_equal(h->lines[1].origin, '-');
	assert_string_equal(h->lines[1].text, "two");
	h = &d.files[0].hunks[1];
	assert_int_equal(h->old_count, 1);
	assert_null(h->funcname);
	assert_true(h->lines[0].no_newline);
	assert_false(h->lines[1].no_newline);
	assert_string_equal(d.files[1].old_path, "old.c");
	assert_string_equal(d.files[1].new_path, "new.c");
	assert_int_equal(d.files[1].flags, SK_DIFF_GIT | SK_DIFF_RENAME);
	assert_int_equal(d.files[2].flags, SK_DIFF_GIT | SK_DIFF_NEW | SK_DIFF_BINARY);
	assert_null(d.files[2].old_path);
	assert_string_equal(d.files[3].old_path, "gone.c");
	assert_null(d.files[3].new_path);
	assert_int_equal(d.files[3].old_mode, 0100755);
	assert_true(d.files[3].flags & SK_DIFF_DELETED);
	sk_diff_release(&d);
}

/* What stable review mails and stablekit's own queue files carry. */
static const char quilt_diff[] =
	"--- a/mm/vmscan.c\t2026-01-05 10:00:00.000000000 +0000\n"
	"+++ b/mm/vmscan.c\t2026-01-05 10:00:00.000000000 +0000\n"
	"@@ -1,2 +1,2 @@ int f(void)\n"
	" a\n"
	"-b\n"
	"+c\n"
	"--- linux-6.12.orig/mm/new.c\n"
	"+++ linux-6.12/mm/new.c\n"
	"--- /dev/null\n"
	"+++ b/mm/created.c\n"
	"@@ -0,0 +1 @@\n"
	"+new\n";

static void test_quilt_diff(void **state)
{
	struct sk_diff d;

	(void)state;
	assert_int_equal(parse(&d, quilt_diff), 0);
	assert_int_equal(d.nr, 3);
	assert_string_equal(d.files[0].old_path, "mm/vmscan.c");
	assert_string_equal(d.files[0].new_path, "mm/vmscan.c");
	assert_int_equal(d.files[0].flags, 0);
	assert_int_equal(d.files[0].nr_hunks, 1);
	assert_string_equal(d.files[1].new_path, "mm/new.c");
	assert_int_equal(d.files[1].nr_hunks, 0);
	assert_null(d.files[2].old_path);
	assert_int_equal(d.files[2].flags, SK_DIFF_NEW);
	assert_int_equal(d.files[2].line, 9);
	sk_diff_release(&d);
	assert_true(sk_diff_find("text\n---\n stat\n\n" "--- a/x\n+++ b/x\n@@ -1 +1 @@\n") != NULL);
	assert_null(sk_diff_find("--- a/x\n+++ b/x\nno hunk\n"));
}

static void test_unsafe_paths(void **state)
{
	(void)state;
	refused("diff --git a/../x b/../x\n", "t.diff:1: unsafe path '../x'");
	refused("--- a/mm/../../x\n+++ b/mm/x\n", "t.diff:1: unsafe path");
	refused("--- a/x\n+++ /etc/passwd\n", "t.diff:2: unsafe path '/etc/passwd'");
	refused("--- a/x\n+++ b/.git/config\n", "t.diff:2: unsafe path");
	refused("--- a/x\n+++ b/.GIT/hooks/x\n", "t.diff:2: unsafe path");
	refused("--- ../../../victim\n+++ ../../../victim\n@@ -1 +1 @@\n-a\n+b\n",
		"t.diff:1: unsafe path '../../../victim'");
	refused("--- a/x\n+++ b/y\\z\n", "unsafe path");
	refused("--- a/x\n+++ b/y/./z\n", "unsafe path");
	refused("--- a/x\n+++ b/y//z\n", "unsafe path");
	refused("--- Makefile\n+++ Makefile\n", "no directory to strip");
	refused("diff --git \"a/x\" \"b/x\"\n", "quoted path");
	/* fuzz/regress/diff/quoted-component-after-p1-strip */
	refused("--- o/\"ld.c\n+++ b/x\n", "t.diff:1: unsafe path 'o/\"ld.c'");
	/* lines outside any file are checked all the same */
	refused("+++ /etc/passwd\n", "t.diff:1: unsafe path");
	refused("rename to ../../x\n", "t.diff:1: unsafe path");
}

/* #16.10: "rename from /etc/passwd" passed the old check */
static void test_rename_copy_paths(void **state)
{
	(void)state;
	refused("diff --git a/x b/y\n"
		"similarity index 100%\n"
		"rename from /etc/passwd\n"
		"rename to y\n",
		"t.diff:3: unsafe path '/etc/passwd'");
	refused("diff --git a/x b/y\n"
		"rename from x\n"
		"rename to ../../y\n",
		"t.diff:3: unsafe path '../../y'");
	refused("diff --git a/x b/y\n"
		"copy from .git/config\n"
		"copy to y\n",
		"t.diff:2: unsafe path '.git/config'");
	refused("diff --git a/x b/y\n"
		"rename from z\n"
		"rename to y\n",
		"t.diff:2: 'rename from z' does not match the 'diff --git' line at 1");
	refused("diff --git a/mm/x.c b/mm/x.c\n"
		"--- a/mm/x.c\n"
		"+++ b/mm/other.c\n",
		"t.diff:3: '+++ b/mm/other.c' does not match the 'diff --git' line at 1");
}

/* #16.10: a symlink diff is refused where it is read, unless asked for */
static void test_symlinks(void **state)
{
	static const char link[] =
		"diff --git a/mm/l b/mm/l\n"
		"new file mode 120000\n"
		"index 0000000..1111111\n"
		"--- /dev/null\n"
		"+++ b/mm/l\n"
		"@@ -0,0 +1 @@\n"
		"+/etc/passwd\n"
		"\\ No newline at end of file\n";
	struct sk_diff d;

	(void)state;
	refused(link, "t.diff:2: 'mm/l' is a symbolic link (mode 120000)");
	refused("diff --git a/l b/l\nindex 1..2 120000\n", "t.diff:2: 'l' is a symbolic link");
	refused("diff --git a/l b/l\nold mode 100644\nnew mode 120000\n",
		"t.diff:3: 'l' is a symbolic link");
	refused("diff --git a/s b/s\nnew file mode 160000\n", "t.diff:2: 's' is a submodule");
	refused("diff --git a/s b/s\nnew file mode 100777\n", "t.diff:2: invalid mode '100777'");
	assert_int_equal(sk_diff_parse(&d, link, strlen(link), "t.diff", 1,
				       SK_DIFF_ALLOW_SYMLINK), 0);
	assert_true(d.files[0].flags & SK_DIFF_SYMLINK);
	sk_diff_release(&d);
}

/* #16.2: header numbers with overflow checks, hunks as long as they say */
static void test_hunk_headers(void **state)
{
	(void)state;
	refused("--- a/x\n+++ b/x\n@@ -5", "t.diff:3: malformed hunk header '@@ -5'");
	refused("--- a/x\n+++ b/x\n@@ -5,", "malformed hunk header");
	refused("--- a/x\n+++ b/x\n@@ -5 +", "malformed hunk header");
	refused("--- a/x\n+++ b/x\n@@ -5 +5", "malformed hunk header");
	refused("--- a/x\n+++ b/x\n@@ -x +5 @@\n", "malformed hunk header");
	refused("--- a/x\n+++ b/x\n@@ -9223372036854775807,2 +1,2 @@\n a\n b\n",
		"t.diff:3: line number out of range");
	refused("--- a/x\n+++ b/x\n@@ -1,99999999999999999999 +1 @@\n",
		"line number out of range");
	refused("--- a/x\n+++ b/x\n@@ -2147483648 +1 @@\n-a\n+b\n",
		"line number out of range");
	refused("--- a/x\n+++ b/x\n@@ -0,0 +0,0 @@\n", "malformed hunk header");
	refused("--- a/x\n+++ b/x\n@@ -0,2 +1,2 @@\n a\n b\n", "malformed hunk header");
	refused("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n", "t.diff:5: truncated patch: the hunk at line 3");
	refused("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\nb\n", "t.diff:5: truncated patch");
	refused("--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n-a\n-b\n+c\n",
		"t.diff:5: corrupt patch: the hunk at line 3 has more lines");
	refused("@@ -1 +1 @@\n-a\n+b\n", "t.diff:1: hunk without '---' and '+++'");
	refused("diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n", "hunk without '---'");
	refused("--- a/x\n+++ /dev/null\n--- /dev/null\n+++ /dev/null\n",
		"t.diff:4: both sides of the diff are /dev/null");
}

static void test_nul_byte(void **state)
{
	static const char text[] = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\0\n+b\n";
	struct sk_diff d;

	(void)state;
	assert_int_equal(sk_diff_parse(&d, text, sizeof(text) - 1, "n.diff", 7, 0),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "n.diff:10: NUL byte"));
}

static void test_paths_and_check(void **state)
{
	struct sk_diff d;
	char **paths = NULL, **files = NULL;
	size_t nr = 0, alloc = 0, nf = 0;

	(void)state;
	assert_int_equal(parse(&d, gitdiff), 0);
	sk_diff_paths(&paths, &nr, &alloc, &d, 0);
	assert_int_equal(nr, 3);
	assert_string_equal(paths[1], "new.c");
	sk_diff_paths(&paths, &nr, &alloc, &d, SK_DIFF_PATHS_OLD);
	assert_int_equal(nr, 5);
	sk_strvec_free_array(paths, nr);
	sk_diff_release(&d);
	assert_int_equal(sk_patch_diff_check(quilt_diff, "q", 1, &files, &nf), 0);
	assert_int_equal(nf, 3);
	assert_string_equal(files[2], "mm/created.c");
	sk_strvec_free_array(files, nf);
	assert_true(sk_diff_path_ok("mm/a.c", 6));
	assert_false(sk_diff_path_ok("mm/a.c/", 7));
	assert_false(sk_diff_path_ok("", 0));
	assert_false(sk_diff_path_ok("a\x01", 2));
}

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/sk-test-diff-XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return sk_xstrdup(d);
}

/* A path that leads through a symbolic link in the tree is refused. */
static void test_apply_not_through_symlink(void **state)
{
	static const char diff[] =
		"--- a/lnk/f\n+++ b/lnk/f\n@@ -1 +1 @@\n-old\n+new\n";
	struct sk_apply_report rep = { 0 };
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *dir = tmpdir(), *out = tmpdir();
	char *victim = sk_path_join(out, "f"), *lnk = sk_path_join(dir, "lnk");

	(void)state;
	assert_int_equal(sk_write_file_atomic(victim, "old\n", 4), 0);
	assert_int_equal(symlink(out, lnk), 0);
	assert_int_equal(sk_apply_dir(&rep, dir, diff, 0), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "symbolic link 'lnk'"));
	assert_int_equal(sk_read_file(&sb, victim), 0);
	assert_string_equal(sb.buf, "old\n");
	sk_apply_report_release(&rep);
	sk_strbuf_release(&sb);
	sk_rmrf(dir);
	sk_rmrf(out);
	free(victim);
	free(lnk);
	free(dir);
	free(out);
}

/* #14.1: a quilt-style diff applies through the offset/fuzz layer */
static void test_apply_quilt_style(void **state)
{
	static const char diff[] =
		"--- a/mm/x.c\t2026-01-05 10:00:00.000000000 +0000\n"
		"+++ b/mm/x.c\t2026-01-05 10:00:00.000000000 +0000\n"
		"@@ -1,3 +1,3 @@\n"
		" a\n"
		"-b\n"
		"+B\n"
		" c\n"
		"--- /dev/null\n"
		"+++ b/mm/y.c\n"
		"@@ -0,0 +1 @@\n"
		"+y\n";
	struct sk_apply_report rep = { 0 };
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *dir = tmpdir(), *x = sk_path_join(dir, "mm/x.c");
	char *y = sk_path_join(dir, "mm/y.c"), *mm = sk_path_join(dir, "mm");

	(void)state;
	assert_int_equal(sk_mkdir_p(mm, 0755), 0);
	assert_int_equal(sk_write_file_atomic(x, "z\na\nb\nc\n", 8), 0);
	assert_int_equal(sk_apply_dir(&rep, dir, diff, SK_APPLY_FUZZ), 0);
	assert_int_equal(sk_read_file(&sb, x), 0);
	assert_string_equal(sb.buf, "z\na\nB\nc\n");
	assert_int_equal(sk_apply_max_offset(&rep), 1);
	sk_strbuf_reset(&sb);
	assert_int_equal(sk_read_file(&sb, y), 0);
	assert_string_equal(sb.buf, "y\n");
	sk_apply_report_release(&rep);
	sk_strbuf_release(&sb);
	sk_rmrf(dir);
	free(x);
	free(y);
	free(mm);
	free(dir);
}

/* #14.1: pull reads a stable review mail's quilt-style diff */
static void test_patch_parse_quilt_mail(void **state)
{
	static const char mbox[] =
		"From stable Mon Sep 17 00:00:00 2001\n"
		"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
		"Date: Mon, 5 Jan 2026 10:00:00 +0000\n"
		"Subject: [PATCH 6.12 041/120] mm: fix x\n"
		"Message-Id: <r@example.org>\n"
		"\n"
		"6.12-stable review patch.  If anyone has any objections, please let me know.\n"
		"\n"
		"------------------\n"
		"\n"
		"From: A U Thor <author@example.org>\n"
		"\n"
		"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n"
		"\n"
		"Fix x.\n"
		"\n"
		"Signed-off-by: A U Thor <author@example.org>\n"
		"---\n"
		" mm/x.c | 2 +-\n"
		" 1 file changed, 1 insertion(+), 1 deletion(-)\n"
		"\n"
		"--- a/mm/x.c\n"
		"+++ b/mm/x.c\n"
		"@@ -1,3 +1,3 @@\n"
		" a\n"
		"-b\n"
		"+B\n"
		" c\n"
		"\n"
		"\n";
	struct sk_mbox mb = SK_MBOX_INIT;
	struct sk_patch p;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "r.mbox", mbox, strlen(mbox)), 0);
	if (sk_patch_parse(&p, &mb.mails[0]))
		fail_msg("%s", sk_error_last());
	assert_int_equal(p.nr_files, 1);
	assert_string_equal(p.files[0], "mm/x.c");
	assert_int_equal(p.diff_line, 22);
	assert_non_null(strstr(p.message, "commit 0123456789abcdef"));
	assert_true(sk_mail_has_diff(&mb.mails[0]));
	sk_patch_release(&p);
	sk_mbox_release(&mb);
}

/* #16.1: build's queue reader refuses a path that leaves the checkout */
static void test_queue_paths(void **state)
{
	static const char evil[] =
		"Subject: [PATCH] x\n"
		"\n"
		"---\n"
		"--- a/../../../victim\n"
		"+++ b/../../../victim\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n";
	char **files = NULL;
	size_t nr = 0, alloc = 0;

	(void)state;
	assert_int_equal(sk_kbuild_patch_files(&files, &nr, &alloc, evil,
					       "stable/b/evil.patch"), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(),
			       "stable/b/evil.patch:4: unsafe path 'a/../../../victim'"));
	assert_int_equal(nr, 0);
	free(files);
}

static void test_drop_hunks_and_normalise(void **state)
{
	char *drops[] = { "mm/a.c:1" };
	struct sk_strbuf out = SK_STRBUF_INIT;

	(void)state;
	assert_int_equal(sk_cocci_drop_hunks(&out, gitdiff, drops, 1), 0);
	assert_null(strstr(out.buf, "+TWO"));
	assert_non_null(strstr(out.buf, "@@ -40 +41 @@\n-x\n\\ No newline"));
	assert_non_null(strstr(out.buf, "rename to new.c\n"));
	assert_non_null(strstr(out.buf, "+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n"));
	sk_strbuf_reset(&out);
	sk_interdiff_normalise(&out, gitdiff);
	assert_null(strstr(out.buf, "\nindex "));
	assert_non_null(strstr(out.buf, "+++ b/mm/a.c\n@@ static int f(void)\n one\n"));
	assert_non_null(strstr(out.buf, "@@\n-x\n"));
	sk_strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_git_diff),
		cmocka_unit_test(test_quilt_diff),
		cmocka_unit_test(test_unsafe_paths),
		cmocka_unit_test(test_rename_copy_paths),
		cmocka_unit_test(test_symlinks),
		cmocka_unit_test(test_hunk_headers),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_paths_and_check),
		cmocka_unit_test(test_apply_not_through_symlink),
		cmocka_unit_test(test_apply_quilt_style),
		cmocka_unit_test(test_patch_parse_quilt_mail),
		cmocka_unit_test(test_queue_paths),
		cmocka_unit_test(test_drop_hunks_and_normalise),
	};

	git_libgit2_init();
	return cmocka_run_group_tests_name("diff", tests, NULL, NULL);
}
