#ifndef SK_PORT_RESULTS_H
#define SK_PORT_RESULTS_H

#include <jansson.h>
#include "port/port.h"

/*
 * results/<branch>/port/<series>.json: what one `stablekit port` of a
 * series to a branch did, patch by patch, and the proof (quilt pushed the
 * queue).  Its schema is here and nowhere else: port fills the struct
 * from its sk_port_result and writes it through sk_port_results_write,
 * the report reads it through sk_port_results_read.
 *
 * Strings are NULL where the file has null or nothing; a number that an
 * older or hand-written file may lack has a has_ flag.
 */

struct sk_port_results_hunk {
	char *patch, *path, *method;
	int nr, fuzz;
	long long offset;
	char *rule, *function, *reason;
	char *placement;	/* how it was placed and why there */
	char *landed_in;	/* the definition its changed lines landed in */
};

struct sk_port_results_patch {
	long long nr;
	char *subject, *method, *how;
	char *file;		/* the queue file: NULL unless queued */
	char *reason, *upstream, *kept;
	/* 0: null */
	long long dependency_of, independent_of, blocked_by;
	long long offset, fuzz;	/* the largest of its hunks */
	int has_offset, has_fuzz;
	struct sk_port_results_hunk *hunks;
	size_t nr_hunks;
	int has_hunks;
};

struct sk_port_results_proof {
	char *status;		/* pass, fail, not run */
	char *reason, *command, *compile;
	long long patches;	/* queued and pushed */
	int has_patches;
};

struct sk_port_results {
	char *series, *branch;
	char *target, *no_rules, *compile, *compile_verdict;
	char **kconfig_fragments;	/* the compile check's ci/kconfig */
	size_t nr_kconfig_fragments;
	char *kconfig_from;		/* project, shipped; NULL: none */
	double spatch_seconds;
	int has_spatch_seconds;
	struct sk_port_results_patch *patches;
	size_t nr_patches;
	int has_patches;
	char *queue;			/* stable/<branch> */
	long long failed;		/* patches not ported */
	long long revision;		/* of the series; 0: not known */
	struct sk_port_results_proof proof;
	int has_proof;
	char *error;			/* port stopped: why (port --json) */
};

void sk_port_results_release(struct sk_port_results *r);

/*
 * Fill *out from what port did: r NULL when it stopped before any patch,
 * error its message when it stopped (the proof then fails), revision the
 * series revision it took (0: unknown).
 */
void sk_port_results_from_port(struct sk_port_results *out, const char *slug,
			       const char *branch, const struct sk_port_result *r,
			       long long revision, const char *error);

json_t *sk_port_results_to_json(const struct sk_port_results *r);
json_t *sk_port_results_patch_json(const struct sk_port_results_patch *p);
/* The proof's object; NULL when r has none. */
json_t *sk_port_results_proof_json(const struct sk_port_results *r);

/* Fill *out (zeroed first; released on error) from o, every key typed. */
int sk_port_results_from_json(struct sk_port_results *out, json_t *o,
			      const char *file);

/* Write r to path, atomically. */
int sk_port_results_write(const char *path, const struct sk_port_results *r);

/*
 * Read path: SK_ENOTFOUND "not run: no <path>" when it does not exist,
 * SK_EINVALID "unreadable: <path>..." when it is no JSON or a key holds
 * the wrong type.
 */
int sk_port_results_read(struct sk_port_results *out, const char *path);

/*
 * Did every series the branch takes port?  "<slug>: patch 1 FAILED, patch
 * 2 blocked by 1; <slug>: ..." over results/<branch>/port/<series>.json (a
 * downstream branch takes the series it selects, a stable branch every
 * series ported to it), or NULL.  The build of the branch is then not run
 * (sk_build_opts.not_ported): what the branch should have is not known.
 */
char *sk_port_results_not_ported(const char *top, const char *branch);

#endif
