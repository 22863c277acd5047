#ifndef SK_BUILD_RESULTS_H
#define SK_BUILD_RESULTS_H

#include <jansson.h>
#include "build/kbuild.h"

/*
 * results/<branch>/build/<mode>/build.json: what one `stablekit build` of
 * a branch found.  Its schema is here and nowhere else: the build fills
 * the struct and writes it through sk_build_results_write, the gate and
 * the report read it through sk_build_results_read.
 *
 * A file holds one of three shapes:
 *   not run     branch, mode, buildable, why (= not_run), not_run,
 *               gate "not run": a series the branch takes did not port
 *   not built   branch, mode, buildable false, why
 *   built       everything below but not_run and why
 * and "results" (where the file is) when the build put it in place.
 *
 * Strings are NULL when the file has null or nothing there; a number
 * that may be missing from an older or hand-written file has a has_
 * flag, so that the report can say null rather than 0.
 */

struct sk_build_results_variant {
	char *status;		/* pass, fail, toolchain-missing, skipped */
	double duration;
	long long warnings, errors;
	int has_duration, has_warnings, has_errors;
	char *note;		/* why skipped or failed early */
	char *results;		/* its directory (metadata.json, build.log) */
	char *image;		/* kernel mode: the bootable image */
};

/* A warning the queue added: a diagnostic, or its text alone. */
struct sk_build_results_warning {
	char *text;		/* a file's plain string form, else NULL */
	struct sk_kbuild_diag diag;
	int allowed;		/* on the allow-list */
};

struct sk_build_results_arch {
	char *arch;
	char *cc;		/* "<cross>gcc" */
	char *toolchain;	/* its --version line; NULL: missing */
	struct sk_build_results_variant baseline, patched;
	struct sk_build_results_warning *new_warnings;
	size_t nr_new_warnings;
	int has_new_warnings;
	int gate_failed;
	char *gate_why;
};

struct sk_build_results {
	char *branch;
	char *mode;		/* objects, kernel */
	int buildable;
	char *why;		/* not built: why */
	char *not_run;		/* not run: why */
	char *tip, *describe;
	char *worktree;
	int worktree_reused;
	double checkout_s;
	char **patches;		/* the queue */
	size_t nr_patches;
	char **files;		/* touched by the queue */
	size_t nr_files;
	char *queue_status;	/* none, applied, apply-failed */
	char *queue_log;
	char *kconfig;		/* defconfig or tinyconfig */
	char *kconfig_from;	/* project or shipped ci/kconfig */
	char **fragments;
	size_t nr_fragments;
	long long parallel, jobs_per_make;
	char *distcc_hosts;
	double duration;
	struct sk_build_results_arch *arches;
	size_t nr_arches;
	char *gate;		/* pass, fail, not run */
	char *results;		/* where the results are, or NULL */
};

void sk_build_results_release(struct sk_build_results *r);
/* Release and free r, allocated; NULL is fine. */
void sk_build_results_free(struct sk_build_results *r);

/* build.json's object of r. */
json_t *sk_build_results_to_json(const struct sk_build_results *r);
/* One new warning as build.json holds it. */
json_t *sk_build_results_warning_json(const struct sk_build_results_warning *w);

/*
 * Fill *out (zeroed first; released on error too) from o, checking the
 * type of every key it knows; SK_EINVALID names file and the key.
 */
int sk_build_results_from_json(struct sk_build_results *out, json_t *o,
			       const char *file);

/* Write r to path, atomically. */
int sk_build_results_write(const char *path, const struct sk_build_results *r);

/*
 * Read path.  SK_ENOTFOUND with the message "not run: no <path>" when it
 * does not exist; SK_EINVALID with "unreadable: <path>..." when it is not
 * JSON ("<path>:<line>: <message>") or a key holds the wrong type
 * ("<path>: key '<key>': expected ...").
 */
int sk_build_results_read(struct sk_build_results *out, const char *path);

/* The arch named arch, or NULL. */
struct sk_build_results_arch *sk_build_results_arch(
	const struct sk_build_results *r, const char *arch);

/* The image of arch's variant ("baseline", "patched"), or NULL. */
const char *sk_build_results_image(const struct sk_build_results *r,
				   const char *arch, const char *variant);

/*
 * Every string of r that is the path from or under it, moved to under
 * to: the results written in a staging directory, as they will be once
 * it is put in place.
 */
void sk_build_results_move(struct sk_build_results *r, const char *from,
			   const char *to);

#endif
