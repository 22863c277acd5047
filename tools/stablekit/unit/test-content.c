/* Unit tests for tracking by content (track/content.c): small trees, each
 * a root commit as a distribution's source import is, and series whose
 * patches landed verbatim, not at all, partly, as another revision, or
 * whose post-image is there only by coincidence. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <git2.h>

#include "track/content.h"
#include "core/fsutil.h"

static git_repository *repo;
static char dir[] = "/tmp/test-content-XXXXXX";

/* A root commit of name=text pairs (NULL-terminated). */
static void tree_of(git_oid *commit, ...)
{
	git_treebuilder *tb;
	git_signature *sig;
	git_tree *tree;
	git_oid blob, tid;
	const char *name, *text;
	va_list ap;

	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	va_start(ap, commit);
	while ((name = va_arg(ap, const char *))) {
		text = va_arg(ap, const char *);
		assert_int_equal(git_blob_create_from_buffer(&blob, repo, text,
							     strlen(text)), 0);
		assert_int_equal(git_treebuilder_insert(NULL, tb, name, &blob,
							GIT_FILEMODE_BLOB), 0);
	}
	va_end(ap);
	assert_int_equal(git_treebuilder_write(&tid, tb), 0);
	assert_int_equal(git_tree_lookup(&tree, repo, &tid), 0);
	assert_int_equal(git_signature_new(&sig, "T", "t@example.org", 1, 0), 0);
	assert_int_equal(git_commit_create_v(commit, repo, NULL, sig, sig,
					     NULL, "import", tree, 0), 0);
	git_signature_free(sig);
	git_tree_free(tree);
	git_treebuilder_free(tb);
}

/* One diff per patch, no fixlets. */
static int check(struct sk_content_series *out, const git_oid *c,
		 const char **patches, size_t nr)
{
	char **steps[8];
	size_t nd[8], i;

	for (i = 0; i < nr; i++) {
		steps[i] = (char **)&patches[i];
		nd[i] = 1;
	}
	return sk_content_check(out, repo, c, steps, nd, nr);
}

#define OLD "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
#define NEW "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nM\nn\n"

static const char *two_hunks =
	"diff --git a/f.c b/f.c\n"
	"--- a/f.c\n"
	"+++ b/f.c\n"
	"@@ -1,7 +1,7 @@\n"
	" a\n b\n c\n-d\n+D\n e\n f\n g\n"
	"@@ -10,5 +10,5 @@\n"
	" j\n k\n l\n-m\n+M\n n\n";

/* The post-image in place: landed by content, every hunk. */
static void test_by_content(void **state)
{
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", NEW, NULL);
	assert_int_equal(check(&s, &c, &two_hunks, 1), 0);
	assert_int_equal(s.landed, 1);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_LANDED);
	assert_true(sk_content_landed(s.patches[0].verdict));
	sk_content_series_release(&s);
}

/* The pre-image in place: it applies, not landed. */
static void test_preimage(void **state)
{
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", OLD, NULL);
	assert_int_equal(check(&s, &c, &two_hunks, 1), 0);
	assert_int_equal(s.landed, 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_PREIMAGE);
	assert_false(sk_content_landed(s.patches[0].verdict));
	sk_content_series_release(&s);
}

