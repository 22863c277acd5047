#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <git2.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "core/parallel.h"

#define NR 1000

static char dir[] = "/tmp/sk-parallel-XXXXXX";
static git_repository *repo;
static git_oid blobs[NR];

struct run {
	atomic_int done[NR];
	_Atomic(git_repository *) seen[SK_PARALLEL_MAX_THREADS + 1];
	atomic_int nr_seen;
	size_t fail_a, fail_b;	/* NR: none */
};

/* Reads blob i through the repository it was given, as a diff job would. */
static int read_blob(void *ctx, git_repository *r, size_t i)
{
	struct run *run = ctx;
	git_blob *b = NULL;
	char want[32];
	int k, n;

	if (i == run->fail_a || i == run->fail_b)
		return sk_error_set(SK_ENOTFOUND, "job %zu failed", i);
	if (git_blob_lookup(&b, r, &blobs[i]))
		return sk_error_git(SK_ERROR, "blob");
	snprintf(want, sizeof(want), "blob %zu\n", i);
	if (git_blob_rawsize(b) != strlen(want) ||
	    memcmp(git_blob_rawcontent(b), want, strlen(want))) {
		git_blob_free(b);
		return sk_error_set(SK_ERROR, "blob %zu reads wrong", i);
	}
	git_blob_free(b);
	atomic_fetch_add(&run->done[i], 1);
	n = atomic_load(&run->nr_seen);
	for (k = 0; k < n && run->seen[k] != r; k++)
		;
	if (k == n && n < SK_PARALLEL_MAX_THREADS + 1) {
		/* only ever added to by the one thread that owns r */
		k = atomic_fetch_add(&run->nr_seen, 1);
		run->seen[k] = r;
	}
	return 0;
}

static struct run *new_run(void)
{
	struct run *run = calloc(1, sizeof(*run));

	assert_non_null(run);
	run->fail_a = run->fail_b = NR;
	return run;
}

static void test_every_job_once(void **state)
{
	unsigned threads[] = { 1, 2, 4 };
	size_t t, i;

	(void)state;
	for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
		struct run *run = new_run();
		int k, own = 0;

		assert_int_equal(sk_parallel_repo_for(repo, NR, threads[t],
						      read_blob, run), 0);
		for (i = 0; i < NR; i++)
			assert_int_equal(run->done[i], 1);
		/* each thread its own repository; the caller's among them */
		assert_true(run->nr_seen >= 1);
		assert_true(run->nr_seen <= (int)threads[t]);
		for (k = 0; k < run->nr_seen; k++)
			own += run->seen[k] == repo;
		assert_true(own <= 1);
		free(run);
	}
}

static void test_lowest_failure_reported(void **state)
{
	unsigned threads[] = { 1, 3 };
	size_t t, i;

	(void)state;
	for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
		struct run *run = new_run();

		run->fail_a = 700;
		run->fail_b = 300;
		assert_int_equal(sk_parallel_repo_for(repo, NR, threads[t],
						      read_blob, run),
				 SK_ENOTFOUND);
		assert_string_equal(sk_error_last(), "job 300 failed");
		/* every job below the failure ran */
		for (i = 0; i < 300; i++)
			assert_int_equal(run->done[i], 1);
		free(run);
	}
}

/* The same without a repository: none is opened, none is passed. */
static int count_plain(void *ctx, size_t i)
{
	struct run *run = ctx;

	if (i == run->fail_a || i == run->fail_b)
		return sk_error_set(SK_ENOTFOUND, "job %zu failed", i);
	atomic_fetch_add(&run->done[i], 1);
	return 0;
}

static void test_plain_jobs(void **state)
{
	unsigned threads[] = { 1, 2, 4 };
	size_t t, i;

	(void)state;
	for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
		struct run *run = new_run();

		assert_int_equal(sk_parallel_for(NR, threads[t], count_plain,
						 run), 0);
		for (i = 0; i < NR; i++)
			assert_int_equal(run->done[i], 1);
		run->fail_a = 500;
		run->fail_b = 200;
		assert_int_equal(sk_parallel_for(NR, threads[t], count_plain,
						 run), SK_ENOTFOUND);
		assert_string_equal(sk_error_last(), "job 200 failed");
		sk_error_clear();
		free(run);
	}
	assert_int_equal(sk_parallel_for(0, 2, count_plain, NULL), 0);
}

static void test_thread_count(void **state)
{
	(void)state;
	assert_int_equal(sk_parallel_threads(0, 3), 3);
	assert_int_equal(sk_parallel_threads(2, 3), 2);
	assert_int_equal(sk_parallel_threads(1, 0), 1);
	/* a handful of jobs is not worth a thread */
	assert_int_equal(sk_parallel_threads(SK_PARALLEL_MIN_SHARE - 1, 0), 1);
	assert_true(sk_parallel_threads(100000, 0) >= 1);
	assert_true(sk_parallel_threads(100000, 0) <= SK_PARALLEL_MAX_THREADS);
	assert_int_equal(sk_parallel_repo_for(repo, 0, 4, read_blob, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_job_once),
		cmocka_unit_test(test_lowest_failure_reported),
		cmocka_unit_test(test_plain_jobs),
		cmocka_unit_test(test_thread_count),
	};
	char text[32];
	size_t i;
	int ret;

	if (!mkdtemp(dir))
		return 1;
	git_libgit2_init();
	if (git_repository_init(&repo, dir, 1))
		return 1;
	for (i = 0; i < NR; i++) {
		snprintf(text, sizeof(text), "blob %zu\n", i);
		if (git_blob_create_from_buffer(&blobs[i], repo, text,
						strlen(text)))
			return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_repository_free(repo);
	git_libgit2_shutdown();
	sk_rmrf(dir);
	return ret;
}
