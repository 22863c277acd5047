/* Unit tests for the pure parts of tracking: the state decision, version
 * bounds, commit-message facts, subject normalisation, raw commit objects
 * and their summary, workspace version. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "project/branches.h"
#include "track/commitfacts.h"
#include "core/strbuf.h"
#include "track/track.h"
#include "track/track-lines.h"
#include "project/workspace.h"

static struct sk_track_facts stable(int major, int minor)
{
	struct sk_track_facts f = { 0 };

	f.kind = SK_BRANCH_STABLE;
	f.major = major;
	f.minor = minor;
	f.upstream = 1;		/* mainline has it: test_decide_mainline_first */
	f.mainline = 1;
	return f;
}

/* Stable takes mainline first: needed but not upstream waits. */
static void test_decide_mainline_first(void **state)
{
	struct sk_track_facts f = stable(7, 1);
	struct sk_strbuf why = SK_STRBUF_INIT;

	(void)state;
	f.upstream = 0;
	f.cc_stable = 1;
	assert_int_equal(sk_track_decide(&f, &why), SK_STATE_WAITS);
	assert_string_equal(why.buf, "not upstream yet (mainline-first): no "
			    "mainline commit proves it, and no newer stable "
			    "branch has it; needed once it is upstream (Cc: "
			    "stable)");
	assert_string_equal(sk_state_name(SK_STATE_WAITS), "waits");
	sk_strbuf_reset(&why);
	f.mainline = 0;
	f.has_fixes = f.fixes_resolved = f.fixes_in_branch = 1;
	assert_int_equal(sk_track_decide(&f, &why), SK_STATE_WAITS);
	assert_non_null(strstr(why.buf, "no mainline branch is tracked to "
			       "prove it"));
	assert_non_null(strstr(why.buf, "(its Fixes: target is in the "
			       "branch)"));
	/* what is not needed anyway is said as before */
	f.fixes_in_branch = 0;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NOT_AFFECTED);
	f.fixes_in_branch = 1;
	/* the branch opts out */
	sk_strbuf_reset(&why);
	f.allow_pending = 1;
	assert_int_equal(sk_track_decide(&f, &why), SK_STATE_NEEDED);
	assert_string_equal(why.buf, "its Fixes: target is in the branch; not "
			    "upstream yet, taken as the branch sets "
			    "allow-pending");
	/* upstream by proxy (or mainline): needed */
	f.allow_pending = 0;
	f.upstream = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	/* a downstream branch takes what it selects, upstream or not */
	f.upstream = 0;
	f.kind = SK_BRANCH_DOWNSTREAM;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	f.has_fixes = 0;
	f.cc_stable = 0;
	f.selected = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	sk_strbuf_release(&why);
}

static void test_decide_order(void **state)
{
	struct sk_track_facts f = stable(7, 1);
	struct sk_strbuf why = SK_STRBUF_INIT;

	(void)state;
	assert_int_equal(sk_track_decide(&f, &why), SK_STATE_NOT_ELIGIBLE);
	assert_string_equal(why.buf, "no Fixes: and no Cc: stable");
	f.cc_stable = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	f.has_fixes = 1;
	f.fixes_resolved = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NOT_AFFECTED);
	f.fixes_in_branch = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	f.queued = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_QUEUED);
	f.present = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_PRESENT);
	sk_strbuf_release(&why);
}

/* Reverts and similar commits, in the order of the evidence. */
static void test_decide_reverts(void **state)
{
	struct sk_track_facts f = stable(7, 1), m = { 0 };
	struct sk_strbuf why = SK_STRBUF_INIT;

	(void)state;
	f.cc_stable = 1;
	f.similar = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_SIMILAR);
	f.reverted_upstream = 1;
	assert_int_equal(sk_track_decide(&f, &why), SK_STATE_REVERTED_UPSTREAM);
	assert_string_equal(why.buf, "it was reverted upstream: not a stable candidate");
	f.queued = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_QUEUED);
	f.present = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_REVERTED_UPSTREAM);
	f.reverted_upstream = 0;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_PRESENT);
	f.reverted_here = 1;	/* landed again after a revert */
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_PRESENT);
	f.present = 0;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_REVERTED_HERE);
	assert_string_equal(sk_state_name(SK_STATE_REVERTED_HERE),
			    "reverted on this branch");
	m.kind = SK_BRANCH_MAINLINE;
	m.similar = 1;
	assert_int_equal(sk_track_decide(&m, NULL), SK_STATE_SIMILAR);
	m.reverted_upstream = 1;
	assert_int_equal(sk_track_decide(&m, NULL), SK_STATE_REVERTED_UPSTREAM);
	m.present = 1;
	assert_int_equal(sk_track_decide(&m, NULL), SK_STATE_UPSTREAM);
	sk_strbuf_release(&why);
}

