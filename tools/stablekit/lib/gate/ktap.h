#ifndef SK_KTAP_H
#define SK_KTAP_H

#include <stddef.h>
#include <jansson.h>

/*
 * KTAP v1 and TAP 13 (kselftest) results, as they come off a serial
 * console: subtests nested by indentation ("    ", a tab) or by the
 * kselftest runner's "# " prefix, "ok|not ok N desc # SKIP|XFAIL|TIMEOUT",
 * "# Totals:" lines, and kernel log or other garbage interleaved, which is
 * ignored.
 *
 * The console is the guest's, so it is read as hostile: the walk is
 * iterative and bounded.  A line longer than SK_KTAP_LINE_MAX bytes, a
 * structural line nested deeper than SK_KTAP_MAX_DEPTH levels and a result
 * beyond SK_KTAP_MAX_TESTS are parse errors of that line (errors[], "line
 * N: ..."), skipped; a test path longer than SK_KTAP_NAME_MAX bytes is cut
 * there, with an error.  Memory stays proportional to the input.
 */
#define SK_KTAP_LINE_MAX 4096
#define SK_KTAP_MAX_DEPTH 16
#define SK_KTAP_MAX_TESTS 1000000
#define SK_KTAP_NAME_MAX 1024
#define SK_KTAP_MAX_ERRORS 16

enum sk_ktap_status {
	SK_KTAP_PASS = 0,
	SK_KTAP_FAIL,
	SK_KTAP_SKIP,
	SK_KTAP_XFAIL,
	SK_KTAP_TIMEOUT,
	SK_KTAP_MISSING,	/* planned but never reported (a crash) */
	SK_KTAP_NR_STATUS
};

struct sk_ktap_test {
	char *name;		/* path: "cgroup/test_memcontrol/test_memcg_min" */
	char *desc;		/* the description as printed */
	char *reason;		/* the directive's text, or NULL */
	int number;
	int depth;		/* 0: top level */
	int parent;		/* index in tests[], or -1 */
	int nr_subtests;
	enum sk_ktap_status status;
	unsigned int line;	/* 1-based line of the result */
};

struct sk_ktap_totals {
	unsigned int pass, fail, xfail, xpass, skip, error;
};

struct sk_ktap {
	/* In order of the result lines: subtests come before their parent. */
	struct sk_ktap_test *tests;
	size_t nr, alloc;
	int version;		/* KTAP version or TAP version, 0 if none */
	int planned;		/* top-level plan, -1 if none */
	int bailed_out;
	size_t nr_totals;	/* "# Totals:" lines seen, summed into totals */
	struct sk_ktap_totals totals;
	size_t nr_garbage;	/* lines that were neither KTAP nor comments */
	char **errors;		/* the first SK_KTAP_MAX_ERRORS, "line N: ..." */
	size_t nr_errors;	/* all parse errors, kept or not */
};

#define SK_KTAP_INIT { NULL, 0, 0, 0, -1, 0, 0, { 0, 0, 0, 0, 0, 0 }, 0, \
		       NULL, 0 }

/*
 * Parse text (need not be NUL-terminated); never fails on malformed input,
 * which is counted as garbage or, past the limits above, as errors.
 * Top-level tests missing from a plan are added with SK_KTAP_MISSING.
 */
int sk_ktap_parse(struct sk_ktap *out, const char *text, size_t len);
void sk_ktap_release(struct sk_ktap *k);

/* "pass", "fail", "skip", "xfail", "timeout", "missing". */
const char *sk_ktap_status_name(enum sk_ktap_status s);
/* Is this result a failure (fail, timeout, missing)? */
int sk_ktap_status_failed(enum sk_ktap_status s);
/* The test whose name is name, or NULL. */
const struct sk_ktap_test *sk_ktap_find(const struct sk_ktap *k,
					const char *name);
/* Count results by status over leaf tests (those without subtests). */
void sk_ktap_count(const struct sk_ktap *k,
		   unsigned int counts[SK_KTAP_NR_STATUS]);

/*
 * The console's KTAP parse errors (lines past the parser's limits, whose
 * results were dropped, and lines whose invalid UTF-8 was read as U+FFFD):
 * { count, first: ["line N: ...", ...] }, or NULL when there were none.
 */
json_t *sk_ktap_errors_json(const struct sk_ktap *k);

#endif
