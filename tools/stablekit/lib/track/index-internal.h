/*
 * What the modules of the tracking index share and nothing else may use:
 * the handle, its prepared statements, the commit graph the walks build,
 * and the calls from one module into another.  index.h stays the only
 * interface the rest of stablekit sees.
 *
 *   index.c        open and close, the schema, the public queries
 *   index-commits.c  commit rows: one by one, or a cold fill's in chunks
 *   index-store.c  a commit's rows; in a cold fill, the store thread and
 *                  the lookup rows kept back, then sorted and written
 *   index-walk.c   the commit graph, the range walk, ancestry from it
 *   index-run.c    sorted runs: a cold fill's lookup rows and a whole
 *                  walk's members, written a page at a time
 *   index-arena.c  memory for many small things, freed together
 *   index-pack.c   whole commits read straight from the pack files
 */
#ifndef SK_INDEX_INTERNAL_H
#define SK_INDEX_INTERNAL_H

#include "track/index.h"
#include "core/strbuf.h"

#include <sqlite3.h>
#include <stdint.h>

enum stmt {
	ST_FIND_ID, ST_INSERT_COMMIT, ST_GET_RANGE,
	ST_INSERT_RANGE, ST_TOUCH_RANGE, ST_OLD_RANGES, ST_UPDATE_RANGE,
	ST_CLEAR_RANGE, ST_INSERT_MEMBER, ST_MEMBERS, ST_COMMIT_ROW,
	ST_COMMIT_CHUNK, ST_INSERT_CHUNK,
	/* the ids of each lookup table's rows */
	ST_BY_PREFIX, ST_BY_SUBJECT, ST_BY_EMAIL, ST_BY_MSGID, ST_BY_UPSTREAM,
	ST_REVERTS,
	ST_ALL_UPREFS,
	ST_GET_FILES, ST_SET_FILES, ST_GET_PATCHID, ST_SET_PATCHID,
	ST_GET_TOUCH, ST_SET_TOUCH, ST_GET_ANC, ST_SET_ANC,
	ST_GET_MATCH, ST_SET_MATCH,
	ST_RUNS, ST_RUN_CHUNK, ST_RUN_INSERT, ST_RUN_CHUNK_INSERT,
	ST_RUN_DROP_CHUNKS, ST_RUN_DROP, ST_NR
};

/* The lookup tables (see the schema in index.c and side_tables). */
enum side {
	SIDE_OIDS, SIDE_SUBJECTS, SIDE_EMAILS, SIDE_UPREFS, SIDE_MSGIDS,
	SIDE_NR
};

/* The lookups a sorted run can hold (see index-run.c). */
enum run_kind {
	RUN_NONE, RUN_OIDS, RUN_SUBJECTS, RUN_EMAILS, RUN_MSGIDS, RUN_MEMBERS,
	RUN_KINDS
};

/*
 * A record of a sorted run: the key (a hash of the text, the first 8
 * bytes of a commit id, or a member's commit row), the commit row, and a
 * value (a member's position).
 */
struct sk_run_rec {
	uint64_t key;
	uint32_t id;
	uint32_t val;
};

struct sk_run_recs {
	struct sk_run_rec *recs;
	size_t nr, alloc;
};

struct run;
struct members;
struct side_row;

/* The rows of a lookup table kept back during a cold fill. */
struct side_rows {
	struct side_row *rows;
	size_t nr, alloc;
};

/*
 * The commits this run has read, with their parents: the range walks
 * share it, and an ancestry question between two commits of one walked
 * range is answered from it without going back to the repository.
 */
struct node {
	git_oid oid;
	unsigned int nr_parents;
	long long time;		/* committer time */
	long long id;		/* row in commits; 0: not known yet */
	struct node **parents;
	struct node *next;	/* the range's list, newest first */
	unsigned int walk;	/* the walk that flags belong to */
	unsigned int flags;
	unsigned int member;	/* first walk that found it in its range */
	unsigned int mark;	/* ancestry search that visited it */
	unsigned int indegree;	/* children in the range being sorted */
	unsigned int reach;	/* bit k: reachable from graph.reach_from[k] */
	unsigned int reach_epoch;	/* the epoch reach belongs to */
	unsigned int parsed:1;
};

struct arena_block;

struct slot {
	size_t tag;		/* the first bytes of n's id */
	struct node *n;
};

