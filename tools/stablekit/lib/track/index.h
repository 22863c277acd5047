#ifndef SK_INDEX_H
#define SK_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <git2.h>

/*
 * The tracking index: per-commit facts cached in sqlite, keyed by commit
 * id, and the ranges (base..tip of each tracked branch) already walked.
 *
 * A commit's message facts (subject, author, upstream references and
 * reverts, Link: and Message-Id:) are stored when a range walk first meets it,
 * from the one read of the commit object the walk makes; its touched paths
 * and patch-id only when a lookup asks for them.  A range whose tip moved
 * forward is walked from the old tip only; a range whose base changed or
 * whose tip was rewound is walked again (the facts of commits already seen
 * are kept).  Filling an empty index is done in bulk (see
 * sk_index_finish), and a range walked whole keeps its members as a
 * sorted run (index-run.c).  The file is a cache: deleting it loses
 * nothing.
 */

struct sk_index;

struct sk_index_commit {
	long long id;
	char oid[41];
	char *subject;
	char *email;
	long long pos;		/* order in the range (older is lower) */
	int kind;		/* sk_upref_kind for by_upstream, else -1 */
};

struct sk_index_list {
	struct sk_index_commit *items;
	size_t nr, alloc;
};

struct sk_index_walk_stats {
	unsigned long walked;	/* commits the walk visited */
	unsigned long parsed;	/* of which were new to the index */
	int rewalked;		/* the stored range was dropped first */
};

/*
 * Opens (creates) the index at path.  A file that is torn (shorter than
 * its header says) or not an index is deleted and rebuilt: then
 * sk_index_warning says so, for the command to print.
 */
int sk_index_open(struct sk_index **out, const char *path);
const char *sk_index_warning(const struct sk_index *idx);
/* Commits what is pending and closes; NULL is fine. */
void sk_index_close(struct sk_index *idx);

/*
 * The commits reachable from tip and not from base, oldest first in
 * topological order (every commit after its parents), from the index's
 * own walk (each commit read once from the packs) without storing
 * anything: a caller that wants them once, not kept as a range.  Each
 * commit's raw object goes to fn (valid during the call only); commits
 * not in the range may be seen too.  SK_EINVALID when base is not an
 * ancestor of tip.  *out is the caller's to free.
 */
typedef void (*sk_index_read_fn)(void *ctx, const git_oid *oid,
				 const char *raw, size_t len);
int sk_index_walk_commits(git_oid **out, size_t *nr, struct sk_index *idx,
			  git_repository *repo, const git_oid *tip,
			  const git_oid *base, sk_index_read_fn fn, void *ctx);

/* Bring range "name" (tip, less everything reachable from base) up to date. */
int sk_index_update_range(long long *range_id, struct sk_index_walk_stats *st,
			  struct sk_index *idx, git_repository *repo,
			  const char *name, const git_oid *tip,
			  const git_oid *base);

/*
 * Ends the filling: on a cold index (the first run), writes the lookup
 * rows kept back, sorted, which is cheaper than row by row.  Call it once
 * the ranges are up to date; the queries call it too.
 */
int sk_index_finish(struct sk_index *idx);

/* 1 if the commit (full hex id) is in the range, 0 if not. */
int sk_index_in_range(struct sk_index *idx, long long range, const char *oid);

/*
 * Queries; range 0 means any commit the index knows.  Results are
 * appended to out, oldest first.
 */
int sk_index_by_prefix(struct sk_index_list *out, struct sk_index *idx,
		       long long range, const char *hex);
int sk_index_by_subject(struct sk_index_list *out, struct sk_index *idx,
			long long range, const char *subject_norm);
int sk_index_by_email(struct sk_index_list *out, struct sk_index *idx,
		      long long range, const char *email);
/* The newest cap commits of the author in the range, newest first. */
int sk_index_by_email_recent(struct sk_index_list *out, struct sk_index *idx,
			     long long range, const char *email, size_t cap);
int sk_index_by_msgid(struct sk_index_list *out, struct sk_index *idx,
		      long long range, const char *msgid);