/* One hunk there, one not: partial, with the table per hunk. */
static void test_partial(void **state)
{
	struct sk_content_series s;
	struct sk_strbuf t = SK_STRBUF_INIT;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n", NULL);
	assert_int_equal(check(&s, &c, &two_hunks, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_PARTIAL);
	assert_int_equal(s.patches[0].nr_hunks, 2);
	assert_int_equal(s.patches[0].hunks[0].state, SK_HUNK_POST);
	assert_int_equal(s.patches[0].hunks[0].line, 1);
	assert_int_equal(s.patches[0].hunks[1].state, SK_HUNK_PRE);
	sk_content_table(&t, &s.patches[0]);
	assert_string_equal(t.buf, "f.c#1 at 1: post-image\n"
			    "f.c#2 at 10: pre-image\n");
	sk_strbuf_release(&t);
	sk_content_series_release(&s);
}

static const char *adds =
	"diff --git a/g.c b/g.c\n"
	"--- a/g.c\n"
	"+++ b/g.c\n"
	"@@ -1,5 +1,8 @@ int f(void)\n"
	" {\n"
	" \tint x = 0;\n"
	"+\tx += one();\n"
	"+\tx += two();\n"
	"+\tx += three();\n"
	" \tlock();\n"
	" \tunlock();\n"
	" \treturn x;\n"
	"@@ -10,4 +13,6 @@ int g(void)\n"
	" {\n"
	" \tint y = 0;\n"
	"+\ty += four(y);\n"
	"+\ty += five(y);\n"
	" \treturn y;\n"
	" }\n";

#define G_BASE "{\n\tint x = 0;\n\tlock();\n\tunlock();\n\treturn x;\n}\n" \
	"\n/* g */\nint g(void)\n{\n\tint y = 0;\n\treturn y;\n}\n"

/*
 * Most added lines in place, one edited: landed as another revision, with
 * the interdiff between the stored revision and the tree.
 */
static void test_other_revision(void **state)
{
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "g.c", "{\n\tint x = 0;\n\tx += one();\n\tx += two();\n"
		"\tx += three();\n\tlock();\n\tunlock();\n\treturn x;\n}\n"
		"\n/* g */\nint g(void)\n{\n\tint y = 0;\n"
		"\ty += four(y);\n\ty += five_fast(y);\n\treturn y;\n}\n",
		NULL);
	assert_int_equal(check(&s, &c, &adds, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_REVISION);
	assert_int_equal(s.patches[0].added, 5);
	assert_int_equal(s.patches[0].added_found, 4);
	assert_int_equal(s.patches[0].hunks[0].state, SK_HUNK_POST);
	assert_int_equal(s.patches[0].hunks[1].state, SK_HUNK_NEITHER);
	assert_non_null(s.patches[0].interdiff);
	assert_non_null(strstr(s.patches[0].interdiff,
			       "-\ty += five(y);\n+\ty += five_fast(y);\n"));
	/* the hunk that is there verbatim is not in the interdiff */
	assert_null(strstr(s.patches[0].interdiff, "one()"));
	sk_content_series_release(&s);
}

/*
 * Two hunks verbatim, a third rewritten, no old code left: a later
 * revision although most added lines are not there.
 */
static void test_revision_by_hunks(void **state)
{
	static const char *three =
		"diff --git a/h.c b/h.c\n--- a/h.c\n+++ b/h.c\n"
		"@@ -1,3 +1,4 @@\n a1\n a2\n+\tcount_first_thing();\n a3\n"
		"@@ -10,3 +11,4 @@\n b1\n b2\n+\tcount_second_thing();\n b3\n"
		"@@ -20,3 +22,9 @@\n c1\n c2\n"
		"+\tif (counter_is_monotonic(item))\n"
		"+\t\treturn read_monotonic(item);\n"
		"+\tpr_debug(\"counter %d\\n\", item);\n"
		"+\twarn_once_on_negative(item);\n"
		"+\tclamp_the_value(item);\n"
		"+\treturn read_plain_value(item);\n"
		" c3\n";
	struct sk_strbuf t = SK_STRBUF_INIT;
	struct sk_content_series s;
	git_oid c;
	int i;

	(void)state;
	for (i = 1; i <= 24; i++) {
		if (i == 3)
			sk_strbuf_adds(&t, "\tcount_first_thing();\n");
		if (i == 13)
			sk_strbuf_adds(&t, "\tcount_second_thing();\n");
		if (i == 23)
			sk_strbuf_adds(&t, "\treturn read_item_v2(item);\n");
		sk_strbuf_addf(&t, "%c%d\n", "abc"[(i - 1) / 10 < 3 ?
			       (i - 1) / 10 : 2], (i - 1) % 10 + 1);
	}
	tree_of(&c, "h.c", t.buf, NULL);
	assert_int_equal(check(&s, &c, &three, 1), 0);
	assert_int_equal(s.patches[0].hunks[0].state, SK_HUNK_POST);
	assert_int_equal(s.patches[0].hunks[1].state, SK_HUNK_POST);
	assert_int_equal(s.patches[0].hunks[2].state, SK_HUNK_NEITHER);
	assert_int_equal(s.patches[0].added, 8);
	assert_int_equal(s.patches[0].added_found, 2);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_REVISION);
	sk_content_series_release(&s);
	sk_strbuf_release(&t);
}

