/*
 * wsbench: the shadow-node workload of the benchmark gate (series B,
 * "shadow node budget under MGLRU").  A range of a block device (the
 * hot range) is read into the page cache of a child memcg, a cold stream
 * pushes it out under the parent's memory.max, and cachestat(2) then
 * says how many of its pages that left the cache still have a shadow
 * entry: the eviction tokens the shadow shrinker keeps within the budget
 * that count_shadow_nodes() computes.  Each round does it twice: once
 * while the child is alive ("live"), once with the child removed before
 * the stream, so that the range's pages and nodes were reparented to the
 * parent, which keeps some of the child's pages (the filler) cached:
 * the budget should count them ("offlined", the memcg churn).
 *
 *   wsbench -d dev -c cgroup [-H hot] [-C cold] [-F filler] [-O evict]
 *           [-r rounds] [-s settle]
 *
 * hot: the range (8M); cold: the live phase's stream (128M), in the
 * child; filler (4 x hot), read in the child after the offlined phase's
 * range, stays cached; evict (cold / 2; the parent's memory.max is
 * right): the stream in a sibling after the child is gone; settle (3 s):
 * the wait before the pressure, for the memcg stats to be flushed.
 *
 * Prints one line: "wsbench: rounds=R hot_pages=P live_evicted=E
 * live_shadows=S offlined_evicted=E offlined_shadows=S elapsed_s=T";
 * hot_pages is a range's size in pages, evicted counts its pages not
 * cached, shadows those of them with a shadow entry (cachestat's
 * nr_evicted), summed over the rounds.  A
 * block device needs no file system and its page cache is charged to
 * the reader's memcg like a file's; a zram device reads its unwritten
 * pages as zeroes without using memory.  Static-linkable.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451	/* the same on every arch */
#endif

struct cs_range {
	uint64_t off, len;
};

struct cs {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted,
		 nr_recently_evicted;
};

static int read_range(int fd, long long off, long long len)
{
	static char buf[1 << 16];

	while (len > 0) {
		ssize_t n = pread(fd, buf, len < (long long)sizeof(buf) ?
				  (size_t)len : sizeof(buf), off);

		if (n <= 0) {
			fprintf(stderr, "wsbench: read at %lld: %s\n", off,
				n ? strerror(errno) : "end of device");
			return -1;
		}
		off += n;
		len -= n;
	}
	return 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "wsbench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = write(fd, text, strlen(text));
	if (n < 0)
		fprintf(stderr, "wsbench: %s: %s\n", path, strerror(errno));
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Move this process into the cgroup dir. */
static int join(const char *dir)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	return write_file(path, "0\n");
}

/* A range's pages out of the cache, and those with a shadow entry. */
static int sample(int fd, long long off, long long len, long long *evicted,
		  long long *shadows)
{
	struct cs_range r = { (uint64_t)off, (uint64_t)len };
	struct cs c;
	long page = sysconf(_SC_PAGESIZE);

	memset(&c, 0, sizeof(c));
	if (syscall(__NR_cachestat, fd, &r, &c, 0) < 0) {
		fprintf(stderr, "wsbench: cachestat: %s\n", strerror(errno));
		return -1;
	}
	*evicted += len / page - (long long)c.nr_cache;
	*shadows += (long long)c.nr_evicted;
	return 0;
}

struct opts {
	const char *dev, *cg;
	long long hot, cold, filler, evict, size;
	int rounds;
	unsigned int settle;	/* seconds */
};

/* The next len bytes of the device, from the start again at its end. */
static long long take(const struct opts *o, long long *next, long long len)
{
	long long at = *next;

	if (at + len > o->size)
		at = 0;
	*next = at + len;
	return at;
}

/*
 * A range read once is inactive on either LRU, so the cold stream after
 * it evicts it; each phase takes fresh ranges, so that no shadow of an
 * earlier one is counted.
 */
static int phase(const struct opts *o, int fd, long long *next,
		 long long *hot_at)
{
	*hot_at = take(o, next, o->hot);
	return read_range(fd, *hot_at, o->hot);
}

