/*
 * usemem: the benchmark gate's workload, after vm-scalability's usemem.
 * N workers each map an anonymous region and write one byte in pages picked
 * by a seeded PRNG, a fixed number of times: the work is the same every
 * run, so reclaim counters per 1000 pages scanned are comparable.  Run in
 * a memcg smaller than the working set, it drives reclaim and swap.
 * With -D (churn) the pages are written in order and the region is
 * zapped (MADV_DONTNEED) after each pass, so that every touch is a fault
 * with its charge and memcg stat updates and no reclaim: the stat-update
 * fast path that series B's patches 1 and 3 change.
 *
 *   usemem [-D] [-n workers] [-s size[KMG]] [-t touches] [-S seed]
 *
 * Prints one line: "usemem: workers=N size=B touches=T pages=P
 * elapsed_s=E pages_per_s=R".  Static-linkable (gcc -static).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"

static uint64_t next(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int worker(size_t size, long long touches, uint64_t seed, int churn)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = size / (size_t)page;
	char *p;
	long long i;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("usemem: mmap");
		return 1;
	}
	madvise(p, size, MADV_NOHUGEPAGE);
	if (!seed)
		seed = 1;
	for (i = 0; i < touches && churn; i++) {
		p[(size_t)(i % (long long)pages) * (size_t)page] = (char)i;
		if ((size_t)(i % (long long)pages) == pages - 1 &&
		    madvise(p, size, MADV_DONTNEED)) {
			perror("usemem: madvise");
			return 1;
		}
	}
	for (i = 0; i < touches && !churn; i++)
		p[(next(&seed) % pages) * (size_t)page] = (char)i;
	munmap(p, size);
	return 0;
}

int main(int argc, char **argv)
{
	int workers = 1, opt, i, failed = 0, churn = 0;
	long long size = 256LL << 20, touches = 200000;
	uint64_t seed = 42;
	double start, elapsed;

	while ((opt = getopt(argc, argv, "Dn:s:t:S:")) != -1) {
		switch (opt) {
		case 'D':
			churn = 1;
			break;
		case 'n':
			workers = atoi(optarg);
			break;
		case 's':
			size = parse_size(optarg);
			break;
		case 't':
			touches = atoll(optarg);
			break;
		case 'S':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: usemem [-D] [-n workers] [-s size] "
				"[-t touches] [-S seed]\n");
			return 2;
		}
	}
	if (workers < 1 || size < 4096 || touches < 0) {
		fprintf(stderr, "usemem: bad arguments\n");
		return 2;
	}
	start = now();
	for (i = 0; i < workers; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("usemem: fork");
			return 1;
		}
		if (!pid)
			_exit(worker((size_t)size, touches,
				     seed + (uint64_t)i, churn));
	}
	for (i = 0; i < workers; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed = 1;
	}
	elapsed = now() - start;
	printf("usemem: workers=%d size=%lld touches=%lld pages=%lld "
	       "elapsed_s=%.3f pages_per_s=%.0f\n", workers, size, touches,
	       touches * workers, elapsed,
	       elapsed > 0 ? (double)(touches * workers) / elapsed : 0);
	return failed;
}
