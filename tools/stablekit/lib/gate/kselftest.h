#ifndef SK_KSELFTEST_H
#define SK_KSELFTEST_H

#include <stddef.h>
#include <jansson.h>
#include "core/options.h"
#include "gate/ktap.h"

/*
 * kselftests built statically from the branch's own
 * tools/testing/selftests, run in a guest, results parsed from the console
 * and compared baseline against patched.
 *
 * A suite: "cgroup" or "mm", the binaries, the extra sources, and the
 * optimisation its own Makefile builds with: the cgroup tests' allocation
 * loops (malloc, touch, free) are dead stores that gcc -O2 removes, and
 * test_memcg_max and the OOM tests then see no allocation at all.
 */
struct sk_kselftest_suite {
	const char *dir;
	const char *const *tests;
	const char *const *extra;	/* compiled into every test */
	const char *optimize;		/* "-O0" (none in the Makefile), "-O2" */
};

/* The suites of this project, by name; NULL when unknown. */
const struct sk_kselftest_suite *sk_kselftest_suite(const char *name);

/*
 * The compiler arguments a suite's binaries need beside their own source,
 * for its directory tdir as the tree has it: the suite's helper sources
 * where they are (the suite's directory, or lib/ since the cgroup tests
 * moved cgroup_util.c there, 6.15) and -I<tdir>/lib/include when that
 * exists (their kselftest Makefile's lib/libcgroup.mk).  Appended to out.
 */
void sk_kselftest_suite_args(struct sk_strvec *out, const char *tdir,
			     const struct sk_kselftest_suite *suite);

/*
 * Compile each test of suite statically for arch from src (a kernel tree)
 * into outdir; the binaries built are appended to out (caller frees the
 * items).  A test that does not compile is reported in skipped as
 * "name: first error line", never silently dropped.
 */
int sk_kselftest_build(struct sk_strvec *out, struct sk_strvec *skipped,
		       const struct sk_kselftest_suite *suite,
		       const char *src, const char *arch,
		       const char *outdir);

/*
 * The job script that runs the binaries (basenames under /stablekit;
 * the suite is the name of the directory each was built in, else dir) as
 * the kselftest runner does (TAP 13, "# "-prefixed output, TIMEOUT after
 * timeout_s), retrying a failed binary retries times as
 * "<test>-retry<N>".
 */
char *sk_kselftest_job(const char *dir, const struct sk_strvec *bins,
		       unsigned int timeout_s, unsigned int retries);

/*
 * Results of a console log as JSON: an array of { name, status, reason }
 * over leaf tests, where a test that failed and then passed on retry has
 * status "flaky".  Retries themselves are folded in.
 */
json_t *sk_kselftest_results(const struct sk_ktap *k);

/*
 * Compare baseline and patched result arrays: { regressions: [...],
 * known_failures: [...], fixed: [...], flaky: [...], new_tests: [...] }.
 * A regression fails only with the queue; a known failure fails in both.
 */
json_t *sk_kselftest_compare(json_t *base, json_t *patched);

/*
 * The gate's kselftest verdict: "not run" when either side has no result
 * array, an empty one, or only skips (nothing compared is no pass);
 * otherwise the comparison (*cmp, caller frees) decides, "fail" with a
 * regression, else "pass".  *why (caller frees) always says why.
 */
const char *sk_kselftest_verdict(json_t *base, json_t *patched, json_t **cmp,
				 char **why);

/*
 * The verdict st (with *why) once the binaries that did not build are
 * counted (base_nb, patched_nb: kselftest.not_built, "suite/binary: why"
 * each).  A binary built on the baseline but not with the queue is the
 * queue's doing: "fail".  One not built on the baseline ran no test on
 * either side: a pass over the rest is "not run", never "pass".  A "fail"
 * stays one.  *why is replaced when the status changes.
 */
const char *sk_kselftest_not_built(json_t *base_nb, json_t *patched_nb,
				   const char *st, char **why);

/*
 * Why the stored kselftest results at path (a baseline's results.json)
 * are not worth reusing: unreadable, or binaries that did not build (they
 * compare nothing).  NULL when they are; else caller frees.
 */
char *sk_kselftest_stored_unbuilt(const char *path);

/*
 * The tally of a comparison: "fail" with a regression, else "pass";
 * *why (caller frees) counts each list.
 */
const char *sk_kselftest_tally(json_t *cmp, char **why);

/* ".../kselftest/cgroup/test_x" is in suite "cgroup"; else dflt. */
char *sk_kselftest_suite_of(const char *bin, const char *dflt);

/* Is this result status a failure (fail, timeout, missing)? */
int sk_kselftest_failed(const char *status);
/* How many results there are; *not_skipped: how many are not skips. */
size_t sk_kselftest_ran(json_t *results, size_t *not_skipped);

/* The binaries ("suite/binary") of cmp's regressions, appended to out. */
void sk_kselftest_regressed(struct sk_strvec *out, json_t *cmp);

/*
 * A confirm boot's results (NULL: that side did not run) weighed against
 * cmp's regressions: one that passes with the queue this time, or fails
 * on the baseline too, moves to "flaky" with its reason.  Each keeps what
 * the confirm boots said ("confirm": {baseline, patched}).
 */
void sk_kselftest_confirm(json_t *cmp, json_t *base, json_t *patched);

#endif
