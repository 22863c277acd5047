#ifndef SK_KSELFTEST_RESULTS_H
#define SK_KSELFTEST_RESULTS_H

#include <jansson.h>

/*
 * The kselftest files beside gate.json, their schema here and nowhere
 * else:
 *   results.json            one `stablekit test` run (one guest boot):
 *                           gate/kselftest-<side>/results.json
 *   kselftest-compare.json  the two sides compared
 *
 * The gate's comparison works on the JSON it builds; it writes both files
 * through sk_kselftest_*_write, which reads the object back through the
 * typed reader first, so a key the gate writes with another name or type
 * than the schema's is an error when written, not a silent "not run" in
 * the report.  The report reads them through sk_kselftest_*_read.
 *
 * Strings are NULL where the file has null or nothing; what an older or
 * hand-written file may lack has a has_ flag.
 */

struct sk_kselftest_entry {
	char *name;		/* "cgroup:test_memcontrol:test_memcg_min" */
	char *status;		/* pass, fail, skip, timeout, missing, flaky, ... */
	char *reason;
	long long retries;	/* failed on every one of them too */
	int has_retries;
};

struct sk_kselftest_count {
	char *status;
	long long n;
};

struct sk_kselftest_run {
	char *arch, *kernel;
	char *status;		/* pass, fail, not run */
	char *reason, *log;
	char *reused;		/* the stored baseline it was copied from */
	char *boot_status, *boot_reason;	/* the boot's verdict */
	int has_boot;
	struct sk_kselftest_entry *results;
	size_t nr_results;
	int has_results;
	struct sk_kselftest_count *counts;	/* by status, as written */
	size_t nr_counts;
	int has_counts;
	char **not_built;	/* "suite/binary: first compiler message" */
	size_t nr_not_built;
	int has_not_built;
	long long parse_errors;	/* console lines KTAP could not read */
	char **first_parse_errors;
	size_t nr_first_parse_errors;
};

/* One test whose status differs (or that failed) between the sides. */
struct sk_kselftest_change {
	char *name;
	char *baseline, *patched;	/* statuses; "absent" */
	char *reason;			/* why a regression was only flaky */
	/* a confirm boot's statuses; NULL: that side's boot never ran */
	char *confirm_baseline, *confirm_patched;
	int has_confirm;
};

struct sk_kselftest_changes {
	struct sk_kselftest_change *v;
	size_t nr;
};

struct sk_kselftest_compare {
	struct sk_kselftest_changes regressions, known_failures, fixed, flaky;
	char **new_tests;
	size_t nr_new_tests;
	/* the confirm boots of the regressed binaries */
	int has_confirm;
	char **confirm_binaries;
	size_t nr_confirm_binaries;
	char *confirm_baseline_status, *confirm_baseline_reason;
	char *confirm_patched_status, *confirm_patched_reason;
};

void sk_kselftest_run_release(struct sk_kselftest_run *r);
void sk_kselftest_compare_release(struct sk_kselftest_compare *c);

int sk_kselftest_run_from_json(struct sk_kselftest_run *out, json_t *o,
			       const char *file);
int sk_kselftest_compare_from_json(struct sk_kselftest_compare *out, json_t *o,
				   const char *file);

/* The report's forms: counts as an object, results and lists as arrays. */
json_t *sk_kselftest_counts_json(const struct sk_kselftest_run *r);
json_t *sk_kselftest_entries_json(const struct sk_kselftest_run *r);
json_t *sk_kselftest_changes_json(const struct sk_kselftest_changes *c);
json_t *sk_kselftest_new_tests_json(const struct sk_kselftest_compare *c);

/*
 * Write o to path atomically once it reads as the schema says; else
 * SK_EINVALID naming the key, and nothing written.
 */
int sk_kselftest_run_write(const char *path, json_t *o);
int sk_kselftest_compare_write(const char *path, json_t *o);

/*
 * Read path: SK_ENOTFOUND "not run: no <path>" when it does not exist,
 * SK_EINVALID "unreadable: <path>..." when it is no JSON or a key holds
 * the wrong type.
 */
int sk_kselftest_run_read(struct sk_kselftest_run *out, const char *path);
int sk_kselftest_compare_read(struct sk_kselftest_compare *out,
			      const char *path);

#endif