/*
 * Commits whose every ancestor in the walked ranges is marked: asked
 * about once more, and one answer costs a bit test, not a search.
 */
#define GRAPH_REACH_MAX 32

struct graph {
	struct slot *slots;	/* open addressing, power of two */
	size_t nr, mask;
	struct arena_block *arena;
	unsigned int walks, marks;
	git_odb *odb;
	struct sk_packs *packs;	/* during a walk */
	struct node **heap;
	size_t heap_nr, heap_alloc;
	size_t interesting;	/* queued and not uninteresting */
	struct node *reach_from[GRAPH_REACH_MAX];
	git_oid *reach_edge[GRAPH_REACH_MAX];	/* the parents outside */
	size_t nr_reach_edge[GRAPH_REACH_MAX];
	unsigned int nr_reach;
	unsigned int reach_epoch;	/* bumped when the marks go stale */
	unsigned int reach_walks;	/* walks when they were made */
};

struct store;
struct sk_commit_raw;

/* A commit's row; the texts are valid until the next row is read. */
struct sk_index_row {
	long long id;
	const unsigned char *oid;	/* 20 bytes */
	const char *subject, *email, *msgids;
};

/* The chunk of commit rows last read (index-commits.c). */
struct commit_chunk {
	long long first;
	size_t nr;		/* 0: none */
	unsigned char *data;
	size_t len, alloc;
};

struct sk_index {
	sqlite3 *db;
	sqlite3_stmt *st[ST_NR];
	sqlite3_stmt *side_one[SIDE_NR];	/* INSERT of one row */
	struct sk_strbuf norm, summary, msg, email;
	struct graph g;
	int bulk;		/* cold fill: lookup rows kept back */
	int was_bulk;		/* journal mode to restore on close */
	long long last_id;	/* cold fill: the last commit id given */
	struct store *store;	/* cold fill: while a walk runs */
	struct side_rows side[SIDE_NR];
	struct arena_block *side_text;	/* their keys and subjects */
	struct sk_run_recs kept[RUN_KINDS];	/* cold fill: for runs */
	struct run **runs;		/* read from the file, on first use */
	size_t nr_runs, alloc_runs;
	int runs_loaded;
	struct commit_chunk chunk;
	struct members *members;	/* ranges read whole, on first use */
	size_t nr_members, alloc_members;
	unsigned long diffs;	/* commits diffed for files or patch-id */
	int no_rows;		/* a walk that stores nothing (walk_commits) */
	sk_index_read_fn on_read;	/* it shows each commit read */
	void *on_read_ctx;
	char *warning;		/* the file was rebuilt: why */
	char *path;		/* for messages */
};

/* index.c: the prepared statements; a commit's row */
/* What sk_index_files and sk_index_patchid compute, touching no index. */
int sk_index__files_text(struct sk_strbuf *sb, git_repository *repo,
			 const char *oid);
int sk_index__patchid_compute(char out[41], git_repository *repo,
			      const char *oid);
/* Forgets the ranges' members read, after a change to them. */
void sk_index__members_forget(struct sk_index *idx);
/* Its row in commits, or 0 if the index does not have it. */
int sk_index__find_id(long long *id, struct sk_index *idx, const git_oid *oid);
int sk_index__db_error(struct sk_index *idx, const char *what);
/* Reset, bindings cleared. */
sqlite3_stmt *sk_index__stmt(struct sk_index *idx, enum stmt which);
void sk_index__bind_text(sqlite3_stmt *s, int i, const char *v);
/* For a value that outlives the statement's next step. */
void sk_index__bind_static(sqlite3_stmt *s, int i, const char *v);
int sk_index__step_done(struct sk_index *idx, sqlite3_stmt *s,
			const char *what);
/* ST_SET_PATCHID or ST_SET_FILES of the commit (row id, hex id). */
int sk_index__set_extra(struct sk_index *idx, enum stmt which, long long id,
			const char *hex, const char *value);

/* index-commits.c: commit rows */
/* 1 with *out, 0 if the index has no row id, or an error. */
int sk_index__commit_row(struct sk_index_row *out, struct sk_index *idx,
			 long long id);
/* A row appended to a chunk being made. */
void sk_index__chunk_add(struct sk_strbuf *chunk, const git_oid *oid,
			 const char *subject, const char *email,
			 const char *msgids);
