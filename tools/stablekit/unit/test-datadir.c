#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/datadir.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

/* A scratch directory, removed by teardown. */
static int setup(void **state)
{
	char *dir = NULL;

	if (sk_mkdtemp_in(&dir, sk_tmp_dir(), "test-datadir"))
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	sk_rmrf(*state);
	free(*state);
	unsetenv("SK_DATADIR");
	return 0;
}

static void touch(const char *dir, const char *rel)
{
	char *path = sk_path_join(dir, rel), *slash;

	slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(sk_mkdir_p(path, 0755), 0);
	*slash = '/';
	assert_int_equal(sk_write_file_atomic(path, "x\n", 2), 0);
	free(path);
}

/* A unit test runs from build/<dir>/unit/: neither installed nor a checkout's binary. */
static void test_no_env_is_the_install_prefix(void **state)
{
	char *dir;

	(void)state;
	unsetenv("SK_DATADIR");
	dir = sk_datadir();
	assert_string_equal(dir, SK_TEST_PREFIX "/share/stablekit");
	assert_string_equal(sk_datadir_source(), "prefix");
	free(dir);
}

static void test_env_wins(void **state)
{
	char *dir, *path;

	setenv("SK_DATADIR", *state, 1);
	dir = sk_datadir();
	assert_string_equal(dir, *state);
	assert_string_equal(sk_datadir_source(), "SK_DATADIR");
	free(dir);
	/* an empty SK_DATADIR is unset */
	setenv("SK_DATADIR", "", 1);
	assert_string_not_equal(sk_datadir_source(), "SK_DATADIR");
	setenv("SK_DATADIR", *state, 1);
	path = sk_datadir_path("ci/kconfig");
	assert_true(!strncmp(path, *state, strlen(*state)));
	assert_string_equal(path + strlen(*state), "/ci/kconfig");
	free(path);
}

/* The installed layout: Documentation/ and helpers/ at the top. */
static void test_installed_layout(void **state)
{
	char *path, *want;

	touch(*state, "Documentation/stablekit-port.txt");
	setenv("SK_DATADIR", *state, 1);
	path = sk_datadir_path("Documentation/stablekit-port.txt");
	want = sk_path_join(*state, "Documentation/stablekit-port.txt");
	assert_string_equal(path, want);
	free(path);
	free(want);
}

/* A checkout named by SK_DATADIR: its pages are under tools/stablekit/. */
static void test_checkout_layout(void **state)
{
	char *path, *want;

	touch(*state, "tools/stablekit/Documentation/stablekit-port.txt");
	touch(*state, "tools/stablekit/helpers/usemem.c");
	setenv("SK_DATADIR", *state, 1);
	path = sk_datadir_path("Documentation/stablekit-port.txt");
	want = sk_path_join(*state, "tools/stablekit/Documentation/stablekit-port.txt");
	assert_string_equal(path, want);
	free(path);
	free(want);
	path = sk_datadir_path("helpers/usemem.c");
	want = sk_path_join(*state, "tools/stablekit/helpers/usemem.c");
	assert_string_equal(path, want);
	free(path);
	free(want);
	/* ci/ is at the top in both layouts; a name that only starts alike too */
	path = sk_datadir_path("helpers-not/x");
	want = sk_path_join(*state, "helpers-not/x");
	assert_string_equal(path, want);
	free(path);
	free(want);
}

/* The project's own file first, else the shipped one. */
static void test_project_first(void **state)
{
	char *data = sk_path_join(*state, "data"), *top = sk_path_join(*state, "proj");
	char *path, *want;
	int shipped = -1;

	touch(data, "ci/kconfig/mm-series.config");
	setenv("SK_DATADIR", data, 1);
	assert_int_equal(sk_mkdir_p(top, 0755), 0);
	path = sk_datadir_find(top, "ci/kconfig", &shipped);
	want = sk_path_join(data, "ci/kconfig");
	assert_string_equal(path, want);
	assert_int_equal(shipped, 1);
	free(path);
	free(want);
	touch(top, "ci/kconfig/own.config");
	path = sk_datadir_find(top, "ci/kconfig", &shipped);
	want = sk_path_join(top, "ci/kconfig");
	assert_string_equal(path, want);
	assert_int_equal(shipped, 0);
	free(path);
	free(want);
	/* a file the project lacks comes from the data directory */
	path = sk_datadir_find(top, "ci/kconfig/gate-kernel.config", NULL);
	want = sk_path_join(data, "ci/kconfig/gate-kernel.config");
	assert_string_equal(path, want);
	free(path);
	free(want);
	free(data);
	free(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_env_is_the_install_prefix, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_installed_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checkout_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_project_first, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