static void test_lines(void **state)
{
	static const char patch[] =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"index 1..2 100644\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1,2 +1,2 @@\n"
		" ctx\n"
		"--- old line\n"
		"+new  line\n"
		"diff --git a/mm/b.c b/mm/b.c\n"
		"--- a/mm/b.c\n"
		"+++ /dev/null\n"
		"@@ -1 +0,0 @@\n"
		"-gone\n"
		"-- \n2.40.0\n";
	static const char commit[] =
		"diff --git a/mm/a.c b/mm/a.c\n"
		"--- a/mm/a.c\n"
		"+++ b/mm/a.c\n"
		"@@ -1 +1,2 @@\n"
		"--- old line\n"
		"+newline\n"
		"+extra\n";
	struct sk_lines a, b;
	struct sk_strbuf sb = SK_STRBUF_INIT;
	unsigned char mark[8] = { 0 };

	(void)state;
	sk_lines_from_patch(&a, patch);
	assert_int_equal(a.nr, 3);
	assert_string_equal(a.items[0], "mm/a.c\t+newline");
	assert_string_equal(a.items[1], "mm/a.c\t---oldline");
	assert_string_equal(a.items[2], "mm/b.c\t-gone");
	sk_lines_from_patch(&b, commit);
	assert_int_equal(sk_lines_common(&a, &b), 2);
	assert_int_equal(sk_lines_cover(&a, &b, mark, 1), 2);
	assert_int_equal(sk_lines_cover(&a, &b, mark, 0), 0);
	sk_lines_difference(&sb, &a, &b);
	assert_string_equal(sb.buf, "mm/a.c: +1 -0 only in the commit; "
			    "mm/b.c: +0 -1 only in the patch");
	sk_lines_difference(&sb, &a, &a);
	assert_string_equal(sb.buf, "none");
	sk_lines_release(&a);
	sk_lines_release(&b);
	sk_strbuf_release(&sb);
}

static void test_decide_unresolved_fixes(void **state)
{
	struct sk_track_facts f = stable(6, 12);
	struct sk_strbuf why = SK_STRBUF_INIT;

	(void)state;
	f.has_fixes = 1;
	f.cc_stable = 1;
	assert_int_equal(sk_track_decide(&f, &why), SK_STATE_NOT_AFFECTED);
	assert_non_null(strstr(why.buf, "not in the repository"));
	sk_strbuf_release(&why);
}

static void test_decide_bound(void **state)
{
	struct sk_track_facts f = stable(7, 1);
	struct sk_strbuf why = SK_STRBUF_INIT;

	(void)state;
	f.cc_stable = 1;
	f.cc_major = 7;
	f.cc_minor = 2;
	assert_int_equal(sk_track_decide(&f, &why), SK_STATE_NOT_ELIGIBLE);
	assert_string_equal(why.buf, "Cc: stable # 7.2.x excludes 7.1");
	f.minor = 2;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	f.major = 8;
	f.minor = 0;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	/* The bound wins over a Fixes: target in the branch. */
	f.major = 6;
	f.minor = 12;
	f.has_fixes = f.fixes_resolved = f.fixes_in_branch = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NOT_ELIGIBLE);
	sk_strbuf_release(&why);
}

static void test_decide_downstream_mainline(void **state)
{
	struct sk_track_facts f = stable(6, 12);

	(void)state;
	f.kind = SK_BRANCH_DOWNSTREAM;
	/* a downstream branch takes stable fixes... */
	f.cc_stable = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	/* ...but not other patches, unless their series is selected */
	f.cc_stable = 0;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NOT_ELIGIBLE);
	f.selected = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_NEEDED);
	f.kind = SK_BRANCH_MAINLINE;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_PENDING);
	f.present = 1;
	assert_int_equal(sk_track_decide(&f, NULL), SK_STATE_UPSTREAM);
	assert_string_equal(sk_state_name(SK_STATE_NOT_AFFECTED),
			    "not affected");
}

static void test_version_parse(void **state)
{
	int a = -1, b = -1;

	(void)state;
	assert_int_equal(sk_version_parse(&a, &b, "v7.1"), 0);
	assert_int_equal(a * 100 + b, 701);
	assert_int_equal(sk_version_parse(&a, &b, "linux-6.12.y"), 0);
	assert_int_equal(a * 100 + b, 612);
	assert_int_equal(sk_version_parse(&a, &b, "v6.12.117"), 0);
	assert_int_equal(a * 100 + b, 612);
	assert_int_equal(sk_version_parse(&a, &b, "queue-6.1"), 0);
	assert_int_equal(a * 100 + b, 601);
	assert_int_not_equal(sk_version_parse(&a, &b, "mainline"), 0);
	assert_int_not_equal(sk_version_parse(&a, &b, "v7"), 0);
	assert_true(sk_version_cmp(6, 12, 7, 1) < 0);
	assert_true(sk_version_cmp(7, 10, 7, 2) > 0);
	assert_int_equal(sk_version_cmp(7, 2, 7, 2), 0);
}