/* The chunk of nr rows from id first on. */
int sk_index__chunk_write(struct sk_index *idx, long long first, size_t nr,
			  const struct sk_strbuf *chunk);
void sk_index__chunk_forget(struct sk_index *idx);

/* index-arena.c */
void *sk_index__arena_alloc(struct arena_block **arena, size_t size);
char *sk_index__arena_strdup(struct arena_block **arena, const char *s);
void sk_index__arena_free(struct arena_block **arena);

/* index-store.c: a commit's rows, and a cold fill's */
/* The first 8 bytes of a commit id, big-endian: a run's key for it. */
uint64_t sk_index__oid_key(const git_oid *oid);
/* 64-bit FNV-1a of a text, as stored in the lookup tables. */
long long sk_index__text_hash(const char *s);
/* INSERT OR IGNORE of nr rows into a lookup table. */
int sk_index__side_prepare(sqlite3_stmt **out, struct sk_index *idx,
			   enum side which, int nr);
/* Drops the rows kept back, and their texts. */
void sk_index__side_release(struct sk_index *idx);
/* The commit row and its facts, from the raw object; sets n->id. */
int sk_index__store_commit(struct sk_index *idx, struct node *n,
			   const struct sk_commit_raw *raw);
/* A cold fill's store thread, for the length of a walk. */
int sk_index__store_start(struct sk_index *idx);
/* Hands a new commit (n->id given) over to the store thread. */
void sk_index__store_push(struct sk_index *idx, struct node *n,
			  const struct sk_commit_raw *raw);
/* Waits for every row handed over to be written; the thread's error. */
int sk_index__store_stop(struct sk_index *idx);

/* index-run.c: sorted runs */
/* 0, or an error if id or val does not fit the record. */
int sk_index__run_push(struct sk_run_recs *rs, uint64_t key, long long id,
		       long long val);
void sk_index__run_recs_release(struct sk_run_recs *rs);
/* By key, then id; duplicates dropped. */
void sk_index__run_sort(struct sk_run_recs *rs);
int sk_index__run_write(struct sk_index *idx, enum run_kind kind,
			long long range, const struct sk_run_recs *rs);
/* The records with lo <= key <= hi of the runs of kind (and range). */
int sk_index__runs_find(struct sk_run_recs *out, struct sk_index *idx,
			enum run_kind kind, long long range, uint64_t lo,
			uint64_t hi);
typedef void (*sk_index__run_each_fn)(void *data,
				      const struct sk_run_rec *recs, size_t nr);
/* Calls each on those records, as many at a time as a chunk holds. */
int sk_index__runs_scan(struct sk_index *idx, enum run_kind kind,
			long long range, uint64_t lo, uint64_t hi,
			sk_index__run_each_fn each, void *data);
/* Drops the runs of range (members), or with range 0 every run. */
int sk_index__runs_drop(struct sk_index *idx, long long range);
/* Forgets the runs read, to be read again. */
void sk_index__runs_release(struct sk_index *idx);

/* index-pack.c: commits from the pack files, for the walk */
struct sk_packs;
struct sk_packs *sk_index__packs_open(git_repository *repo);
void sk_index__packs_close(struct sk_packs *ps);
/* The .idx entry of a commit read soon, into the cache. */
void sk_index__packs_prefetch(const struct sk_packs *ps, const git_oid *oid);
/* A cold walk: the largest pack's commits inflated ahead on a thread. */
void sk_index__packs_read_ahead(struct sk_packs *ps);
/* The walk is over: the read-ahead stops taking a core from the store. */
void sk_index__packs_stop_ahead(struct sk_packs *ps);
/* 1: *data, *len (until the next call); 0: ask git_odb_read. */
int sk_index__packs_read_commit(const char **data, size_t *len,
				struct sk_packs *ps, const git_oid *oid);

/* index-walk.c: the commit graph */
void sk_index__graph_release(struct graph *g);
/*
 * 1, 0, or -1 when the graph read in this run cannot tell.  When it can
 * only tell that anc is an ancestor of desc if it is one of the commits
 * outside the walked ranges that desc reaches, or one of theirs: -2, with
 * those commits in *edge (owned by the graph), *nr_edge of them.
 */
int sk_index__graph_is_ancestor(struct graph *g, const git_oid *anc,
				const git_oid *desc, const git_oid **edge,
				size_t *nr_edge);

#endif
