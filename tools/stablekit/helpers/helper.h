/*
 * What the guest helpers (usemem, wsbench) share.  Each is built alone,
 * statically, by one gcc run (sk_bench_build_helper), so what they share
 * is a header of static functions, not a library.
 */
#ifndef SK_HELPER_H
#define SK_HELPER_H

#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "64M", "1G", "4096": a size in bytes. */
static inline long long parse_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 0);

	switch (*end) {
	case 'g': case 'G':
		v <<= 10;
		/* fall through */
	case 'm': case 'M':
		v <<= 10;
		/* fall through */
	case 'k': case 'K':
		v <<= 10;
		break;
	}
	return v;
}

#endif
