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

#include "core/error.h"
#include "core/fsutil.h"
#include "core/sha256.h"
#include "core/strbuf.h"
#include "project/trees.h"

static char *write_tmp(const char *text)
{
	char *path = sk_xstrdup("/tmp/sk-test-trees-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_sha256_known_vectors(void **state)
{
	char hex[SK_SHA256_HEX];
	char *path = write_tmp("abc");

	(void)state;
	sk_sha256_buf(hex, "", 0);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
			    "27ae41e4649b934ca495991b7852b855");
	assert_int_equal(sk_sha256_file(hex, path), 0);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
			    "b00361a396177a9cb410ff61f20015ad");
	unlink(path);
	free(path);
	assert_int_not_equal(sk_sha256_file(hex, "/nonexistent/x"), 0);
}

#define SHA "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

static const char good[] =
	"[archive]\n\turi = http://deb.example.org/debian\n"
	"\tkeyring = /k.gpg\n"
	"[tree \"6.12.118\"]\n\tbranch = linux-6.12.y\n\tkind = installed\n"
	"\tpackage = linux-source-6.12\n\tdebversion = 6.12.118-1\n"
	"\tfile = /usr/src/l.tar.xz\n\tsize = 3\n\tsha256 = " SHA "\n"
	"[tree \"7.2.13\"]\n\tbranch = linux-7.2.y\n\tkind = deb\n"
	"\tsuite = sid\n\tpackage = linux-source-7.2\n"
	"\tdebversion = 7.2.13-1\n\tfile = l.deb\n\tsize = 3\n"
	"\tsha256 = " SHA "\n";

static void test_trees_load(void **state)
{
	char *path = write_tmp(good);
	struct sk_trees t;
	const struct sk_tree_pin *p;

	(void)state;
	assert_int_equal(sk_trees_load(&t, path), 0);
	assert_int_equal(t.nr, 2);
	assert_string_equal(t.uri, "http://deb.example.org/debian");
	p = sk_trees_find(&t, "linux-7.2.y");
	assert_non_null(p);
	assert_ptr_equal(p, sk_trees_find(&t, "7.2.13"));
	assert_int_equal(p->kind, SK_TREE_DEB);
	assert_string_equal(p->suite, "sid");
	assert_int_equal(p->size, 3);
	assert_string_equal(t.v[0].version, "6.12.118");
	assert_null(sk_trees_find(&t, "7.2"));
	sk_trees_release(&t);
	unlink(path);
	free(path);
}

/* Each broken file fails with a message naming the file and the problem. */
static void test_trees_refused(void **state)
{
	static const struct {
		const char *from, *to, *msg;
	} cases[] = {
		{ "\tsuite = sid\n", "", "tree '7.2.13' has no suite" },
		{ "kind = deb", "kind = rpm", "kind 'rpm' is not" },
		{ "size = 3\n\tsha256 = " SHA "\n[tree \"7.2",
		  "size = x\n\tsha256 = " SHA "\n[tree \"7.2", "size 'x'" },
		{ "file = l.deb", "file = a/l.deb", "a file name, not a path" },
		{ "file = /usr", "file = usr", "absolute path" },
		{ "branch = linux-7.2.y", "branch = linux-6.12.y",
		  "both branch 'linux-6.12.y'" },
		{ "\tkeyring = /k.gpg\n", "", "[archive] needs uri and keyring" },
		{ "[archive]", "[mirror]", "unknown key 'mirror.uri'" },
		{ "\tsuite = sid\n", "\tcolour = red\n", "unknown key 'colour'" },
		{ "ba7816bf", "BA7816BF", "64 lowercase hex" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sk_strbuf text = SK_STRBUF_INIT;
		const char *at = strstr(good, cases[i].from);
		struct sk_trees t;
		char *path;

		assert_non_null(at);
		sk_strbuf_add(&text, good, at - good);
		sk_strbuf_adds(&text, cases[i].to);
		sk_strbuf_adds(&text, at + strlen(cases[i].from));
		path = write_tmp(text.buf);
		assert_int_equal(sk_trees_load(&t, path), SK_EINVALID);
		if (!strstr(sk_error_last(), cases[i].msg) ||
		    !strstr(sk_error_last(), path))
			fail_msg("case %zu: '%s'", i, sk_error_last());
		unlink(path);
		free(path);
		sk_strbuf_release(&text);
	}
}

static void test_trees_verify_file(void **state)
{
	char *path = write_tmp("abc");
	struct sk_tree_pin p = { 0 };

	(void)state;
	p.version = "x";
	p.size = 3;
	p.sha256 = SHA;
	assert_int_equal(sk_trees_verify_file(&p, path), 0);
	p.size = 4;
	assert_int_equal(sk_trees_verify_file(&p, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "is 3 bytes, the pin of tree x says 4"));
	p.size = 3;
	p.sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
	assert_int_equal(sk_trees_verify_file(&p, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "has sha256 " SHA));
	assert_int_equal(sk_trees_verify_file(&p, "/nonexistent/x"), SK_ENOTFOUND);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_known_vectors),
		cmocka_unit_test(test_trees_load),
		cmocka_unit_test(test_trees_refused),
		cmocka_unit_test(test_trees_verify_file),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
