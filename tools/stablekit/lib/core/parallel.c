#include "core/parallel.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct shared {
	const char *path;	/* where the other threads open theirs */
	size_t n;
	sk_parallel_job job;
	sk_parallel_plain_job plain;	/* or this, with no repository */
	void *ctx;
	atomic_size_t next;	/* the next i to take */
	atomic_size_t stop;	/* no i from here on is started */
};

struct worker {
	struct shared *sh;
	pthread_t thread;
	int started;
	size_t failed_at;	/* n when none failed */
	int code;
	char message[1024];
};

unsigned sk_parallel_threads(size_t n, unsigned threads)
{
	long online;
	size_t most;

	if (threads)
		return n && threads > n ? (unsigned)n : threads;
	online = sysconf(_SC_NPROCESSORS_ONLN);
	if (online < 1)
		online = 1;
	if (online > SK_PARALLEL_MAX_THREADS)
		online = SK_PARALLEL_MAX_THREADS;
	most = n / SK_PARALLEL_MIN_SHARE + 1;
	return (size_t)online < most ? (unsigned)online : (unsigned)most;
}

static void lower_stop(struct shared *sh, size_t i)
{
	size_t cur = atomic_load(&sh->stop);

	while (i < cur && !atomic_compare_exchange_weak(&sh->stop, &cur, i))
		;
}

static void run_jobs(struct worker *w, git_repository *repo)
{
	struct shared *sh = w->sh;
	size_t i;

	while ((i = atomic_fetch_add(&sh->next, 1)) < sh->n) {
		int ret;

		if (i >= atomic_load(&sh->stop))
			break;
		ret = sh->plain ? sh->plain(sh->ctx, i) :
		      sh->job(sh->ctx, repo, i);
		if (ret) {
			w->failed_at = i;
			w->code = ret;
			snprintf(w->message, sizeof(w->message), "%s",
				 sk_error_last() ? sk_error_last() : "failed");
			lower_stop(sh, i);
			break;
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	git_repository *repo = NULL;

	if (w->sh->plain) {
		run_jobs(w, NULL);
		return NULL;
	}
	if (git_repository_open_ext(&repo, w->sh->path,
				    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) {
		/* the calling thread takes the jobs this one would have */
		git_error_clear();
		return NULL;
	}
	run_jobs(w, repo);
	git_repository_free(repo);
	return NULL;
}

static int run(struct shared *sh, git_repository *repo, unsigned threads)
{
	size_t n = sh->n;
	unsigned nr = sk_parallel_threads(n, threads), t;
	struct worker *w;
	const struct worker *first = NULL;
	int ret = 0;

	if (!n)
		return 0;
	atomic_init(&sh->next, 0);
	atomic_init(&sh->stop, n);
	w = calloc(nr, sizeof(*w));
	if (!w)
		return sk_error_set(SK_ERROR, "out of memory");
	for (t = 0; t < nr; t++) {
		w[t].sh = sh;
		w[t].failed_at = n;
	}
	for (t = 1; t < nr; t++)
		w[t].started = !pthread_create(&w[t].thread, NULL, worker_main,
					       &w[t]);
	run_jobs(&w[0], repo);
	for (t = 1; t < nr; t++)
		if (w[t].started)
			pthread_join(w[t].thread, NULL);
	for (t = 0; t < nr; t++)
		if (w[t].failed_at < n &&
		    (!first || w[t].failed_at < first->failed_at))
			first = &w[t];
	if (first)
		ret = sk_error_set(first->code, "%s", first->message);
	free(w);
	return ret;
}

int sk_parallel_repo_for(git_repository *repo, size_t n, unsigned threads,
			 sk_parallel_job job, void *ctx)
{
	struct shared sh = {
		.path = git_repository_path(repo), .n = n,
		.job = job, .ctx = ctx,
	};

	return run(&sh, repo, threads);
}

int sk_parallel_for(size_t n, unsigned threads, sk_parallel_plain_job job,
		    void *ctx)
{
	struct shared sh = { .n = n, .plain = job, .ctx = ctx };

	return run(&sh, NULL, threads);
}