int sk_index_by_upstream(struct sk_index_list *out, struct sk_index *idx,
			 long long range, const char *oid);
/* The newest cap commits of the range, newest first. */
int sk_index_range_commits(struct sk_index_list *out, struct sk_index *idx,
			   long long range, size_t cap);
/* The same, all of them but those whose rows are in but (sorted). */
int sk_index_range_commits_but(struct sk_index_list *out, struct sk_index *idx,
			       long long range, const long long *but,
			       size_t nr_but);
/*
 * Every upstream reference of the range's commits (picks and reverts),
 * for a caller that looks up many shas: the sha as the commit wrote it
 * (12 to 40 digits), the commit, the kind (sk_upref_kind), the commit's
 * position in the range; oldest first.  *out is the caller's to free.
 */
struct sk_index_upref {
	char upstream[41];
	char oid[41];
	long long id;		/* the commit's row */
	int kind;
	long long pos;
};
int sk_index_range_uprefs(struct sk_index_upref **out, size_t *nr,
			  struct sk_index *idx, long long range);

/* The commits of the range that say "This reverts commit <sha>". */
int sk_index_reverts(struct sk_index_list *out, struct sk_index *idx,
		     long long range);
void sk_index_list_release(struct sk_index_list *l);

/* Lazily computed and cached: the paths a commit touches, its patch-id. */
int sk_index_files(char ***out, size_t *nr, struct sk_index *idx,
		   git_repository *repo, const char *oid);
void sk_index_files_free(char **files, size_t nr);
/*
 * 1 if the commit changes every one of paths against its first parent (a
 * cheap test before sk_index_files: no diff), 0 if not, or an error.
 */
int sk_index_touches_all(struct sk_index *idx, git_repository *repo,
			 const char *oid, char *const *paths, size_t nr);
int sk_index_patchid(char out[41], struct sk_index *idx, git_repository *repo,
		     const char *oid);

/*
 * Computes, over the machine's cores, the patch-ids (SK_INDEX_PATCHID)
 * and touched paths (SK_INDEX_FILES) that the index lacks for these
 * commits, and stores them: sk_index_patchid and sk_index_files then
 * read them without a diff.  A commit it cannot diff is left for those
 * to report; an id the index does not know is skipped.
 */
enum { SK_INDEX_PATCHID = 1, SK_INDEX_FILES = 2 };
int sk_index_prefetch(struct sk_index *idx, git_repository *repo,
		      const char *const *oids, size_t nr,
		      unsigned what);
/* Which of `what` the index lacks for a commit it knows; 0 otherwise. */
unsigned sk_index_lacks(struct sk_index *idx, const char *oid, unsigned what);
/*
 * Stores patch-ids computed elsewhere (pids[i] of oids[i]; an empty one
 * is skipped), in one transaction.
 */
int sk_index_set_patchids(struct sk_index *idx, const char *const *oids,
			  const char (*pids)[41], size_t nr);

/*
 * What comparing a patch with a commit gave, kept so that a run that
 * saw them before reads no diff: key names the patch and the question
 * (sk_index_key of its text).  cover holds pairs (a line of the patch,
 * by its group of equal lines; how many copies the commit has).
 */
struct sk_index_match {
	long long common, nr;
	uint32_t *cover;
	size_t nr_cover;		/* entries (two per pair) */
	char *difference;		/* or NULL */
};

/* 1 and *out if kept, 0 if not (or the commit is not indexed). */
int sk_index_match_get(struct sk_index_match *out, struct sk_index *idx,
		       long long key, const char *oid);
int sk_index_match_set(struct sk_index *idx, long long key, const char *oid,
		       const struct sk_index_match *m);
void sk_index_match_release(struct sk_index_match *m);
/* The index's 64-bit hash of a text, for such keys. */
long long sk_index_key(const char *text);

/* The commits this handle diffed (paths, patch-ids): none when warm. */
unsigned long sk_index_diffs(const struct sk_index *idx);

/* Is anc an ancestor of (or equal to) desc?  Cached. */
int sk_index_is_ancestor(struct sk_index *idx, git_repository *repo,
			 const char *anc, const char *desc);

#endif
