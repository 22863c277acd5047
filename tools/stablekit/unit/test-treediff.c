#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <git2.h>

#include "core/fsutil.h"
#include "core/strbuf.h"
#include "core/treediff.h"

static git_repository *repo;
static char *dir;

/* A tree of (path, mode, text) triples, NULL-terminated. */
static git_tree *tree_of(const char *first, ...)
{
	git_index *idx = NULL;
	git_oid id;
	git_tree *t = NULL;
	const char *path;
	va_list ap;

	assert_int_equal(git_index_new(&idx), 0);
	va_start(ap, first);
	for (path = first; path; path = va_arg(ap, const char *)) {
		unsigned int mode = va_arg(ap, unsigned int);
		const char *text = va_arg(ap, const char *);
		git_index_entry e;

		memset(&e, 0, sizeof(e));
		e.path = path;
		e.mode = mode;
		assert_int_equal(git_blob_create_from_buffer(&e.id, repo, text,
							     strlen(text)), 0);
		assert_int_equal(git_index_add(idx, &e), 0);
	}
	va_end(ap);
	assert_int_equal(git_index_write_tree_to(&id, idx, repo), 0);
	assert_int_equal(git_tree_lookup(&t, repo, &id), 0);
	git_index_free(idx);
	return t;
}

static git_tree *old_tree(void)
{
	return tree_of("a.txt", 0100644, "1\n",
		       "dir/x.c", 0100644, "x\n",
		       "dir/sub/y.c", 0100644, "y\n",
		       "same/z.c", 0100644, "z\n",
		       "foo", 0100644, "a file\n",
		       "mode.sh", 0100644, "m\n",
		       "gone/k.c", 0100644, "k\n",
		       "gone/deeper/l.c", 0100644, "l\n",
		       NULL);
}

static git_tree *new_tree(void)
{
	return tree_of("a.txt", 0100644, "2\n",
		       "dir/x.c", 0100644, "x\n",
		       "dir/sub/y.c", 0100644, "Y\n",
		       "dir/new.c", 0100644, "n\n",
		       "same/z.c", 0100644, "z\n",
		       "foo/inner.c", 0100644, "now a folder\n",
		       "foo.c", 0100644, "beside it\n",
		       "mode.sh", 0100755, "m\n",
		       "added/q.c", 0100644, "q\n",
		       "added/r/s.c", 0100644, "s\n",
		       NULL);
}

static int setup(void **state)
{
	(void)state;
	git_libgit2_init();
	assert_int_equal(sk_mkdtemp_in(&dir, "/tmp", "test-treediff"), 0);
	assert_int_equal(git_repository_init(&repo, dir, 1), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	git_repository_free(repo);
	sk_rmrf(dir);
	free(dir);
	git_libgit2_shutdown();
	return 0;
}

/* The same files, in the same order, as libgit2's diff of the trees. */
static void test_changes_are_libgit2s(void **state)
{
	git_tree *a = old_tree(), *b = new_tree();
	struct sk_tree_changes c = { 0 };
	git_diff *d = NULL;
	size_t i;

	(void)state;
	assert_int_equal(sk_tree_changes(&c, repo, a, b, 0), 0);
	assert_int_equal(git_diff_tree_to_tree(&d, repo, a, b, NULL), 0);
	assert_int_equal(c.nr, git_diff_num_deltas(d));
	for (i = 0; i < c.nr; i++) {
		const git_diff_delta *e = git_diff_get_delta(d, i);

		assert_string_equal(c.items[i].path, e->new_file.path);
		assert_int_equal(!c.items[i].old_mode, e->status == GIT_DELTA_ADDED);
		assert_int_equal(!c.items[i].new_mode, e->status == GIT_DELTA_DELETED);
		if (c.items[i].old_mode)
			assert_true(git_oid_equal(&c.items[i].old_id, &e->old_file.id));
		if (c.items[i].new_mode)
			assert_true(git_oid_equal(&c.items[i].new_id, &e->new_file.id));
	}
	/* the unchanged subtrees are not in it */
	for (i = 0; i < c.nr; i++)
		assert_null(strstr(c.items[i].path, "same/"));
	git_diff_free(d);
	sk_tree_changes_release(&c);
	git_tree_free(a);
	git_tree_free(b);
}

/* A root commit: every file added. */
static void test_root(void **state)
{
	git_tree *b = new_tree();
	struct sk_tree_changes c = { 0 };

	(void)state;
	assert_int_equal(sk_tree_changes(&c, repo, NULL, b, 0), 0);
	assert_int_equal(c.nr, 10);
	assert_string_equal(c.items[0].path, "a.txt");
	assert_int_equal(c.items[0].old_mode, 0);
	sk_tree_changes_release(&c);
	git_tree_free(b);
}

static void test_max(void **state)
{
	git_tree *a = old_tree(), *b = new_tree();
	struct sk_tree_changes c = { 0 };

	(void)state;
	assert_int_equal(sk_tree_changes(&c, repo, a, b, 3), 1);
	assert_int_equal(c.nr, 3);
	sk_tree_changes_release(&c);
	git_tree_free(a);
	git_tree_free(b);
}

static void diff_text(struct sk_strbuf *out, git_diff *d)
{
	git_buf buf = { 0 };

	assert_int_equal(git_diff_to_buf(&buf, d, GIT_DIFF_FORMAT_PATCH), 0);
	sk_strbuf_add(out, buf.ptr, buf.size);
	git_buf_dispose(&buf);
}

/* The limited diff prints as the whole one, renames found alike. */
static void test_tree_diff_is_the_whole_diff(void **state)
{
	git_tree *a = old_tree(), *b = new_tree();
	struct sk_strbuf x = SK_STRBUF_INIT, y = SK_STRBUF_INIT;
	git_diff *whole = NULL, *limited = NULL;
	git_diff_options o;

	(void)state;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_INDENT_HEURISTIC;
	assert_int_equal(git_diff_tree_to_tree(&whole, repo, a, b, &o), 0);
	assert_int_equal(sk_tree_diff(&limited, repo, a, b, &o), 0);
	assert_int_equal(git_diff_find_similar(whole, NULL), 0);
	assert_int_equal(git_diff_find_similar(limited, NULL), 0);
	diff_text(&x, whole);
	diff_text(&y, limited);
	assert_true(x.len > 0);
	assert_string_equal(x.buf, y.buf);
	git_diff_free(whole);
	git_diff_free(limited);
	sk_strbuf_release(&x);
	sk_strbuf_release(&y);
	git_tree_free(a);
	git_tree_free(b);
}

/* Nothing differs: an empty diff, not the trees read whole. */
static void test_tree_diff_of_equal_trees(void **state)
{
	git_tree *a = old_tree(), *b = old_tree();
	git_diff *d = NULL;

	(void)state;
	assert_int_equal(sk_tree_diff(&d, repo, a, b, NULL), 0);
	assert_int_equal(git_diff_num_deltas(d), 0);
	git_diff_free(d);
	git_tree_free(a);
	git_tree_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_changes_are_libgit2s),
		cmocka_unit_test(test_root),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_tree_diff_is_the_whole_diff),
		cmocka_unit_test(test_tree_diff_of_equal_trees),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
