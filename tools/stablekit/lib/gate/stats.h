#ifndef SK_STATS_H
#define SK_STATS_H

#include <stddef.h>

/*
 * The statistics of the benchmark gate, as 0-day/LKP reports them: median,
 * mean, sample standard deviation, %change, and the Mann-Whitney U test
 * for "is patched different from baseline" (exact for small samples
 * without ties, normal approximation with tie correction otherwise).
 * Self-contained: no libm.
 */
struct sk_stats_summary {
	size_t n;
	double median, mean, stddev, min, max;
	double rel_stddev;	/* stddev / mean in percent, 0 if mean is 0 */
};

double sk_stats_median(const double *v, size_t n);
double sk_stats_mean(const double *v, size_t n);
/* Sample standard deviation (n - 1); 0 for fewer than two values. */
double sk_stats_stddev(const double *v, size_t n);
void sk_stats_summarize(struct sk_stats_summary *out, const double *v,
			size_t n);
/* 100 * (val - base) / base; 0 when both are 0, +-1e9 when only base is. */
double sk_stats_pct_change(double base, double val);

struct sk_stats_mwu {
	double u;		/* min(U_a, U_b) */
	double u_a;		/* U of the first sample */
	double z;		/* normal approximation's z (0 when exact) */
	double p;		/* two-sided p-value */
	int exact;
};

/*
 * Two-sided Mann-Whitney U test of a against b.  Returns SK_EINVALID when
 * either sample is empty.
 */
int sk_stats_mann_whitney(struct sk_stats_mwu *out, const double *a, size_t na,
			  const double *b, size_t nb);

/*
 * The smallest two-sided p the exact test can give for samples of na and
 * nb: 2 / C(na + nb, na).  With 3 and 3 it is 0.1, so no difference can
 * be significant at 0.05.
 */
double sk_stats_mwu_min_p(size_t na, size_t nb);

/* Square root and standard normal upper tail, for callers without libm. */
double sk_stats_sqrt(double x);
double sk_stats_normal_sf(double z);

#endif
