#ifndef SK_TEST_H
#define SK_TEST_H

#include <stddef.h>
#include <jansson.h>
#include "gate/guest.h"

/*
 * The status of one `stablekit test` run: "pass" only with an ok boot and,
 * when tests ran (results not NULL), at least one result that is not a
 * skip, none failed and every binary built; "not run" when tests were
 * asked for and none gave a result; else "fail".  *why (caller frees) is
 * set for anything but a pass.
 */
const char *sk_test_status(const struct sk_boot_result *boot, json_t *results,
			   size_t not_built, char **why);

/* One `stablekit test` run: kselftests built, a boot, the results. */
struct sk_test_opts {
	struct sk_guest_opts guest;	/* workdir: the results directory */
	const char *src;	/* kernel tree for kselftests; NULL: boot only */
	const char *const *suites;	/* NULL-terminated; NULL: cgroup */
	unsigned int test_timeout_s;	/* per binary; 0: 300 */
	unsigned int retries;	/* of a failed binary */
	const char *const *only;	/* "suite/binary" names; NULL: all */
};

/*
 * Build, boot, parse; *out is the result object (see stablekit-test(1)),
 * also written to <workdir>/results.json.  Returns 0 when the run got as
 * far as a verdict (out's "status" says pass or fail), negative when it
 * could not run at all (out says "not run: <why>").
 */
int sk_test_run(json_t **out, const struct sk_test_opts *o);

#endif
