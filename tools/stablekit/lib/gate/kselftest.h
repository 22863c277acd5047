#ifndef SK_KSELFTEST_H
#define SK_KSELFTEST_H

#include <stddef.h>
#include <jansson.h>
#include "gate/ktap.h"
#include "core/options.h"
#include "gate/qemu.h"

/*
 * The guest side of `stablekit test` and `stablekit gate`: an initramfs of
 * busybox-static, ci/guest/init and a job, booted in QEMU; kselftests built
 * statically from the branch's own tools/testing/selftests and run there;
 * results parsed from the console and compared baseline against patched.
 */
struct sk_guest_opts {
	const char *top;	/* the project: ci/guest/init */
	const char *arch;	/* x86_64 (default), i386, arm64 */
	const char *kernel;	/* image; NULL: firmware only */
	const char *busybox;	/* static, for arch; NULL: /bin/busybox */
	const char *workdir;	/* initramfs.cpio and console.log go here */
	const char *append;	/* kernel command line, added */
	const char *job;	/* text of /stablekit/job: required with a kernel */
	const char *const *files;	/* host files put in /stablekit/ */
	size_t nr_files;
	unsigned int timeout_s, memory_mb, cpus;
	enum sk_qemu_accel accel;
	const struct sk_lava *lava;	/* NULL: QEMU here; else a LAVA job */
	const char *name;	/* the LAVA job's name */
};

/* Assemble the initramfs and boot; out as sk_qemu_boot's. */
int sk_guest_run(struct sk_qemu_result *out, const struct sk_guest_opts *o);

/* The static busybox for an arch, or NULL when there is none here yet. */
const char *sk_guest_busybox(const char *arch);

/*
 * The arches a gate boots and tests, in order (the first also runs the
 * benchmark): [gate] arch lines of the gate config, then those of
 * [gate "<branch>"]; x86_64 and arm64 when the config names none.
 */
#define SK_GATE_MAX_ARCHES 8
struct sk_gate_arches {
	const char *v[SK_GATE_MAX_ARCHES];	/* from the arch table */
	size_t nr;
};

/* path NULL: the default; an unknown arch is SK_EINVALID naming the key. */
int sk_gate_arches(struct sk_gate_arches *out, const char *path,
		   const char *branch);

/*
 * The static busybox a guest of arch boots into (*out, caller frees): the
 * host's for x86_64, else $SK_BUSYBOX_<ARCH> or Debian's busybox-static for
 * that arch, fetched once into <work>/guest (lib/guestland.h).
 */
int sk_guest_userland(char **out, const char *work, const char *arch);

/*
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
 * Compile each test of suite statically for arch from src (a kernel tree)
 * into outdir; the binaries built are appended to out (caller frees the
 * items).  A test that does not compile is reported in skipped as
 * "name: first error line", never silently dropped.
 */
int sk_kselftest_build(struct sk_strlist *out, struct sk_strlist *skipped,
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
char *sk_kselftest_job(const char *dir, const struct sk_strlist *bins,
		       unsigned int timeout_s, unsigned int retries);

/*
 * Results of a console log as JSON: an array of { name, status, reason }
 * over leaf tests, where a test that failed and then passed on retry has
 * status "flaky".  Retries themselves are folded in.
 */
json_t *sk_kselftest_results(const struct sk_ktap *k);

/*
 * The console's KTAP parse errors (lines past the parser's limits, whose
 * results were dropped): { count, first: ["line N: ...", ...] }, or NULL
 * when there were none.
 */
json_t *sk_ktap_errors_json(const struct sk_ktap *k);

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
 * The tally of a comparison: "fail" with a regression, else "pass";
 * *why (caller frees) counts each list.
 */
const char *sk_kselftest_tally(json_t *cmp, char **why);

/* A JSON array of the list's strings. */
json_t *sk_strlist_json(const struct sk_strlist *l);

/* The binaries ("suite/binary") of cmp's regressions, appended to out. */
void sk_kselftest_regressed(struct sk_strlist *out, json_t *cmp);

/*
 * A confirm boot's results (NULL: that side did not run) weighed against
 * cmp's regressions: one that passes with the queue this time, or fails
 * on the baseline too, moves to "flaky" with its reason.  Each keeps what
 * the confirm boots said ("confirm": {baseline, patched}).
 */
void sk_kselftest_confirm(json_t *cmp, json_t *base, json_t *patched);

/*
 * The status of one `stablekit test` run: "pass" only with an ok boot and,
 * when tests ran (results not NULL), at least one result that is not a
 * skip, none failed and every binary built; "not run" when tests were
 * asked for and none gave a result; else "fail".  *why (caller frees) is
 * set for anything but a pass.
 */
const char *sk_test_status(const struct sk_qemu_result *boot, json_t *results,
			   size_t not_built, char **why);

struct sk_bench;

/* usemem built with gcc -static into dir; NULL when it does not build. */
char *sk_bench_build_usemem(const char *top, const char *dir);

/*
 * One boot of ci/guest/bench.sh with env (bench.env lines) on kernel; the
 * runs parsed from its console are appended to out.  Fails when the boot
 * is not ok.
 */
int sk_bench_guest(struct sk_bench *out, const char *top, const char *arch,
		   const char *kernel, const char *usemem, const char *env,
		   const char *dir, const struct sk_lava *lava);

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

/* The JSON of a boot. */
json_t *sk_qemu_result_json(const struct sk_qemu_result *r);

#endif