/* A hunk that removes lines, then one further down (the file shrinks). */
static void test_shrinking_hunks(void **state)
{
	static const char *cut =
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
		"@@ -1,7 +1,4 @@\n a\n b\n c\n-d\n-e\n-f\n g\n"
		"@@ -10,5 +7,5 @@\n j\n k\n l\n-m\n+M\n n\n";
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", OLD, NULL);
	assert_int_equal(check(&s, &c, &cut, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_PREIMAGE);
	sk_content_series_release(&s);
	tree_of(&c, "f.c", "a\nb\nc\ng\nh\ni\nj\nk\nl\nM\nn\n", NULL);
	assert_int_equal(check(&s, &c, &cut, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_LANDED);
	sk_content_series_release(&s);
}

/* Every added line in place, the context around it other: by content. */
static void test_added_lines(void **state)
{
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "g.c", "{\n\tint x = 0;\n\tx += one();\n\tx += two();\n"
		"\tx += three();\n\tlock_irq();\n\tunlock();\n\treturn x;\n}\n"
		"\n/* g */\nint g(void)\n{\n\tint y = 0;\n"
		"\ty += four(y);\n\ty += five(y);\n\treturn y;\n}\n", NULL);
	assert_int_equal(check(&s, &c, &adds, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_LINES);
	assert_int_equal(s.patches[0].hunks[0].state, SK_HUNK_ADDED);
	assert_int_equal(s.patches[0].hunks[1].state, SK_HUNK_POST);
	sk_content_series_release(&s);
}

static const char *p1 =
	"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
	"@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n";
/* needs p1: its context is p1's post-image */
static const char *p2 =
	"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
	"@@ -2,5 +2,5 @@\n b\n c\n D\n-e\n+E\n f\n";
static const char *p3 =
	"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
	"@@ -10,5 +10,5 @@\n j\n k\n l\n-m\n+M\n n\n";

/* A series in order: p2 applies on p1, not on the tree alone. */
static void test_series_in_order(void **state)
{
	const char *series[] = { p1, p2, p3 };
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", OLD, NULL);
	assert_int_equal(check(&s, &c, series, 3), 0);
	assert_int_equal(s.landed, 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_PREIMAGE);
	assert_int_equal(s.patches[1].verdict, SK_CONTENT_PREIMAGE);
	assert_int_equal(s.patches[2].verdict, SK_CONTENT_PREIMAGE);
	sk_content_series_release(&s);
}

/* p1 and p2 landed, p3 not: the landed prefix reverse-applies. */
static void test_landed_prefix(void **state)
{
	const char *series[] = { p1, p2, p3 };
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", "a\nb\nc\nD\nE\nf\ng\nh\ni\nj\nk\nl\nm\nn\n", NULL);
	assert_int_equal(check(&s, &c, series, 3), 0);
	assert_int_equal(s.landed, 2);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_LANDED);
	/* p1's table is read with p2 undone: its own post-image, in place */
	assert_int_equal(s.patches[0].nr_hunks, 1);
	assert_int_equal(s.patches[0].hunks[0].state, SK_HUNK_POST);
	assert_int_equal(s.patches[0].hunks[0].line, 1);
	assert_int_equal(s.patches[1].verdict, SK_CONTENT_LANDED);
	assert_int_equal(s.patches[2].verdict, SK_CONTENT_PREIMAGE);
	sk_content_series_release(&s);
}

/*
 * The tree predates the code the series' first patch fixes; its second
 * patch restores that old code, so its post-image is there, alone: a
 * coincidence, not a landing (series B's patch 2 on 6.12.118).
 */
static void test_coincidence(void **state)
{
	static const char *fix =
		"diff --git a/w.c b/w.c\n--- a/w.c\n+++ b/w.c\n"
		"@@ -1,3 +1,3 @@\n int budget(void)\n"
		"-{ return sum_new(); }\n+{ return sum_new_fixed(); }\n x\n";
	static const char *restore =
		"diff --git a/v.c b/v.c\n--- a/v.c\n+++ b/v.c\n"
		"@@ -1,3 +1,3 @@\n int count(void)\n"
		"-{ return lru_size(); }\n+{ return state_local(); }\n y\n";
	const char *series[] = { fix, restore };
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "w.c", "int budget(void)\n{ return sum_old(); }\nx\n",
		"v.c", "int count(void)\n{ return state_local(); }\ny\n", NULL);
	assert_int_equal(check(&s, &c, series, 2), 0);
	assert_int_equal(s.landed, 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_NEITHER);
	assert_int_equal(s.patches[1].verdict, SK_CONTENT_COINCIDENCE);
	assert_false(sk_content_landed(s.patches[1].verdict));
	sk_content_series_release(&s);
}

