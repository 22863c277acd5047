#ifndef SK_STATUS_RESULTS_H
#define SK_STATUS_RESULTS_H

#include <jansson.h>
#include "track/stale.h"
#include "track/track.h"

/*
 * Where every patch stands on every branch, as `stablekit status --json`
 * prints it, `stablekit report` keeps it (<results>/status.json) and the
 * report reads it: a branch's tree, its column of the matrix, its kind
 * (stable@ in Cc:).  The schema is here and nowhere else: status fills the
 * struct from a tracking run, writes it through sk_status_results_to_json,
 * and the report reads the struct; whoever has only the file reads it
 * through sk_status_results_from_json.
 *
 * Strings are NULL where the file has null or nothing.
 */

struct sk_status_results_branch {
	char *name, *ref, *kind;
	char *version;		/* "7.2"; NULL: not known */
	char *base, *tip;	/* NULL: not resolved */
	char **arches;
	size_t nr_arches;
	char *problem;		/* why it was not tracked; NULL: tracked */
};

struct sk_status_results_upstream {
	char *commit, *subject;
	char *match;		/* which evidence matched it */
	char *proof;		/* sk_proof_name() */
	char *reverted_by;	/* NULL: not reverted upstream */
};

struct sk_status_results_similar {
	char *commit, *subject;
	char *difference;	/* per file: the lines only in one side */
	char *reverted_by;
};

/* One patch on one branch. */
struct sk_status_results_cell {
	char *state;		/* sk_state_name(); NULL: the file had none */
	char **evidence;	/* most decisive first */
	size_t nr_evidence;
	char **commits;
	size_t nr_commits;
	char **deps;		/* "slug:N", the patches it needs first */
	size_t nr_deps;
	int differs_from_upstream;
	char *upstream_by_proxy;	/* the newer stable branch; NULL: none */
};

struct sk_status_results_patch {
	char *id;		/* "slug:N" */
	char *series;
	long long version, nr;
	char *subject, *author;
	struct sk_status_results_upstream *upstream;
	size_t nr_upstream;
	struct sk_status_results_similar *similar;
	size_t nr_similar;
	/* one per branch, in the order of branches */
	struct sk_status_results_cell *cells;
};

struct sk_status_results {
	char *repository;
	struct sk_status_results_branch *branches;
	size_t nr_branches;
	struct sk_status_results_patch *patches;
	size_t nr_patches;
	struct sk_stale_list stale;
};

void sk_status_results_release(struct sk_status_results *r);

/*
 * Fill *out from a tracking run on repo; the stale queues are port's to
 * find (port/port-stale.h: sk_port_stale_find into out->stale).
 */
void sk_status_results_from_track(struct sk_status_results *out,
				  const struct sk_track *t, const char *repo);
void sk_status_results_cell_from_track(struct sk_status_results_cell *out,
				       const struct sk_track_patch *tp,
				       const struct sk_track_cell *c);
void sk_status_results_cell_release(struct sk_status_results_cell *c);

json_t *sk_status_results_to_json(const struct sk_status_results *r);
json_t *sk_status_results_cell_json(const struct sk_status_results_cell *c);

/*
 * Read o (the contents of file, named in errors) into *out, which the
 * caller releases also on error; SK_EINVALID naming the file and the key
 * when a key holds another type, a branch is listed twice, or a cell names
 * a branch the file does not list.
 */
int sk_status_results_from_json(struct sk_status_results *out, json_t *o,
				const char *file);

/* The branch named name, or NULL. */
const struct sk_status_results_branch *
sk_status_results_branch(const struct sk_status_results *r, const char *name);

/* The index of that branch in r->branches (and each patch's cells), or -1. */
long sk_status_results_branch_index(const struct sk_status_results *r,
				    const char *name);

#endif