static void test_commit_facts(void **state)
{
	struct sk_commit_facts f;
	const char *msg =
		"mm: fix it\n\n"
		"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n\n"
		"[ Upstream commit ABCDEF0123456789ABCDEF0123456789ABCDEF01 ]\n"
		"Fixes: 7404bd37cfbe (\"mm: workingset: use x\")\n"
		"Link: https://lore.kernel.org/r/20260904-2-hui@linux.dev\n"
		"Link: https://patch.msgid.link/abc@example.org\n"
		"(cherry picked from commit 1111111111112222222222223333333333334444)\n"
		"commit deadbeef upstream.\n";

	(void)state;
	assert_int_equal(sk_commit_facts_parse(&f, msg), 0);
	assert_int_equal(f.nr_uprefs, 3);
	assert_string_equal(f.uprefs[0].sha,
			    "0123456789abcdef0123456789abcdef01234567");
	assert_int_equal(f.uprefs[0].kind, SK_UPREF_COMMIT_UPSTREAM);
	assert_string_equal(f.uprefs[1].sha,
			    "abcdef0123456789abcdef0123456789abcdef01");
	assert_int_equal(f.uprefs[1].kind, SK_UPREF_UPSTREAM_COMMIT);
	assert_int_equal(f.uprefs[2].kind, SK_UPREF_CHERRY_PICK);
	assert_int_equal(f.nr_fixes, 1);
	assert_string_equal(f.fixes[0].sha, "7404bd37cfbe");
	assert_string_equal(f.fixes[0].subject, "mm: workingset: use x");
	assert_int_equal(f.nr_msgids, 2);
	assert_string_equal(f.msgids[0], "20260904-2-hui@linux.dev");
	assert_string_equal(f.msgids[1], "abc@example.org");
	sk_commit_facts_release(&f);
}

static void test_subject_norm(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *e;

	(void)state;
	sk_subject_norm(&sb, "[PATCH v3 2/3] mm: Workingset:  use X.");
	assert_string_equal(sb.buf, "mm: workingset: use x");
	sk_subject_norm(&sb, "UPSTREAM: [fixlet] mm/vmscan: fix");
	assert_string_equal(sb.buf, "mm/vmscan: fix");
	sk_track_queue_name(&sb, "mm: page_alloc: fix foo helper");
	assert_string_equal(sb.buf, "mm-page_alloc-fix-foo-helper");
	e = sk_author_email("Usama Arif <Usama.Arif@Linux.dev>");
	assert_string_equal(e, "usama.arif@linux.dev");
	free(e);
	sk_strbuf_release(&sb);
}

static void test_commit_summary(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	(void)state;
	/* as git_commit_summary(): first paragraph, lines joined */
	sk_commit_summary(&sb, "\n\nmm: fix  it\n\nbody\n");
	assert_string_equal(sb.buf, "mm: fix  it");
	sk_commit_summary(&sb, "mm: a long\n   subject\t\nwrapped\n \t\nbody");
	assert_string_equal(sb.buf, "mm: a long subject wrapped");
	sk_commit_summary(&sb, "one line, no newline  ");
	assert_string_equal(sb.buf, "one line, no newline");
	sk_commit_summary(&sb, "");
	assert_string_equal(sb.buf, "");
	sk_strbuf_release(&sb);
}