static int round_of(const struct opts *o, int fd, int r, long long *next,
		    long long *v)
{
	char child[512], keep[512];
	long long live, off;

	snprintf(child, sizeof(child), "%s/ws%d", o->cg, r);
	snprintf(keep, sizeof(keep), "%s/keep", o->cg);
	if (mkdir(child, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "wsbench: mkdir %s: %s\n", child,
			strerror(errno));
		return -1;
	}
	/*
	 * live: a range and a cold stream, both in the child; the stream
	 * waits a while after its first quarter, so that the memcg stats the
	 * budget reads (flushed every 2 s, ratelimited) know the child's pages
	 */
	if (join(child) || phase(o, fd, next, &live) ||
	    read_range(fd, take(o, next, o->cold / 4), o->cold / 4))
		return -1;
	sleep(o->settle);
	if (read_range(fd, take(o, next, o->cold - o->cold / 4),
		       o->cold - o->cold / 4) ||
	    sample(fd, live, o->hot, &v[0], &v[1]))
		return -1;
	/*
	 * offlined: a range, then the filler, read in the child; the child
	 * goes, its pages and shadow nodes to the parent; then a stream in
	 * a sibling evicts the parent's oldest pages, the range among them,
	 * while the filler stays: what the parent's budget has to count
	 */
	if (phase(o, fd, next, &off) ||
	    read_range(fd, take(o, next, o->filler), o->filler) || join(keep))
		return -1;
	if (rmdir(child) < 0) {
		fprintf(stderr, "wsbench: rmdir %s: %s\n", child,
			strerror(errno));
		return -1;
	}
	sleep(o->settle);
	if (read_range(fd, take(o, next, o->evict), o->evict) ||
	    sample(fd, off, o->hot, &v[2], &v[3]))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { NULL, NULL, 8LL << 20, 128LL << 20, -1, -1, 0, 2, 3 };
	long long v[4] = { 0, 0, 0, 0 }, next;
	char keep[512];
	double start;
	int opt, fd, r;

	while ((opt = getopt(argc, argv, "d:c:H:C:F:O:r:s:")) != -1) {
		switch (opt) {
		case 'd':
			o.dev = optarg;
			break;
		case 'c':
			o.cg = optarg;
			break;
		case 'H':
			o.hot = parse_size(optarg);
			break;
		case 'C':
			o.cold = parse_size(optarg);
			break;
		case 'F':
			o.filler = parse_size(optarg);
			break;
		case 'O':
			o.evict = parse_size(optarg);
			break;
		case 'r':
			o.rounds = atoi(optarg);
			break;
		case 's':
			o.settle = (unsigned int)atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (o.filler < 0)
		o.filler = 4 * o.hot;
	if (o.evict < 0)
		o.evict = o.cold / 2;
	if (!o.dev || !o.cg || strlen(o.cg) > 400 || o.hot < 4096 ||
	    o.cold < 4096 || o.evict < 4096 || o.rounds < 1)
		goto usage;
	fd = open(o.dev, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "wsbench: %s: %s\n", o.dev, strerror(errno));
		return 1;
	}
	o.size = lseek(fd, 0, SEEK_END);
	if (o.size < 2 * o.hot + o.cold + o.filler + o.evict) {
		fprintf(stderr, "wsbench: %s: %lld bytes, %lld needed\n", o.dev,
			o.size, 2 * o.hot + o.cold + o.filler + o.evict);
		return 1;
	}
	snprintf(keep, sizeof(keep), "%s/keep", o.cg);
	if (mkdir(keep, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "wsbench: mkdir %s: %s\n", keep,
			strerror(errno));
		return 1;
	}
	next = 0;
	start = now();
	for (r = 1; r <= o.rounds; r++)
		if (round_of(&o, fd, r, &next, v))
			return 1;
	printf("wsbench: rounds=%d hot_pages=%lld live_evicted=%lld "
	       "live_shadows=%lld offlined_evicted=%lld offlined_shadows=%lld "
	       "elapsed_s=%.3f\n", o.rounds, o.hot / sysconf(_SC_PAGESIZE),
	       v[0], v[1], v[2], v[3], now() - start);
	return 0;
usage:
	fprintf(stderr, "usage: wsbench -d dev -c cgroup [-H hot] [-C cold] "
		"[-F filler] [-O evict] [-r rounds] [-s settle]\n");
	return 2;
}
