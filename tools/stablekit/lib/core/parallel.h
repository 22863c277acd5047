#ifndef SK_PARALLEL_H
#define SK_PARALLEL_H

#include <stddef.h>
#include <git2.h>

/*
 * Work that reads many objects and writes only its own slot (one diff per
 * commit, one commit's message) spread over the machine's cores.  libgit2
 * may be called from several threads, but not on one repository object at
 * once: each extra thread opens the repository again, the calling thread
 * works with the one it passed.
 *
 * job(ctx, repo, i) runs once for every i below n, in no set order, on up
 * to `threads` threads (0: one per online core, at most
 * SK_PARALLEL_MAX_THREADS, and never more than n / SK_PARALLEL_MIN_SHARE
 * + 1).  A job writes nothing another i reads.
 *
 * Returns 0, or the error of the lowest i that failed, with its message:
 * once one fails, no job with a higher i is started.
 */
#define SK_PARALLEL_MAX_THREADS 8
#define SK_PARALLEL_MIN_SHARE 16

typedef int (*sk_parallel_job)(void *ctx, git_repository *repo, size_t i);

int sk_parallel_repo_for(git_repository *repo, size_t n, unsigned threads,
			 sk_parallel_job job, void *ctx);

/*
 * The same for work that reads no repository (parsing what was read
 * before): no thread opens one, job gets none.
 */
typedef int (*sk_parallel_plain_job)(void *ctx, size_t i);

int sk_parallel_for(size_t n, unsigned threads, sk_parallel_plain_job job,
		    void *ctx);

/* How many threads sk_parallel_repo_for uses for n jobs (threads as there). */
unsigned sk_parallel_threads(size_t n, unsigned threads);

#endif