static void test_commit_raw(void **state)
{
	static const char merge[] =
		"tree 0123456789012345678901234567890123456789\n"
		"parent 1111111111111111111111111111111111111111\n"
		"parent 2222222222222222222222222222222222222222\n"
		"author A. U. Thor < Thor@Example.ORG > 1700000000 +0100\n"
		"committer C <c@example.org> 1700000123 +0000\n"
		"gpgsig -----BEGIN PGP SIGNATURE-----\n"
		" author not@this.one\n"
		" -----END PGP SIGNATURE-----\n"
		"\n"
		"Merge branch 'x'\n\nbody\n";
	static const char root[] =
		"tree 0123456789012345678901234567890123456789\n"
		"author A <a@b> 1 +0000\n"
		"committer A <a@b> 2 +0000\n";
	struct sk_commit_raw raw;

	(void)state;
	assert_int_equal(sk_commit_raw_parse(&raw, merge, strlen(merge)), 0);
	assert_int_equal(raw.nr_parents, 2);
	assert_memory_equal(raw.parents, "1111111111", 10);
	assert_memory_equal(raw.parents + SK_COMMIT_RAW_PARENT_STRIDE,
			    "2222222222", 10);
	assert_int_equal(raw.email_len, strlen("Thor@Example.ORG"));
	assert_memory_equal(raw.email, "Thor@Example.ORG", raw.email_len);
	/* the name as libgit2 gives it: trimmed, the signature's not read */
	assert_int_equal(raw.name_len, strlen("A. U. Thor"));
	assert_memory_equal(raw.name, "A. U. Thor", raw.name_len);
	assert_int_equal(raw.time, 1700000123);
	assert_int_equal(raw.message_len, strlen("Merge branch 'x'\n\nbody\n"));
	assert_memory_equal(raw.message, "Merge branch 'x'", 16);
	/* a root commit without a message */
	assert_int_equal(sk_commit_raw_parse(&raw, root, strlen(root)), 0);
	assert_int_equal(raw.nr_parents, 0);
	assert_int_equal(raw.name_len, 1);
	assert_memory_equal(raw.name, "A", 1);
	assert_int_equal(raw.time, 2);
	assert_int_equal(raw.message_len, 0);
	/* not a commit */
	assert_int_not_equal(sk_commit_raw_parse(&raw, "blob", 4), 0);
	assert_int_not_equal(sk_commit_raw_parse(&raw, merge, 60), 0);
}

/* A 20-digit date does not overflow: it saturates (UBSan would say). */
static void test_commit_raw_huge_time(void **state)
{
	static const char huge[] =
		"tree 0123456789012345678901234567890123456789\n"
		"author A <a@b> 1 +0000\n"
		"committer A <a@b> 99999999999999999999 +0000\n\nx\n";
	static const char edge[] =
		"tree 0123456789012345678901234567890123456789\n"
		"author A <a@b> 1 +0000\n"
		"committer A <a@b> 9223372036854775807 +0000\n\nx\n";
	struct sk_commit_raw raw;

	(void)state;
	assert_int_equal(sk_commit_raw_parse(&raw, huge, strlen(huge)), 0);
	assert_true(raw.time == LLONG_MAX);
	assert_int_equal(sk_commit_raw_parse(&raw, edge, strlen(edge)), 0);
	assert_true(raw.time == LLONG_MAX);
}

static void test_commit_facts_revert(void **state)
{
	struct sk_commit_facts f;
	const char *msg =
		"Revert \"fs: gamma: fix the race\"\n\n"
		"This reverts commit 0123456789abcdef0123456789abcdef01234567.\n"
		"\n"
		"(cherry picked from commit 1111111111112222222222223333333333334444)\n";

	(void)state;
	assert_int_equal(sk_commit_facts_parse(&f, msg), 0);
	assert_int_equal(f.nr_uprefs, 2);
	assert_string_equal(f.uprefs[0].sha,
			    "0123456789abcdef0123456789abcdef01234567");
	assert_int_equal(f.uprefs[0].kind, SK_UPREF_REVERT);
	assert_false(SK_UPREF_IS_COPY(f.uprefs[0].kind));
	assert_true(SK_UPREF_IS_COPY(f.uprefs[1].kind));
	assert_string_equal(sk_upref_kind_name(SK_UPREF_REVERT),
			    "This reverts commit <sha>.");
	sk_commit_facts_release(&f);
}

static void test_kernel_version(void **state)
{
	char *v = NULL;

	(void)state;
	assert_int_equal(sk_workspace_kernel_version(&v,
		"# SPDX\nVERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\n"
		"EXTRAVERSION =\nNAME = Baby Opossum Posse\n"), 0);
	assert_string_equal(v, "6.12.117");
	free(v);
	assert_int_equal(sk_workspace_kernel_version(&v,
		"VERSION = 7\nPATCHLEVEL = 1\nSUBLEVEL = 0\n"), 0);
	assert_string_equal(v, "7.1");
	free(v);
	assert_int_not_equal(sk_workspace_kernel_version(&v, "all:\n"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_order),
		cmocka_unit_test(test_decide_mainline_first),
		cmocka_unit_test(test_decide_unresolved_fixes),
		cmocka_unit_test(test_decide_reverts),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_decide_bound),
		cmocka_unit_test(test_decide_downstream_mainline),
		cmocka_unit_test(test_version_parse),
		cmocka_unit_test(test_commit_facts),
		cmocka_unit_test(test_subject_norm),
		cmocka_unit_test(test_commit_summary),
		cmocka_unit_test(test_commit_raw),
		cmocka_unit_test(test_commit_raw_huge_time),
		cmocka_unit_test(test_commit_facts_revert),
		cmocka_unit_test(test_kernel_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
