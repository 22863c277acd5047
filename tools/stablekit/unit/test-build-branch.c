#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "build/build-branch.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

static char *scratch(void)
{
	char *dir = NULL;

	assert_int_equal(sk_mkdtemp_in(&dir, sk_tmp_dir(), "sk-unit"), 0);
	return dir;
}

static void put(const char *dir, const char *name, const char *text)
{
	char *p = sk_path_join(dir, name);

	assert_int_equal(sk_write_file_atomic(p, text, strlen(text)), 0);
	free(p);
}

static char *get(const char *dir, const char *name)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *p = sk_path_join(dir, name);

	if (sk_read_file(&sb, p)) {
		free(p);
		sk_strbuf_release(&sb);
		return NULL;
	}
	free(p);
	return sk_strbuf_detach(&sb);
}

/*
 * The queue a build reads is a copy taken when it starts: the files of
 * the queue, never what a link points to.
 */
static void test_snapshot(void **state)
{
	char *top = scratch(), *q = sk_path_join(top, "queue");
	char *dest = sk_path_join(top, "copy"), *link, *s;

	(void)state;
	assert_int_equal(sk_mkdir_p(q, 0755), 0);
	put(q, "series", "a.patch\n");
	put(q, "a.patch", "--- a/x\n+++ b/x\n");
	put(top, "outside", "secret\n");
	link = sk_path_join(q, "b.patch");
	assert_int_equal(symlink("../outside", link), 0);
	assert_int_equal(sk_build_branch_snapshot(q, dest), 0);
	s = get(dest, "series");
	assert_string_equal(s, "a.patch\n");
	free(s);
	s = get(dest, "a.patch");
	assert_string_equal(s, "--- a/x\n+++ b/x\n");
	free(s);
	assert_null(get(dest, "b.patch"));

	/* a branch with no queue yet: an empty copy */
	sk_rmrf(dest);
	sk_rmrf(q);
	assert_int_equal(sk_build_branch_snapshot(q, dest), 0);
	assert_true(sk_is_dir(dest));
	assert_null(get(dest, "series"));
	sk_rmrf(top);
	free(link);
	free(q);
	free(dest);
	free(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
