#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "gate/stats.h"

#define assert_near(a, b, eps) \
	assert_true((a) - (b) <= (eps) && (b) - (a) <= (eps))

static void test_summary(void **state)
{
	/* mean 5, squares 32, sample variance 32/7 */
	const double v[] = { 9, 2, 4, 4, 5, 4, 5, 7 };
	struct sk_stats_summary s;

	(void)state;
	assert_near(sk_stats_median(v, 8), 4.5, 1e-12);
	assert_near(sk_stats_median(v, 7), 4, 1e-12);
	assert_near(sk_stats_mean(v, 8), 5, 1e-12);
	assert_near(sk_stats_stddev(v, 8), 2.1380899352993950, 1e-12);
	sk_stats_summarize(&s, v, 8);
	assert_int_equal(s.n, 8);
	assert_near(s.min, 2, 0);
	assert_near(s.max, 9, 0);
	assert_near(s.rel_stddev, 42.761798705987900, 1e-9);
	assert_near(sk_stats_stddev(v, 1), 0, 0);
	assert_near(sk_stats_median(v, 0), 0, 0);
	sk_stats_summarize(&s, v, 0);
	assert_int_equal(s.n, 0);
	assert_near(sk_stats_sqrt(2), 1.4142135623730951, 1e-15);
	assert_near(sk_stats_sqrt(1e-6), 1e-3, 1e-15);
	assert_near(sk_stats_sqrt(1e12), 1e6, 1e-6);
}

static void test_pct_change(void **state)
{
	(void)state;
	assert_near(sk_stats_pct_change(347, 330), -4.8991354466858787, 1e-12);
	assert_near(sk_stats_pct_change(200, 250), 25, 1e-12);
	assert_near(sk_stats_pct_change(-200, -100), 50, 1e-12);
	assert_near(sk_stats_pct_change(0, 0), 0, 0);
	assert_true(sk_stats_pct_change(0, 3) > 1e8);
}

/* Exact p-values checked by enumerating all C(n, k) arrangements. */
static void test_mann_whitney_exact(void **state)
{
	const double lo[] = { 1, 2, 3, 4, 5 }, hi[] = { 6, 7, 8, 9, 10 };
	const double odd[] = { 1, 3, 5, 7, 9 }, even[] = { 2, 4, 6, 8, 10 };
	const double base[] = { 347, 349, 344, 350, 346 };
	const double patched[] = { 300, 305, 298, 302, 310 };
	const double a3[] = { 1.0, 2.5, 4.0 }, b4[] = { 3.0, 5.0, 6.0, 7.0 };
	struct sk_stats_mwu m;

	(void)state;
	assert_int_equal(sk_stats_mann_whitney(&m, lo, 5, hi, 5), 0);
	assert_true(m.exact);
	assert_near(m.u, 0, 0);
	assert_near(m.p, 2.0 / 252, 1e-12);	/* 0.0079 */
	assert_int_equal(sk_stats_mann_whitney(&m, odd, 5, even, 5), 0);
	assert_near(m.u, 10, 0);
	assert_near(m.p, 174.0 / 252, 1e-12);	/* 0.6905 */
	assert_int_equal(sk_stats_mann_whitney(&m, base, 5, patched, 5), 0);
	assert_near(m.u_a, 25, 0);
	assert_near(m.u, 0, 0);
	assert_near(m.p, 2.0 / 252, 1e-12);
	assert_int_equal(sk_stats_mann_whitney(&m, a3, 3, b4, 4), 0);
	assert_near(m.u, 1, 0);
	assert_near(m.p, 0.11428571428571428, 1e-12);	/* 4/35 */
	assert_int_equal(sk_stats_mann_whitney(&m, lo, 1, hi, 1), 0);
	assert_near(m.p, 1, 0);
}

/* With ties: normal approximation, tie-corrected, continuity-corrected. */
static void test_mann_whitney_ties(void **state)
{
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 2, 3, 5, 5, 6 };
	const double same[] = { 5, 5, 5 };
	struct sk_stats_mwu m;

	(void)state;
	assert_int_equal(sk_stats_mann_whitney(&m, a, 5, b, 5), 0);
	assert_false(m.exact);
	assert_near(m.u_a, 4.5, 1e-12);
	assert_near(m.z, 1.5959855297967944, 1e-9);
	assert_near(m.p, 0.11049202405566808, 1e-6);
	assert_int_equal(sk_stats_mann_whitney(&m, same, 3, same, 3), 0);
	assert_near(m.p, 1, 0);
	assert_int_equal(sk_stats_mann_whitney(&m, a, 0, b, 5), SK_EINVALID);
}

static void test_normal_tail(void **state)
{
	(void)state;
	assert_near(sk_stats_normal_sf(0), 0.5, 1e-7);
	assert_near(sk_stats_normal_sf(1.959963984540054), 0.025, 1e-7);
	assert_near(sk_stats_normal_sf(-1), 0.8413447460685429, 1e-7);
	assert_near(sk_stats_normal_sf(3), 0.0013498980316301, 1e-7);
}

static void test_mwu_min_p(void **state)
{
	struct sk_stats_mwu m;
	const double lo[] = { 1, 2, 3, 4 }, hi[] = { 5, 6, 7, 8 };

	(void)state;
	assert_near(sk_stats_mwu_min_p(3, 3), 0.1, 1e-12);
	assert_near(sk_stats_mwu_min_p(4, 4), 2.0 / 70, 1e-12);
	assert_near(sk_stats_mwu_min_p(5, 5), 2.0 / 252, 1e-12);
	assert_near(sk_stats_mwu_min_p(1, 1), 1, 0);
	assert_near(sk_stats_mwu_min_p(0, 4), 1, 0);
	/* the exact test reaches it with complete separation */
	assert_int_equal(sk_stats_mann_whitney(&m, lo, 4, hi, 4), 0);
	assert_near(m.p, sk_stats_mwu_min_p(4, 4), 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_pct_change),
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_normal_tail),
		cmocka_unit_test(test_mwu_min_p),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
