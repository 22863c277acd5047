#include "gate/stats.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = sk_xmalloc((n ? n : 1) * sizeof(*s));

	if (n)
		memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

double sk_stats_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return 0;
	s = sorted_copy(v, n);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double sk_stats_mean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / (double)n : 0;
}

double sk_stats_sqrt(double x)
{
	double r = x > 1 ? x : 1, prev;
	int i;

	if (x <= 0)
		return 0;
	for (i = 0; i < 200; i++) {
		prev = r;
		r = (r + x / r) / 2;
		if (r == prev)
			break;
	}
	return r;
}

double sk_stats_stddev(const double *v, size_t n)
{
	double mean = sk_stats_mean(v, n), ss = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sk_stats_sqrt(ss / (double)(n - 1));
}

void sk_stats_summarize(struct sk_stats_summary *out, const double *v,
			size_t n)
{
	double *s = sorted_copy(v, n);

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (n) {
		out->min = s[0];
		out->max = s[n - 1];
		out->median = sk_stats_median(v, n);
		out->mean = sk_stats_mean(v, n);
		out->stddev = sk_stats_stddev(v, n);
		if (out->mean != 0)
			out->rel_stddev = 100 * out->stddev /
					  (out->mean < 0 ? -out->mean : out->mean);
	}
	free(s);
}

double sk_stats_pct_change(double base, double val)
{
	if (base == 0)
		return val == 0 ? 0 : (val > 0 ? 1e9 : -1e9);
	return 100 * (val - base) / (base < 0 ? -base : base);
}

/* exp(x) by range reduction to |r| <= ln2/2 and a Taylor series. */
static double sk_exp(double x)
{
	const double ln2 = 0.69314718055994530942;
	double r, term = 1, sum = 1, scale = 1;
	long k;
	int i;

	if (x < -700)
		return 0;
	if (x > 700)
		x = 700;
	k = (long)(x / ln2 + (x < 0 ? -0.5 : 0.5));
	r = x - (double)k * ln2;
	for (i = 1; i < 30; i++) {
		term *= r / i;
		sum += term;
	}
	for (; k > 0; k--)
		scale *= 2;
	for (; k < 0; k++)
		scale /= 2;
	return sum * scale;
}

/* P(Z > z): erfc(z / sqrt 2) / 2 (Numerical Recipes' erfcc, 1.2e-7). */
double sk_stats_normal_sf(double z)
{
	double x = z / 1.41421356237309504880;
	double ax = x < 0 ? -x : x, t = 1 / (1 + 0.5 * ax), e;

	e = t * sk_exp(-ax * ax - 1.26551223 + t * (1.00002368 +
		t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
		t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 +
		t * (-0.82215223 + t * 0.17087277)))))))));
	return (x >= 0 ? e : 2 - e) / 2;
}

/*
 * Number of arrangements of m a's and n b's with U_a = u, for every u, by
 * the recurrence f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u).
 */
static double exact_cdf(size_t m, size_t n, size_t u)
{
	size_t umax = m * n, i, j, k, w = umax + 1;
	double *f = sk_xcalloc((m + 1) * (n + 1) * w, sizeof(*f));
	double total = 0, le = 0;

#define F(i, j, k) f[((i) * (n + 1) + (j)) * w + (k)]
	for (i = 0; i <= m; i++) {
		for (j = 0; j <= n; j++) {
			if (!i || !j) {
				F(i, j, 0) = 1;
				continue;
			}
			for (k = 0; k <= i * j; k++)
				F(i, j, k) = (k >= j ? F(i - 1, j, k - j) : 0) +
					     F(i, j - 1, k);
		}
	}
	for (k = 0; k <= umax; k++) {
		total += F(m, n, k);
		if (k <= u)
			le += F(m, n, k);
	}
#undef F
	free(f);
	return le / total;
}

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v,
			  &((const struct ranked *)b)->v);
}

int sk_stats_mann_whitney(struct sk_stats_mwu *out, const double *a, size_t na,
			  const double *b, size_t nb)
{
	size_t n = na + nb, i, j;
	struct ranked *r;
	double rank_a = 0, ties = 0, mu, sigma, diff;
	int has_ties = 0;

	memset(out, 0, sizeof(*out));
	out->p = 1;
	if (!na || !nb)
		return sk_error_set(SK_EINVALID, "mann-whitney: empty sample");
	r = sk_xmalloc(n * sizeof(*r));
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double t, mid;

		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = (double)(j - i);
		mid = (double)(i + j + 1) / 2;	/* ranks i+1..j */
		if (t > 1) {
			has_ties = 1;
			ties += t * t * t - t;
		}
		for (; i < j; i++)
			if (r[i].from_a)
				rank_a += mid;
	}
	free(r);
	out->u_a = rank_a - (double)na * (double)(na + 1) / 2;
	out->u = out->u_a;
	if ((double)na * (double)nb - out->u_a < out->u)
		out->u = (double)na * (double)nb - out->u_a;
	if (!has_ties && na <= 30 && nb <= 30) {
		out->exact = 1;
		out->p = 2 * exact_cdf(na, nb, (size_t)out->u);
	} else {
		mu = (double)na * (double)nb / 2;
		sigma = (double)na * (double)nb / 12 *
			((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
		sigma = sk_stats_sqrt(sigma);
		/* continuity correction, as scipy's default */
		diff = out->u_a - mu;
		diff = diff < 0 ? -diff : diff;
		diff = diff > 0.5 ? diff - 0.5 : 0;
		out->z = sigma > 0 ? diff / sigma : 0;
		out->p = sigma > 0 ? 2 * sk_stats_normal_sf(out->z) : 1;
	}
	if (out->p > 1)
		out->p = 1;
	return 0;
}

double sk_stats_mwu_min_p(size_t na, size_t nb)
{
	double c = 1;
	size_t i;

	if (!na || !nb)
		return 1;
	/* C(na + nb, na), the number of equally likely arrangements */
	for (i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return 2 / c < 1 ? 2 / c : 1;
}