/* A new file: present or absent decides, and a missing file is said. */
static void test_new_file(void **state)
{
	static const char *add =
		"diff --git a/n.c b/n.c\nnew file mode 100644\n"
		"--- /dev/null\n+++ b/n.c\n@@ -0,0 +1,2 @@\n+one\n+two\n";
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", OLD, NULL);
	assert_int_equal(check(&s, &c, &add, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_PREIMAGE);
	sk_content_series_release(&s);
	tree_of(&c, "f.c", OLD, "n.c", "one\ntwo\n", NULL);
	assert_int_equal(check(&s, &c, &add, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_LANDED);
	sk_content_series_release(&s);
	tree_of(&c, "x.c", "x\n", NULL);
	assert_int_equal(check(&s, &c, &two_hunks, 1), 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_NEITHER);
	assert_int_equal(s.patches[0].hunks[0].state, SK_HUNK_NOFILE);
	sk_content_series_release(&s);
}

/*
 * A patch whose diff is not stored (its mbox lost, a series.conf alone)
 * proves nothing: an empty series "reverse-applies" on any tree, and
 * must not be called landed.
 */
static void test_no_diff(void **state)
{
	char **steps[2];
	size_t nd[2] = { 0, 1 };
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", NEW, NULL);
	steps[0] = NULL;
	steps[1] = (char **)&two_hunks;
	assert_int_equal(sk_content_check(&s, repo, &c, steps, nd, 2), 0);
	assert_int_equal(s.landed, 0);
	assert_int_equal(s.patches[0].verdict, SK_CONTENT_NONE);
	assert_false(sk_content_landed(s.patches[0].verdict));
	sk_content_series_release(&s);
}

static void test_no_history(void **state)
{
	git_oid c;
	char hex[41];

	(void)state;
	tree_of(&c, "f.c", OLD, NULL);
	git_oid_tostr(hex, sizeof(hex), &c);
	assert_int_equal(sk_content_no_history(repo, hex), 1);
	assert_int_equal(sk_content_no_history(repo, "0000000000000000000000000000000000000000"), 0);
}

static void test_bad_diff(void **state)
{
	static const char *bad = "diff --git a/../x b/../x\n--- a/../x\n"
				 "+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n";
	struct sk_content_series s;
	git_oid c;

	(void)state;
	tree_of(&c, "f.c", OLD, NULL);
	assert_int_not_equal(check(&s, &c, &bad, 1), 0);
	assert_null(s.patches);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_content),
		cmocka_unit_test(test_preimage),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_other_revision),
		cmocka_unit_test(test_added_lines),
		cmocka_unit_test(test_revision_by_hunks),
		cmocka_unit_test(test_shrinking_hunks),
		cmocka_unit_test(test_series_in_order),
		cmocka_unit_test(test_landed_prefix),
		cmocka_unit_test(test_coincidence),
		cmocka_unit_test(test_new_file),
		cmocka_unit_test(test_no_diff),
		cmocka_unit_test(test_no_history),
		cmocka_unit_test(test_bad_diff),
	};
	int ret;

	git_libgit2_init();
	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 1))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_repository_free(repo);
	sk_rmrf(dir);
	git_libgit2_shutdown();
	return ret;
}
