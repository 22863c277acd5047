#include "index.h"
#include "commitfacts.h"
#include "error.h"
#include "patchid.h"
#include "strbuf.h"

#include <ctype.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA_VERSION 4

/*
 * The schema, in one place.  Commit ids are 20-byte blobs.  Every lookup
 * (by id, subject, author, Message-Id, upstream reference, Fixes:) is a
 * table keyed by what is looked up, without rowid, so that a cold fill
 * (an empty index) can keep those rows back, sort them in memory and
 * append them in key order at the end: far cheaper than keeping random
 * order B-trees up to date commit by commit, or than CREATE INDEX.
 */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS commits ("
	" id INTEGER PRIMARY KEY, oid BLOB NOT NULL, subject TEXT,"
	" email TEXT, patch_id TEXT, files TEXT);"
	"CREATE TABLE IF NOT EXISTS oids ("
	" oid BLOB NOT NULL PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS subjects ("
	" h INTEGER NOT NULL, id INTEGER NOT NULL,"
	" PRIMARY KEY (h, id)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS emails ("
	" h INTEGER NOT NULL, id INTEGER NOT NULL,"
	" PRIMARY KEY (h, id)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS uprefs ("
	" upstream TEXT NOT NULL, id INTEGER NOT NULL, kind INTEGER,"
	" PRIMARY KEY (upstream, id)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS msgids ("
	" h INTEGER NOT NULL, id INTEGER NOT NULL, msgid TEXT NOT NULL,"
	" PRIMARY KEY (h, id, msgid)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS fixes ("
	" sha TEXT NOT NULL, id INTEGER NOT NULL, subject TEXT,"
	" PRIMARY KEY (sha, id)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS ranges ("
	" id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, base TEXT,"
	" tip TEXT, next_pos INTEGER NOT NULL DEFAULT 1);"
	"CREATE TABLE IF NOT EXISTS range_commits ("
	" range_id INTEGER NOT NULL, commit_id INTEGER NOT NULL,"
	" pos INTEGER NOT NULL, PRIMARY KEY (range_id, commit_id))"
	" WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS range_commits_pos"
	" ON range_commits(range_id, pos);"
	"CREATE TABLE IF NOT EXISTS ancestry ("
	" anc TEXT NOT NULL, desc TEXT NOT NULL, yes INTEGER NOT NULL,"
	" PRIMARY KEY (anc, desc)) WITHOUT ROWID;";

static const char drop[] =
	"DROP TABLE IF EXISTS commits; DROP TABLE IF EXISTS oids;"
	"DROP TABLE IF EXISTS subjects; DROP TABLE IF EXISTS emails;"
	"DROP TABLE IF EXISTS uprefs; DROP TABLE IF EXISTS msgids;"
	"DROP TABLE IF EXISTS fixes; DROP TABLE IF EXISTS ranges;"
	"DROP TABLE IF EXISTS range_commits; DROP TABLE IF EXISTS ancestry;";

/*
 * The lookup tables: rows (key, id[, extra]) kept back in a cold fill.
 * Subjects (normalised), authors and Message-Ids are keyed by a 64-bit
 * hash of the text, the match checked on the text itself: small keys,
 * sorted as integers.
 */
enum side {
	SIDE_OIDS, SIDE_SUBJECTS, SIDE_EMAILS, SIDE_UPREFS, SIDE_MSGIDS,
	SIDE_FIXES, SIDE_NR
};

enum side_key {
	KEY_BLOB,		/* a commit id */
	KEY_TEXT,		/* the text */
	KEY_HASH,		/* the hash of the text */
	KEY_HASH_TEXT,		/* the hash, the id, then the text */
};

static const struct side_table {
	const char *name, *cols;
	int nr_cols;
	enum side_key key;
	int int_extra;		/* the third column: kind, else subject */
} side_tables[SIDE_NR] = {
	[SIDE_OIDS] = { "oids", "oid, id", 2, KEY_BLOB, 0 },
	[SIDE_SUBJECTS] = { "subjects", "h, id", 2, KEY_HASH, 0 },
	[SIDE_EMAILS] = { "emails", "h, id", 2, KEY_HASH, 0 },
	[SIDE_UPREFS] = { "uprefs", "upstream, id, kind", 3, KEY_TEXT, 1 },
	[SIDE_MSGIDS] = { "msgids", "h, id, msgid", 3, KEY_HASH_TEXT, 0 },
	[SIDE_FIXES] = { "fixes", "sha, id, subject", 3, KEY_TEXT, 0 },
};

/* Rows per INSERT when the kept-back rows go in. */
#define SIDE_BATCH 64

/* Every commit column a query returns, then the position in the range. */
#define COLS "c.id, c.oid, c.subject, c.email"
/*
 * The commits of lookup table t (alias a) matching cond: any commit the
 * index knows (no position), or those of range ?1, oldest first.  Within
 * a range, only the ids between the range's least and greatest can be
 * members: a bound the lookup's key (text, id) cuts with (the commits of
 * a branch were mostly numbered together); then the range is checked
 * before the commit row is read (CROSS JOIN keeps that order).
 */
#define LOOKUP(extra, t, a, cond) \
	"SELECT " COLS ", NULL, " extra " FROM " t " " a \
	" CROSS JOIN commits c ON c.id = " a ".id WHERE " cond
#define LOOKUP_IN(extra, t, a, cond) \
	"SELECT " COLS ", r.pos, " extra \
	" FROM " t " " a " CROSS JOIN range_commits r" \
	" ON r.commit_id = " a ".id AND r.range_id = ?1" \
	" CROSS JOIN commits c ON c.id = " a ".id" \
	" WHERE " cond " AND " a ".id BETWEEN" \
	" (SELECT min(commit_id) FROM range_commits WHERE range_id = ?1) AND" \
	" (SELECT max(commit_id) FROM range_commits WHERE range_id = ?1)" \
	" ORDER BY r.pos"

enum stmt {
	ST_FIND_ID, ST_INSERT_COMMIT, ST_INSERT_COMMIT_ID, ST_GET_RANGE,
	ST_INSERT_RANGE, ST_UPDATE_RANGE, ST_CLEAR_RANGE, ST_INSERT_MEMBER,
	ST_IN_RANGE,
	/* each lookup, then the same within a range */
	ST_BY_PREFIX, ST_BY_PREFIX_IN, ST_BY_SUBJECT, ST_BY_SUBJECT_IN,
	ST_BY_EMAIL, ST_BY_EMAIL_IN, ST_BY_MSGID, ST_BY_MSGID_IN,
	ST_BY_UPSTREAM, ST_BY_UPSTREAM_IN,
	ST_WINDOW, ST_GET_FILES, ST_SET_FILES, ST_GET_PATCHID, ST_SET_PATCHID,
	ST_GET_ANC, ST_SET_ANC, ST_NR
};

static const char *const stmt_sql[ST_NR] = {
	[ST_FIND_ID] = "SELECT id FROM oids WHERE oid = ?1",
	[ST_INSERT_COMMIT] = "INSERT INTO commits (oid, subject, email)"
		" VALUES (?1, ?2, ?3)",
	[ST_INSERT_COMMIT_ID] = "INSERT INTO commits (id, oid, subject, email)"
		" VALUES (?1, ?2, ?3, ?4)",
	[ST_GET_RANGE] = "SELECT id, base, tip, next_pos FROM ranges"
		" WHERE name = ?1",
	[ST_INSERT_RANGE] = "INSERT INTO ranges (name) VALUES (?1)",
	[ST_UPDATE_RANGE] = "UPDATE ranges SET base = ?2, tip = ?3,"
		" next_pos = ?4 WHERE id = ?1",
	[ST_CLEAR_RANGE] = "DELETE FROM range_commits WHERE range_id = ?1",
	[ST_INSERT_MEMBER] = "INSERT OR IGNORE INTO range_commits"
		" (range_id, commit_id, pos) VALUES (?1, ?2, ?3)",
	[ST_IN_RANGE] = "SELECT 1 FROM oids o JOIN range_commits r"
		" ON r.commit_id = o.id WHERE r.range_id = ?1 AND o.oid = ?2",
#define PREFIX "o.oid BETWEEN ?2 AND ?3"
#define UPSTREAM "u.upstream BETWEEN substr(?2, 1, 12) AND ?2" \
	" AND substr(?2, 1, length(u.upstream)) = u.upstream"
	[ST_BY_PREFIX] = LOOKUP("-1", "oids", "o", PREFIX),
	[ST_BY_PREFIX_IN] = LOOKUP_IN("-1", "oids", "o", PREFIX),
#define EMAIL "e.h = ?3 AND c.email = ?2"
#define MSGID "m.h = ?3 AND m.msgid = ?2"
	/* the subject itself is compared after the query (see collect) */
	[ST_BY_SUBJECT] = LOOKUP("-1", "subjects", "s", "s.h = ?3"),
	[ST_BY_SUBJECT_IN] = LOOKUP_IN("-1", "subjects", "s", "s.h = ?3"),
	[ST_BY_EMAIL] = LOOKUP("-1", "emails", "e", EMAIL),
	[ST_BY_EMAIL_IN] = LOOKUP_IN("-1", "emails", "e", EMAIL),
	[ST_BY_MSGID] = LOOKUP("-1", "msgids", "m", MSGID),
	[ST_BY_MSGID_IN] = LOOKUP_IN("-1", "msgids", "m", MSGID),
	[ST_BY_UPSTREAM] = LOOKUP("u.kind", "uprefs", "u", UPSTREAM),
	[ST_BY_UPSTREAM_IN] = LOOKUP_IN("u.kind", "uprefs", "u", UPSTREAM),
	[ST_WINDOW] = "SELECT " COLS ", r.pos, -1 FROM range_commits r"
		" JOIN commits c ON c.id = r.commit_id WHERE r.range_id = ?1"
		" AND r.pos BETWEEN ?3 AND ?4 AND (?2 IS NULL OR c.email = ?2)"
		" ORDER BY r.pos",
	[ST_GET_FILES] = "SELECT c.files FROM oids o JOIN commits c"
		" ON c.id = o.id WHERE o.oid = ?1",
	[ST_SET_FILES] = "UPDATE commits SET files = ?2"
		" WHERE id = (SELECT id FROM oids WHERE oid = ?1)",
	[ST_GET_PATCHID] = "SELECT c.patch_id FROM oids o JOIN commits c"
		" ON c.id = o.id WHERE o.oid = ?1",
	[ST_SET_PATCHID] = "UPDATE commits SET patch_id = ?2"
		" WHERE id = (SELECT id FROM oids WHERE oid = ?1)",
	[ST_GET_ANC] = "SELECT yes FROM ancestry WHERE anc = ?1 AND desc = ?2",
	[ST_SET_ANC] = "INSERT OR REPLACE INTO ancestry (anc, desc, yes)"
		" VALUES (?1, ?2, ?3)",
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
	unsigned int parsed:1;
};

enum {
	SEEN = 1 << 0,		/* queued once in this walk */
	UNINTERESTING = 1 << 1,	/* reachable from the base or the old tip */
	QUEUED = 1 << 2,	/* in the date queue now */
	IN_RANGE_LIST = 1 << 3,	/* kept for the range */
};

/* Memory for many small things freed together: few, large allocations. */
struct arena_block {
	struct arena_block *prev;
	size_t used, size;
	char data[];
};

struct graph {
	struct node **slots;	/* open addressing, power of two */
	size_t nr, mask;
	struct arena_block *arena;
	unsigned int walks, marks;
	git_odb *odb;
	struct node **heap;
	size_t heap_nr, heap_alloc;
	size_t interesting;	/* queued and not uninteresting */
};

/* A row of a lookup table kept back during a cold fill. */
struct side_row {
	long long h;		/* the hash, or the key's first 8 bytes */
	char *key;		/* text; 20 bytes for SIDE_OIDS; NULL */
	long long id;
	union {
		char *subject;	/* SIDE_FIXES */
		long long kind;	/* SIDE_UPREFS */
	};
};

struct side_rows {
	struct side_row *rows;
	size_t nr, alloc;
};

/*
 * A cold fill stores on a thread of its own: the walk (reading the commits)
 * hands each new commit's message over and goes on reading while the
 * store thread parses it and writes its rows.  Ids are given by the walk,
 * the table being empty at the start of a cold fill.
 */
struct job {
	long long id;
	git_oid oid;
	char *email;		/* points into text, after the message */
	char text[];		/* message, NUL, author address, NUL */
};

#define QUEUE_SIZE 4096
/* Jobs handed over at a time: one lock, and a wake-up only if needed. */
#define HANDOVER 256
/* Commit rows per INSERT in a cold fill; range members per INSERT. */
#define COMMIT_BATCH 64
#define MEMBER_BATCH 64

struct commit_row {
	long long id;
	git_oid oid;
	struct sk_strbuf subject, email;
};

struct store {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	struct job *queue[QUEUE_SIZE];
	size_t head, nr;
	int consumer_waits, producer_waits;
	struct job *out[HANDOVER];	/* the walk's, not handed over yet */
	size_t nr_out;
	int done;		/* no more jobs will come */
	int ret;		/* the first error, its message in err */
	char err[1024];
	struct commit_row rows[COMMIT_BATCH];
	int nr_rows;
	sqlite3_stmt *many;
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
};

static int db_error(struct sk_index *idx, const char *what)
{
	return sk_error_set(SK_ERROR, "index: %s: %s", what,
			    sqlite3_errmsg(idx->db));
}

static int exec(struct sk_index *idx, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(idx->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int ret = sk_error_set(SK_ERROR, "index: %s",
				       msg ? msg : "sqlite error");

		sqlite3_free(msg);
		return ret;
	}
	return 0;
}

static int user_version(struct sk_index *idx)
{
	sqlite3_stmt *s = NULL;
	int v = -1;

	if (sqlite3_prepare_v2(idx->db, "PRAGMA user_version", -1, &s,
			       NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

static int commits_empty(struct sk_index *idx)
{
	sqlite3_stmt *s = NULL;
	int rc;

	if (sqlite3_prepare_v2(idx->db, "SELECT 1 FROM commits LIMIT 1", -1,
			       &s, NULL) != SQLITE_OK)
		return db_error(idx, "commits");
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(idx, "commits");
	return rc == SQLITE_DONE;
}

/* INSERT OR IGNORE of nr rows into a lookup table. */
static int side_prepare(sqlite3_stmt **out, struct sk_index *idx,
			enum side which, int nr)
{
	const struct side_table *t = &side_tables[which];
	struct sk_strbuf sql = SK_STRBUF_INIT;
	int i, ret = 0;

	sk_strbuf_addf(&sql, "INSERT OR IGNORE INTO %s (%s) VALUES", t->name,
		       t->cols);
	for (i = 0; i < nr; i++)
		sk_strbuf_addf(&sql, "%s(?, ?%s)", i ? ", " : " ",
			       t->nr_cols == 3 ? ", ?" : "");
	if (sqlite3_prepare_v3(idx->db, sql.buf, -1, nr == 1 ?
			       SQLITE_PREPARE_PERSISTENT : 0, out,
			       NULL) != SQLITE_OK)
		ret = db_error(idx, sql.buf);
	sk_strbuf_release(&sql);
	return ret;
}

int sk_index_open(struct sk_index **out, const char *path)
{
	struct sk_index *idx = sk_xcalloc(1, sizeof(*idx));
	struct sk_strbuf sql = SK_STRBUF_INIT;
	int ret, i;

	sk_strbuf_init(&idx->norm);
	sk_strbuf_init(&idx->summary);
	sk_strbuf_init(&idx->msg);
	sk_strbuf_init(&idx->email);
	if (sqlite3_open_v2(path, &idx->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		ret = sk_error_set(SK_ERROR, "cannot open index '%s': %s", path,
				   sqlite3_errmsg(idx->db));
		goto fail;
	}
	sqlite3_busy_timeout(idx->db, 5000);
	/* A cache: speed over durability; a torn file is rebuilt. */
	ret = exec(idx, "PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;"
		   " PRAGMA cache_size = -16384;");
	if (ret)
		goto fail;
	if (user_version(idx) != SCHEMA_VERSION) {
		sk_strbuf_addf(&sql, "%s PRAGMA user_version = %d;", drop,
			       SCHEMA_VERSION);
		ret = exec(idx, sql.buf);
		if (ret)
			goto fail;
		/*
		 * Vacuumed, so that the fill appends to a small file; if
		 * another connection prevents it, only that is lost.
		 */
		if (exec(idx, "VACUUM"))
			sk_error_clear();
	}
	ret = exec(idx, schema);
	if (ret)
		goto fail;
	ret = commits_empty(idx);
	if (ret < 0)
		goto fail;
	if (ret) {
		/*
		 * A cold fill.  A rollback journal does not copy the pages a
		 * transaction appends, so the fill writes each page once,
		 * where WAL would write it twice (log, then checkpoint).  WAL
		 * is set again on close, for readers of later runs.  If
		 * another connection keeps the file in WAL, it stays WAL.
		 */
		idx->bulk = idx->was_bulk = 1;
		ret = exec(idx, "PRAGMA journal_mode = DELETE");
	} else {
		ret = exec(idx, "PRAGMA journal_mode = WAL");
	}
	if (ret)
		goto fail;
	for (i = 0; i < ST_NR; i++)
		if (sqlite3_prepare_v3(idx->db, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &idx->st[i],
				       NULL) != SQLITE_OK) {
			ret = db_error(idx, stmt_sql[i]);
			goto fail;
		}
	for (i = 0; i < SIDE_NR; i++) {
		ret = side_prepare(&idx->side_one[i], idx, i, 1);
		if (ret)
			goto fail;
	}
	ret = exec(idx, "BEGIN");
	if (ret)
		goto fail;
	sk_strbuf_release(&sql);
	*out = idx;
	return 0;
fail:
	sk_strbuf_release(&sql);
	idx->bulk = 0;
	sk_index_close(idx);
	return ret;
}

#define ARENA_BLOCK (1 << 20)

static void *arena_alloc(struct arena_block **arena, size_t size)
{
	struct arena_block *b = *arena;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!b || b->size - b->used < size) {
		size_t bs = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		b = sk_xmalloc(sizeof(*b) + bs);
		b->prev = *arena;
		b->used = 0;
		b->size = bs;
		*arena = b;
	}
	p = b->data + b->used;
	b->used += size;
	return p;
}

static char *arena_strdup(struct arena_block **arena, const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(arena_alloc(arena, len), s, len);
}

static void arena_free(struct arena_block **arena)
{
	while (*arena) {
		struct arena_block *b = *arena;

		*arena = b->prev;
		free(b);
	}
}

/* The texts of the rows are in idx->side_text (or the graph's). */
static void side_release(struct side_rows *sr)
{
	free(sr->rows);
	memset(sr, 0, sizeof(*sr));
}

static void graph_release(struct graph *g)
{
	arena_free(&g->arena);
	free(g->slots);
	free(g->heap);
	memset(g, 0, sizeof(*g));
}

void sk_index_close(struct sk_index *idx)
{
	int i, ok = 1;

	if (!idx)
		return;
	/* A fill that cannot be completed is not kept half done. */
	if (idx->db && idx->bulk && sk_index_finish(idx))
		ok = 0;
	for (i = 0; i < ST_NR; i++)
		sqlite3_finalize(idx->st[i]);
	for (i = 0; i < SIDE_NR; i++)
		sqlite3_finalize(idx->side_one[i]);
	if (idx->db && !sqlite3_get_autocommit(idx->db))
		exec(idx, ok ? "COMMIT" : "ROLLBACK");
	if (idx->db && idx->was_bulk)
		exec(idx, "PRAGMA journal_mode = WAL");
	sqlite3_close(idx->db);
	for (i = 0; i < SIDE_NR; i++)
		side_release(&idx->side[i]);
	arena_free(&idx->side_text);
	graph_release(&idx->g);
	sk_strbuf_release(&idx->norm);
	sk_strbuf_release(&idx->summary);
	sk_strbuf_release(&idx->msg);
	sk_strbuf_release(&idx->email);
	free(idx);
}

static sqlite3_stmt *stmt(struct sk_index *idx, enum stmt which)
{
	sqlite3_stmt *s = idx->st[which];

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* For a value that outlives the statement's next step. */
static void bind_static(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

static void bind_oid(sqlite3_stmt *s, int i, const git_oid *oid)
{
	sqlite3_bind_blob(s, i, oid->id, GIT_OID_RAWSZ, SQLITE_TRANSIENT);
}

/* A full hex id; one that does not parse matches nothing. */
static void bind_hex(sqlite3_stmt *s, int i, const char *hex)
{
	git_oid oid;

	if (strlen(hex) == GIT_OID_HEXSZ && !git_oid_fromstr(&oid, hex))
		bind_oid(s, i, &oid);
	else
		sqlite3_bind_null(s, i);
}

static int step_done(struct sk_index *idx, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_error(idx, what);
	return 0;
}

/* ---- the rows of a commit ---- */

/* 64-bit FNV-1a: stored, so it must not change. */
static long long text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return (long long)h;
}

/* The first 8 bytes, big-endian: ordered as the bytes are. */
static long long key_prefix(const char *key, size_t len)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < 8; i++)
		h = h << 8 | (i < len ? (unsigned char)key[i] : 0);
	return (long long)h;
}

static void side_add(struct sk_index *idx, enum side which, const char *key,
		     long long id, int kind, const char *subject)
{
	const struct side_table *t = &side_tables[which];
	struct side_rows *sr = &idx->side[which];
	struct side_row *r = SK_ARRAY_PUSH(sr->rows, sr->nr, sr->alloc);

	r->key = NULL;
	if (t->key == KEY_BLOB)
		r->h = key_prefix(key, GIT_OID_RAWSZ);
	else if (t->key == KEY_TEXT)
		r->h = key_prefix(key, strlen(key));
	else
		r->h = text_hash(key);
	if (t->key == KEY_TEXT || t->key == KEY_HASH_TEXT)
		r->key = arena_strdup(&idx->side_text, key);
	r->id = id;
	if (which == SIDE_FIXES)
		r->subject = subject ? arena_strdup(&idx->side_text, subject) :
			NULL;
	else
		r->kind = kind;
}

/* Binds a row of a lookup table from parameter i + 1 on. */
static void side_bind(sqlite3_stmt *s, int i, enum side which,
		      const char *key, long long h, long long id, int kind,
		      const char *subject)
{
	const struct side_table *t = &side_tables[which];

	switch (t->key) {
	case KEY_BLOB:
		sqlite3_bind_blob(s, i + 1, key, GIT_OID_RAWSZ, SQLITE_STATIC);
		break;
	case KEY_TEXT:
		bind_static(s, i + 1, key);
		break;
	case KEY_HASH:
	case KEY_HASH_TEXT:
		sqlite3_bind_int64(s, i + 1, h);
		break;
	}
	sqlite3_bind_int64(s, i + 2, id);
	if (t->nr_cols == 3 && t->key == KEY_HASH_TEXT)
		bind_static(s, i + 3, key);
	else if (t->nr_cols == 3 && t->int_extra)
		sqlite3_bind_int(s, i + 3, kind);
	else if (t->nr_cols == 3)
		bind_static(s, i + 3, subject);
}

static int side_step(struct sk_index *idx, sqlite3_stmt *s, enum side which)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return db_error(idx, side_tables[which].name);
	return 0;
}

/*
 * A row of a lookup table, now or kept back during a cold fill: key is the
 * text (hashed where the table is keyed by the hash), or the raw commit id.
 */
static int insert_side(struct sk_index *idx, enum side which, const char *key,
		       long long id, int kind, const char *subject)
{
	const struct side_table *t = &side_tables[which];
	long long h = 0;

	if (idx->bulk) {
		side_add(idx, which, key, id, kind, subject);
		return 0;
	}
	if (t->key == KEY_HASH || t->key == KEY_HASH_TEXT)
		h = text_hash(key);
	side_bind(idx->side_one[which], 0, which, key, h, id, kind, subject);
	return side_step(idx, idx->side_one[which], which);
}

static int store_facts(struct sk_index *idx, long long id, const char *msg)
{
	struct sk_commit_facts f;
	size_t i;
	int ret = 0;

	sk_commit_facts_parse(&f, msg);
	for (i = 0; i < f.nr_uprefs && !ret; i++)
		ret = insert_side(idx, SIDE_UPREFS, f.uprefs[i].sha, id,
				  f.uprefs[i].kind, NULL);
	for (i = 0; i < f.nr_msgids && !ret; i++)
		ret = insert_side(idx, SIDE_MSGIDS, f.msgids[i], id, 0, NULL);
	for (i = 0; i < f.nr_fixes && !ret; i++)
		ret = insert_side(idx, SIDE_FIXES, f.fixes[i].sha, id, 0,
				  f.fixes[i].subject);
	sk_commit_facts_release(&f);
	return ret;
}

/* The commit row and its facts, from the raw object. */
static int store_commit(struct sk_index *idx, struct node *n,
			const struct sk_commit_raw *raw)
{
	sqlite3_stmt *s;
	size_t i;
	int ret;

	sk_strbuf_reset(&idx->msg);
	sk_strbuf_add(&idx->msg, raw->message, raw->message_len);
	sk_commit_summary(&idx->summary, idx->msg.buf);
	sk_subject_norm(&idx->norm, idx->summary.buf);
	sk_strbuf_reset(&idx->email);
	for (i = 0; i < raw->email_len; i++)
		sk_strbuf_addch(&idx->email,
				tolower((unsigned char)raw->email[i]));
	s = stmt(idx, ST_INSERT_COMMIT);
	sqlite3_bind_blob(s, 1, n->oid.id, GIT_OID_RAWSZ, SQLITE_STATIC);
	bind_static(s, 2, idx->summary.buf);
	bind_static(s, 3, idx->email.buf);
	ret = step_done(idx, s, "insert commit");
	if (ret)
		return ret;
	n->id = sqlite3_last_insert_rowid(idx->db);
	/* In a cold fill, the oids rows come from the graph at the end. */
	if (!idx->bulk)
		ret = insert_side(idx, SIDE_OIDS, (const char *)n->oid.id,
				  n->id, 0, NULL);
	if (!ret)
		ret = insert_side(idx, SIDE_SUBJECTS, idx->norm.buf, n->id, 0,
				  NULL);
	if (!ret)
		ret = insert_side(idx, SIDE_EMAILS, idx->email.buf, n->id, 0,
				  NULL);
	return ret ? ret : store_facts(idx, n->id, idx->msg.buf);
}

/* ---- the store thread of a cold fill ---- */

static int store_rows_flush(struct sk_index *idx, struct store *st)
{
	sqlite3_stmt *s;
	int i, j, ret = 0;

	for (i = 0; i < st->nr_rows && !ret; i++) {
		struct commit_row *r = &st->rows[i];

		if (st->nr_rows == COMMIT_BATCH && st->many) {
			s = st->many;
			j = 4 * i;
		} else {
			s = stmt(idx, ST_INSERT_COMMIT_ID);
			j = 0;
		}
		sqlite3_bind_int64(s, j + 1, r->id);
		sqlite3_bind_blob(s, j + 2, r->oid.id, GIT_OID_RAWSZ,
				  SQLITE_STATIC);
		bind_static(s, j + 3, r->subject.buf);
		bind_static(s, j + 4, r->email.buf);
		if (s != st->many || i == COMMIT_BATCH - 1) {
			ret = step_done(idx, s, "insert commit");
			sqlite3_reset(s);
		}
	}
	st->nr_rows = 0;
	return ret;
}

/* A new commit's rows, in a cold fill (lookup rows kept back). */
static int store_job(struct sk_index *idx, struct store *st,
		     const struct job *job)
{
	struct commit_row *r;
	int ret;

	sk_commit_summary(&idx->summary, job->text);
	sk_subject_norm(&idx->norm, idx->summary.buf);
	r = &st->rows[st->nr_rows++];
	r->id = job->id;
	git_oid_cpy(&r->oid, &job->oid);
	sk_strbuf_reset(&r->subject);
	sk_strbuf_adds(&r->subject, idx->summary.buf);
	sk_strbuf_reset(&r->email);
	sk_strbuf_adds(&r->email, job->email);
	ret = st->nr_rows == COMMIT_BATCH ? store_rows_flush(idx, st) : 0;
	if (!ret)
		ret = insert_side(idx, SIDE_SUBJECTS, idx->norm.buf, job->id, 0,
				  NULL);
	if (!ret)
		ret = insert_side(idx, SIDE_EMAILS, job->email, job->id, 0,
				  NULL);
	return ret ? ret : store_facts(idx, job->id, job->text);
}

static void *store_main(void *arg)
{
	struct sk_index *idx = arg;
	struct store *st = idx->store;
	struct job *jobs[256];
	size_t nr, i;
	int ret = 0;

	for (;;) {
		pthread_mutex_lock(&st->lock);
		while (!st->nr && !st->done) {
			st->consumer_waits = 1;
			pthread_cond_wait(&st->not_empty, &st->lock);
			st->consumer_waits = 0;
		}
		for (nr = 0; st->nr && nr < 256; nr++) {
			jobs[nr] = st->queue[st->head];
			st->head = (st->head + 1) % QUEUE_SIZE;
			st->nr--;
		}
		if (nr && st->producer_waits)
			pthread_cond_signal(&st->not_full);
		pthread_mutex_unlock(&st->lock);
		if (!nr)
			break;
		for (i = 0; i < nr; i++) {
			if (!ret)
				ret = store_job(idx, st, jobs[i]);
			free(jobs[i]);
		}
	}
	if (!ret)
		ret = store_rows_flush(idx, st);
	if (ret) {
		st->ret = ret;
		snprintf(st->err, sizeof(st->err), "%s", sk_error_last());
	}
	return NULL;
}

static void store_free(struct store *st)
{
	int i;

	sqlite3_finalize(st->many);
	for (i = 0; i < COMMIT_BATCH; i++) {
		sk_strbuf_release(&st->rows[i].subject);
		sk_strbuf_release(&st->rows[i].email);
	}
	free(st);
}

static int store_start(struct sk_index *idx)
{
	struct store *st = sk_xcalloc(1, sizeof(*st));
	struct sk_strbuf sql = SK_STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; i < COMMIT_BATCH; i++) {
		sk_strbuf_init(&st->rows[i].subject);
		sk_strbuf_init(&st->rows[i].email);
	}
	sk_strbuf_adds(&sql, "INSERT INTO commits (id, oid, subject, email)"
		       " VALUES");
	for (i = 0; i < COMMIT_BATCH; i++)
		sk_strbuf_adds(&sql, i ? ", (?, ?, ?, ?)" : " (?, ?, ?, ?)");
	if (sqlite3_prepare_v2(idx->db, sql.buf, -1, &st->many,
			       NULL) != SQLITE_OK)
		ret = db_error(idx, "insert commits");
	sk_strbuf_release(&sql);
	if (!ret && (pthread_mutex_init(&st->lock, NULL) ||
		     pthread_cond_init(&st->not_empty, NULL) ||
		     pthread_cond_init(&st->not_full, NULL)))
		ret = sk_error_set(SK_ERROR, "index: cannot start a thread");
	idx->store = st;
	if (!ret && pthread_create(&st->thread, NULL, store_main, idx))
		ret = sk_error_set(SK_ERROR, "index: cannot start a thread");
	if (ret) {
		store_free(st);
		idx->store = NULL;
	}
	return ret;
}

static void store_handover(struct store *st)
{
	size_t i;

	pthread_mutex_lock(&st->lock);
	while (QUEUE_SIZE - st->nr < st->nr_out) {
		st->producer_waits = 1;
		pthread_cond_wait(&st->not_full, &st->lock);
		st->producer_waits = 0;
	}
	for (i = 0; i < st->nr_out; i++)
		st->queue[(st->head + st->nr++) % QUEUE_SIZE] = st->out[i];
	st->nr_out = 0;
	if (st->consumer_waits)
		pthread_cond_signal(&st->not_empty);
	pthread_mutex_unlock(&st->lock);
}

/* Waits for the store thread to write every row handed over; its error. */
static int store_stop(struct sk_index *idx)
{
	struct store *st = idx->store;
	int ret;

	if (!st)
		return 0;
	store_handover(st);
	pthread_mutex_lock(&st->lock);
	st->done = 1;
	pthread_cond_signal(&st->not_empty);
	pthread_mutex_unlock(&st->lock);
	pthread_join(st->thread, NULL);
	ret = st->ret ? sk_error_set(st->ret, "%s", st->err) : 0;
	pthread_mutex_destroy(&st->lock);
	pthread_cond_destroy(&st->not_empty);
	pthread_cond_destroy(&st->not_full);
	store_free(st);
	idx->store = NULL;
	return ret;
}

/* Hands a new commit over to the store thread. */
static void store_push(struct sk_index *idx, struct node *n,
		       const struct sk_commit_raw *raw)
{
	struct store *st = idx->store;
	struct job *job = sk_xmalloc(sizeof(*job) + raw->message_len + 1 +
				     raw->email_len + 1);
	size_t i;

	job->id = n->id;
	git_oid_cpy(&job->oid, &n->oid);
	memcpy(job->text, raw->message, raw->message_len);
	job->text[raw->message_len] = '\0';
	job->email = job->text + raw->message_len + 1;
	for (i = 0; i < raw->email_len; i++)
		job->email[i] = tolower((unsigned char)raw->email[i]);
	job->email[raw->email_len] = '\0';
	st->out[st->nr_out++] = job;
	if (st->nr_out == HANDOVER)
		store_handover(st);
}

static int cmp_ll(long long a, long long b)
{
	return (a > b) - (a < b);
}

static int cmp_ull(long long a, long long b)
{
	return ((unsigned long long)a > (unsigned long long)b) -
		((unsigned long long)a < (unsigned long long)b);
}

/* The order of the table's primary key (blobs and texts as bytes). */
static int cmp_hash_row(const void *a, const void *b)
{
	const struct side_row *x = a, *y = b;
	int c = cmp_ll(x->h, y->h);

	if (!c)
		c = cmp_ll(x->id, y->id);
	if (!c && x->key && y->key)
		c = strcmp(x->key, y->key);
	return c;
}

static int cmp_text_row(const void *a, const void *b)
{
	const struct side_row *x = a, *y = b;
	int c = cmp_ull(x->h, y->h);

	if (!c)
		c = strcmp(x->key, y->key);
	return c ? c : cmp_ll(x->id, y->id);
}

static int cmp_oid_row(const void *a, const void *b)
{
	const struct side_row *x = a, *y = b;
	int c = cmp_ull(x->h, y->h);

	if (!c)
		c = memcmp(x->key, y->key, GIT_OID_RAWSZ);
	return c ? c : cmp_ll(x->id, y->id);
}

/* sqlite's order of the key: integers signed, texts and blobs as bytes. */
static unsigned long long sort_key(const struct side_table *t, long long h)
{
	if (t->key == KEY_HASH || t->key == KEY_HASH_TEXT)
		return (unsigned long long)h ^ (1ULL << 63);
	return (unsigned long long)h;
}

#define RADIX_BITS 16
#define RADIX (1 << RADIX_BITS)

/*
 * The rows in key order: a stable radix sort on the 64-bit hash or prefix
 * (rows were added by ascending id, which it keeps), then runs of equal
 * keys put in full order where they are not in it already.
 */
static void side_sort(struct side_rows *sr, const struct side_table *t)
{
	int (*cmp)(const void *, const void *) = t->key == KEY_BLOB ?
		cmp_oid_row : t->key == KEY_TEXT ? cmp_text_row : cmp_hash_row;
	struct side_row *tmp, *from = sr->rows, *to;
	size_t *count, i, j, k;
	int shift;

	if (sr->nr < 4096) {
		if (sr->nr > 1)
			qsort(sr->rows, sr->nr, sizeof(*sr->rows), cmp);
		return;
	}
	tmp = sk_xmalloc(sr->nr * sizeof(*tmp));
	count = sk_xmalloc(RADIX * sizeof(*count));
	to = tmp;
	for (shift = 0; shift < 64; shift += RADIX_BITS) {
		size_t sum = 0;

		memset(count, 0, RADIX * sizeof(*count));
		for (i = 0; i < sr->nr; i++)
			count[sort_key(t, from[i].h) >> shift & (RADIX - 1)]++;
		for (k = 0; k < RADIX; k++) {
			size_t c = count[k];

			count[k] = sum;
			sum += c;
		}
		for (i = 0; i < sr->nr; i++)
			to[count[sort_key(t, from[i].h) >> shift &
				 (RADIX - 1)]++] = from[i];
		to = from;
		from = from == tmp ? sr->rows : tmp;
	}
	/* an even number of passes: the rows are back in sr->rows */
	free(count);
	free(tmp);
	for (i = 0; i < sr->nr; i = j) {
		int sorted = 1;

		for (j = i + 1; j < sr->nr && sr->rows[j].h == sr->rows[i].h;
		     j++)
			if (sorted && cmp(&sr->rows[j - 1], &sr->rows[j]) > 0)
				sorted = 0;
		if (!sorted)
			qsort(sr->rows + i, j - i, sizeof(*sr->rows), cmp);
	}
}

/* The kept-back rows of one lookup table, in key order, in batches. */
static int side_flush(struct sk_index *idx, enum side which)
{
	struct side_rows *sr = &idx->side[which];
	const struct side_table *t = &side_tables[which];
	sqlite3_stmt *many = NULL;
	size_t i = 0;
	int j, ret = 0;

	side_sort(sr, t);
	if (sr->nr >= SIDE_BATCH)
		ret = side_prepare(&many, idx, which, SIDE_BATCH);
	for (; !ret && sr->nr - i >= SIDE_BATCH; i += SIDE_BATCH) {
		for (j = 0; j < SIDE_BATCH; j++) {
			struct side_row *r = &sr->rows[i + j];

			side_bind(many, j * t->nr_cols, which, r->key, r->h,
				  r->id, r->kind, which == SIDE_FIXES ?
				  r->subject : NULL);
		}
		ret = side_step(idx, many, which);
	}
	for (; !ret && i < sr->nr; i++) {
		struct side_row *r = &sr->rows[i];

		side_bind(idx->side_one[which], 0, which, r->key, r->h, r->id,
			  r->kind, which == SIDE_FIXES ? r->subject : NULL);
		ret = side_step(idx, idx->side_one[which], which);
	}
	sqlite3_finalize(many);
	return ret;
}

/*
 * Ends a cold fill: the kept-back rows of every lookup table go in, in key
 * order (appends to their B-trees), the commit ids from the graph.
 */
int sk_index_finish(struct sk_index *idx)
{
	struct graph *g = &idx->g;
	struct side_rows *oids = &idx->side[SIDE_OIDS];
	enum side w;
	size_t i;
	int ret = 0;

	if (!idx->bulk)
		return 0;
	idx->bulk = 0;
	for (i = 0; g->slots && i <= g->mask; i++) {
		struct node *n = g->slots[i];
		struct side_row *r;

		if (!n || !n->id)
			continue;
		r = SK_ARRAY_PUSH(oids->rows, oids->nr, oids->alloc);
		memset(r, 0, sizeof(*r));
		r->key = (char *)n->oid.id;
		r->h = key_prefix(r->key, GIT_OID_RAWSZ);
		r->id = n->id;
	}
	for (w = 0; w < SIDE_NR && !ret; w++)
		ret = side_flush(idx, w);
	for (w = 0; w < SIDE_NR; w++)
		side_release(&idx->side[w]);
	arena_free(&idx->side_text);
	return ret;
}

/* ---- the commit graph ---- */

/* Commits read past the last interesting one, for clock skew (git's). */
#define SLOP 5
/* libgit2's default limit for caching commit objects, restored. */
#define GIT_COMMIT_CACHE_LIMIT 4096

static size_t oid_hash(const git_oid *oid)
{
	size_t h;

	memcpy(&h, oid->id, sizeof(h));
	return h;
}

static void graph_grow(struct graph *g)
{
	size_t size = g->slots ? 2 * (g->mask + 1) : 1 << 16, i, j;
	struct node **slots = sk_xcalloc(size, sizeof(*slots));

	for (i = 0; g->slots && i <= g->mask; i++) {
		if (!g->slots[i])
			continue;
		for (j = oid_hash(&g->slots[i]->oid) & (size - 1); slots[j];
		     j = (j + 1) & (size - 1))
			;
		slots[j] = g->slots[i];
	}
	free(g->slots);
	g->slots = slots;
	g->mask = size - 1;
}

static struct node *node_get(struct graph *g, const git_oid *oid, int create)
{
	struct node *n;
	size_t i;

	if (!g->slots) {
		if (!create)
			return NULL;
		graph_grow(g);
	}
	for (i = oid_hash(oid) & g->mask; g->slots[i]; i = (i + 1) & g->mask)
		if (git_oid_equal(&g->slots[i]->oid, oid))
			return g->slots[i];
	if (!create)
		return NULL;
	if (2 * (g->nr + 1) > g->mask + 1) {
		graph_grow(g);
		for (i = oid_hash(oid) & g->mask; g->slots[i];
		     i = (i + 1) & g->mask)
			;
	}
	n = arena_alloc(&g->arena, sizeof(*n));
	memset(n, 0, sizeof(*n));
	git_oid_cpy(&n->oid, oid);
	g->slots[i] = n;
	g->nr++;
	return n;
}

static int find_id(struct sk_index *idx, struct node *n)
{
	sqlite3_stmt *s = stmt(idx, ST_FIND_ID);
	int rc;

	sqlite3_bind_blob(s, 1, n->oid.id, GIT_OID_RAWSZ, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		n->id = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		return db_error(idx, "find commit");
	return 0;
}

/*
 * Reads a commit once: its parents and date, and (want_row) its row in the
 * index, stored from the same read if the index does not have it.
 */
static int read_commit(struct sk_index *idx, struct node *n, int want_row,
		       unsigned long *added)
{
	struct graph *g = &idx->g;
	struct sk_commit_raw raw;
	git_odb_object *obj = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;
	int ret = 0;

	if (want_row && !n->id && !idx->bulk) {
		ret = find_id(idx, n);
		if (ret)
			return ret;
	}
	if (n->parsed && (!want_row || n->id))
		return 0;
	if (git_odb_read(&obj, g->odb, &n->oid)) {
		git_oid_tostr(hex, sizeof(hex), &n->oid);
		return sk_error_git(SK_ERROR, hex);
	}
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT ||
	    sk_commit_raw_parse(&raw, git_odb_object_data(obj),
				git_odb_object_size(obj))) {
		git_oid_tostr(hex, sizeof(hex), &n->oid);
		ret = sk_error_set(SK_ERROR, "%s: not a well-formed commit",
				   hex);
		goto out;
	}
	if (!n->parsed) {
		n->time = raw.time;
		n->parents = arena_alloc(&g->arena, (raw.nr_parents ?
						     raw.nr_parents : 1) *
					 sizeof(*n->parents));
		for (i = 0; i < raw.nr_parents; i++) {
			git_oid p;

			if (git_oid_fromstrn(&p, raw.parents +
					     i * SK_COMMIT_RAW_PARENT_STRIDE,
					     GIT_OID_HEXSZ)) {
				git_oid_tostr(hex, sizeof(hex), &n->oid);
				ret = sk_error_git(SK_ERROR, hex);
				goto out;
			}
			n->parents[i] = node_get(g, &p, 1);
		}
		n->nr_parents = raw.nr_parents;
		n->parsed = 1;
	}
	if (want_row && !n->id && idx->store) {
		n->id = ++idx->last_id;
		store_push(idx, n, &raw);
		(*added)++;
	} else if (want_row && !n->id) {
		ret = store_commit(idx, n, &raw);
		if (!ret)
			(*added)++;
	}
out:
	git_odb_object_free(obj);
	return ret;
}

static void touch(struct graph *g, struct node *n)
{
	if (n->walk != g->walks) {
		n->walk = g->walks;
		n->flags = 0;
	}
}

static int newer(const struct node *a, const struct node *b)
{
	return a->time > b->time;
}

static void heap_push(struct graph *g, struct node *n)
{
	size_t i = g->heap_nr;

	SK_ARRAY_PUSH(g->heap, g->heap_nr, g->heap_alloc);
	while (i && newer(n, g->heap[(i - 1) / 2])) {
		g->heap[i] = g->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	g->heap[i] = n;
	n->flags |= QUEUED;
	if (!(n->flags & UNINTERESTING))
		g->interesting++;
}

static struct node *heap_pop(struct graph *g)
{
	struct node *top, *last;
	size_t i = 0, c;

	if (!g->heap_nr)
		return NULL;
	top = g->heap[0];
	last = g->heap[--g->heap_nr];
	while ((c = 2 * i + 1) < g->heap_nr) {
		if (c + 1 < g->heap_nr && newer(g->heap[c + 1], g->heap[c]))
			c++;
		if (!newer(g->heap[c], last))
			break;
		g->heap[i] = g->heap[c];
		i = c;
	}
	if (g->heap_nr)
		g->heap[i] = last;
	top->flags &= ~QUEUED;
	if (!(top->flags & UNINTERESTING))
		g->interesting--;
	return top;
}

static void mark_one(struct graph *g, struct node *n)
{
	touch(g, n);
	if (n->flags & UNINTERESTING)
		return;
	n->flags |= UNINTERESTING;
	if (n->flags & QUEUED)
		g->interesting--;
}

/* Its parents and, through the commits already read, their ancestors. */
static void mark_parents_uninteresting(struct graph *g, struct node *n)
{
	struct node **stack = NULL;
	size_t nr = 0, alloc = 0, i;

	for (i = 0; i < n->nr_parents; i++)
		*SK_ARRAY_PUSH(stack, nr, alloc) = n->parents[i];
	while (nr) {
		struct node *x = stack[--nr];

		touch(g, x);
		if (x->flags & UNINTERESTING)
			continue;
		mark_one(g, x);
		for (i = 0; i < x->nr_parents; i++)
			*SK_ARRAY_PUSH(stack, nr, alloc) = x->parents[i];
	}
	free(stack);
}

static int enqueue(struct sk_index *idx, struct node *n, unsigned long *added)
{
	int ret;

	touch(&idx->g, n);
	if (n->flags & SEEN)
		return 0;
	ret = read_commit(idx, n, !(n->flags & UNINTERESTING), added);
	if (ret)
		return ret;
	n->flags |= SEEN;
	heap_push(&idx->g, n);
	return 0;
}

static int start(struct sk_index *idx, const git_oid *oid, int hide,
		 unsigned long *added)
{
	struct node *n;

	if (!oid)
		return 0;
	n = node_get(&idx->g, oid, 1);
	touch(&idx->g, n);
	if (hide)
		mark_one(&idx->g, n);
	return enqueue(idx, n, added);
}

/*
 * The commits reachable from tip and from neither base nor old_tip,
 * newest first in topological order (every commit before its parents):
 * git's limited walk, by commit date, each commit read once.
 */
static int walk(struct node ***out, size_t *nr_out, struct sk_index *idx,
		const git_oid *tip, const git_oid *base,
		const git_oid *old_tip, unsigned long *added)
{
	struct graph *g = &idx->g;
	struct node *n, *list = NULL, **tail = &list, **stack = NULL;
	struct node **order = NULL;
	size_t nr = 0, snr = 0, salloc = 0, k = 0;
	long long date = 0;
	int ret, slop = SLOP, dated = 0;
	unsigned int i;

	g->walks++;
	g->heap_nr = 0;
	g->interesting = 0;
	ret = start(idx, tip, 0, added);
	if (!ret)
		ret = start(idx, base, 1, added);
	if (!ret)
		ret = start(idx, old_tip, 1, added);
	while (!ret && (n = heap_pop(g))) {
		if (n->flags & UNINTERESTING)
			mark_parents_uninteresting(g, n);
		for (i = 0; i < n->nr_parents && !ret; i++)
			ret = enqueue(idx, n->parents[i], added);
		if (ret)
			break;
		if (n->flags & UNINTERESTING) {
			if (!g->heap_nr)
				break;
			if ((dated && date <= g->heap[0]->time) ||
			    g->interesting)
				slop = SLOP;
			else if (!--slop)
				break;
			continue;
		}
		/* Read hidden in an earlier walk: its row is wanted now. */
		ret = read_commit(idx, n, 1, added);
		date = n->time;
		dated = 1;
		n->next = NULL;
		*tail = n;
		tail = &n->next;
	}
	if (ret)
		return ret;
	/* Keep what stayed interesting; count children within the range. */
	for (n = list; n; n = n->next)
		if (!(n->flags & UNINTERESTING)) {
			n->flags |= IN_RANGE_LIST;
			n->indegree = 0;
			nr++;
		}
	for (n = list; n; n = n->next)
		if (n->flags & IN_RANGE_LIST)
			for (i = 0; i < n->nr_parents; i++)
				if (n->parents[i]->walk == g->walks &&
				    (n->parents[i]->flags & IN_RANGE_LIST))
					n->parents[i]->indegree++;
	order = sk_xcalloc(nr ? nr : 1, sizeof(*order));
	/* Tips newest on top of the stack; first parents followed first. */
	for (n = list; n; n = n->next)
		if ((n->flags & IN_RANGE_LIST) && !n->indegree)
			*SK_ARRAY_PUSH(stack, snr, salloc) = n;
	for (k = 0; k < snr / 2; k++) {
		struct node *t = stack[k];

		stack[k] = stack[snr - 1 - k];
		stack[snr - 1 - k] = t;
	}
	k = 0;
	while (snr) {
		n = stack[--snr];
		order[k++] = n;
		for (i = n->nr_parents; i-- > 0;) {
			struct node *p = n->parents[i];

			if (p->walk == g->walks && (p->flags & IN_RANGE_LIST) &&
			    !--p->indegree)
				*SK_ARRAY_PUSH(stack, snr, salloc) = p;
		}
	}
	free(stack);
	*out = order;
	*nr_out = k;
	return 0;
}

/* libgit2 settings for the walk: no hash check, no caching of commits. */
static int walk_settings(int walking)
{
	if (git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION,
			     !walking) ||
	    git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT,
			     (size_t)(walking ? 0 : GIT_COMMIT_CACHE_LIMIT)))
		return sk_error_git(SK_ERROR, "libgit2 options");
	return 0;
}

/*
 * The range's commits, order[] newest first, the oldest at position first:
 * newest first, ids grow along the key of range_commits; in batches.
 */
static int insert_members(struct sk_index *idx, long long range,
			  long long first, struct node **order, size_t nr)
{
	sqlite3_stmt *many = NULL, *s;
	struct sk_strbuf sql = SK_STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	if (nr >= MEMBER_BATCH) {
		sk_strbuf_adds(&sql, "INSERT OR IGNORE INTO range_commits"
			       " (range_id, commit_id, pos) VALUES");
		for (k = 0; k < MEMBER_BATCH; k++)
			sk_strbuf_adds(&sql, k ? ", (?, ?, ?)" : " (?, ?, ?)");
		if (sqlite3_prepare_v2(idx->db, sql.buf, -1, &many,
				       NULL) != SQLITE_OK)
			ret = db_error(idx, "range members");
		sk_strbuf_release(&sql);
	}
	for (i = 0; i < nr && !ret; i++) {
		int batch = nr - i + i % MEMBER_BATCH >= MEMBER_BATCH;

		k = batch ? i % MEMBER_BATCH : 0;
		s = batch ? many : stmt(idx, ST_INSERT_MEMBER);
		if (!order[i]->member)
			order[i]->member = idx->g.walks;
		sqlite3_bind_int64(s, 3 * k + 1, range);
		sqlite3_bind_int64(s, 3 * k + 2, order[i]->id);
		sqlite3_bind_int64(s, 3 * k + 3,
				   first + (long long)(nr - 1 - i));
		if (!batch || k == MEMBER_BATCH - 1) {
			ret = step_done(idx, s, "range member");
			sqlite3_reset(s);
		}
	}
	sqlite3_finalize(many);
	return ret;
}

static int walk_range(struct sk_index *idx, git_repository *repo,
		      long long range, long long *next_pos,
		      const git_oid *tip, const git_oid *base,
		      const git_oid *old_tip, struct sk_index_walk_stats *st)
{
	struct node **order = NULL;
	unsigned long added = 0;
	size_t nr = 0;
	int ret, ret2;

	if (git_repository_odb(&idx->g.odb, repo))
		return sk_error_git(SK_ERROR, "cannot read the repository");
	ret = walk_settings(1);
	if (!ret && idx->bulk)
		ret = store_start(idx);
	if (!ret)
		ret = walk(&order, &nr, idx, tip, base, old_tip, &added);
	ret2 = store_stop(idx);
	if (!ret)
		ret = ret2;
	ret2 = walk_settings(0);
	git_odb_free(idx->g.odb);
	idx->g.odb = NULL;
	if (!ret)
		ret = ret2;
	if (!ret)
		ret = insert_members(idx, range, *next_pos, order, nr);
	*next_pos += nr;
	st->walked += nr;
	st->parsed += added;
	free(order);
	return ret;
}

/*
 * Is anc an ancestor of desc, from the graph read in this run: 1, 0, or -1
 * when the graph cannot tell.  Both must have been found in one range
 * walk; then every commit between them is in that range (a descendant of
 * anc is not reachable from the range's base), so a search through the
 * commits of the walked ranges decides.
 */
static int graph_is_ancestor(struct graph *g, const git_oid *anc,
			     const git_oid *desc)
{
	struct node *a = node_get(g, anc, 0), *d = node_get(g, desc, 0);
	struct node **stack = NULL;
	size_t nr = 0, alloc = 0;
	unsigned int i;
	int yes = 0;

	if (!a || !d || !a->member || a->member != d->member)
		return -1;
	g->marks++;
	d->mark = g->marks;
	*SK_ARRAY_PUSH(stack, nr, alloc) = d;
	while (nr && !yes) {
		struct node *x = stack[--nr];

		if (x == a) {
			yes = 1;
			break;
		}
		for (i = 0; i < x->nr_parents; i++) {
			struct node *p = x->parents[i];

			if (p->member && p->mark != g->marks) {
				p->mark = g->marks;
				*SK_ARRAY_PUSH(stack, nr, alloc) = p;
			}
		}
	}
	free(stack);
	return yes;
}

int sk_index_update_range(long long *range_id, struct sk_index_walk_stats *st,
			  struct sk_index *idx, git_repository *repo,
			  const char *name, const git_oid *tip,
			  const git_oid *base)
{
	char tip_hex[41], base_hex[41] = "";
	const char *old_base = NULL, *old_tip_hex = NULL;
	git_oid old_tip;
	int have_old = 0, ret;
	long long next_pos = 1;
	sqlite3_stmt *s;

	memset(st, 0, sizeof(*st));
	git_oid_tostr(tip_hex, sizeof(tip_hex), tip);
	if (base)
		git_oid_tostr(base_hex, sizeof(base_hex), base);
	s = stmt(idx, ST_GET_RANGE);
	bind_text(s, 1, name);
	if (sqlite3_step(s) == SQLITE_ROW) {
		*range_id = sqlite3_column_int64(s, 0);
		old_base = (const char *)sqlite3_column_text(s, 1);
		old_tip_hex = (const char *)sqlite3_column_text(s, 2);
		next_pos = sqlite3_column_int64(s, 3);
		if (old_base && !strcmp(old_base, base_hex) && old_tip_hex &&
		    !git_oid_fromstr(&old_tip, old_tip_hex))
			have_old = 1;
	} else {
		s = stmt(idx, ST_INSERT_RANGE);
		bind_text(s, 1, name);
		ret = step_done(idx, s, "insert range");
		if (ret)
			return ret;
		*range_id = sqlite3_last_insert_rowid(idx->db);
	}
	if (have_old && git_oid_equal(&old_tip, tip))
		return 0;
	if (have_old && git_graph_descendant_of(repo, tip, &old_tip) != 1)
		have_old = 0;
	if (!have_old) {
		s = stmt(idx, ST_CLEAR_RANGE);
		sqlite3_bind_int64(s, 1, *range_id);
		ret = step_done(idx, s, "clear range");
		if (ret)
			return ret;
		next_pos = 1;
		st->rewalked = 1;
	}
	ret = walk_range(idx, repo, *range_id, &next_pos, tip, base,
			 have_old ? &old_tip : NULL, st);
	if (ret)
		return ret;
	s = stmt(idx, ST_UPDATE_RANGE);
	sqlite3_bind_int64(s, 1, *range_id);
	bind_text(s, 2, base_hex);
	bind_text(s, 3, tip_hex);
	sqlite3_bind_int64(s, 4, next_pos);
	return step_done(idx, s, "update range");
}

int sk_index_in_range(struct sk_index *idx, long long range, const char *oid)
{
	sqlite3_stmt *s;

	if (sk_index_finish(idx))
		return 0;
	s = stmt(idx, ST_IN_RANGE);
	sqlite3_bind_int64(s, 1, range);
	bind_hex(s, 2, oid);
	return sqlite3_step(s) == SQLITE_ROW;
}

static char *column_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return sk_xstrdup(t ? (const char *)t : "");
}

static void column_oid(char out[GIT_OID_HEXSZ + 1], sqlite3_stmt *s, int i)
{
	const void *raw = sqlite3_column_blob(s, i);
	git_oid oid;

	out[0] = '\0';
	if (raw && sqlite3_column_bytes(s, i) == GIT_OID_RAWSZ) {
		git_oid_fromraw(&oid, raw);
		git_oid_tostr(out, GIT_OID_HEXSZ + 1, &oid);
	}
}

/* The rows of a query; with norm, only the commits with that subject. */
static int collect(struct sk_index_list *out, struct sk_index *idx,
		   sqlite3_stmt *s, const char *norm)
{
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *subject = sqlite3_column_text(s, 2);
		struct sk_index_commit *c;

		if (norm) {
			sk_subject_norm(&idx->norm, subject ?
					(const char *)subject : "");
			if (strcmp(idx->norm.buf, norm))
				continue;
		}
		c = SK_ARRAY_PUSH(out->items, out->nr, out->alloc);
		c->id = sqlite3_column_int64(s, 0);
		column_oid(c->oid, s, 1);
		c->subject = column_dup(s, 2);
		c->email = column_dup(s, 3);
		c->pos = sqlite3_column_int64(s, 4);
		c->kind = sqlite3_column_int(s, 5);
	}
	return rc == SQLITE_DONE ? 0 : db_error(idx, "query");
}

/* A lookup by arg (?2), and by its hash (?3) where the table has one. */
static int query2(struct sk_index_list *out, struct sk_index *idx,
		  enum stmt which, long long range, const char *arg)
{
	sqlite3_stmt *s;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	s = stmt(idx, which + !!range);
	sqlite3_bind_int64(s, 1, range);
	bind_text(s, 2, arg);
	if (which != ST_BY_UPSTREAM)
		sqlite3_bind_int64(s, 3, text_hash(arg ? arg : ""));
	return collect(out, idx, s, which == ST_BY_SUBJECT ? arg : NULL);
}

int sk_index_by_prefix(struct sk_index_list *out, struct sk_index *idx,
		       long long range, const char *hex)
{
	char lo[GIT_OID_HEXSZ + 1], hi[GIT_OID_HEXSZ + 1];
	size_t n = strlen(hex);
	git_oid a, b;
	sqlite3_stmt *s;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	if (n > GIT_OID_HEXSZ)
		return 0;
	/* The ids with this prefix lie between it padded with 0s and fs. */
	memset(lo, '0', GIT_OID_HEXSZ);
	memset(hi, 'f', GIT_OID_HEXSZ);
	memcpy(lo, hex, n);
	memcpy(hi, hex, n);
	lo[GIT_OID_HEXSZ] = hi[GIT_OID_HEXSZ] = '\0';
	if (git_oid_fromstr(&a, lo) || git_oid_fromstr(&b, hi))
		return 0;
	s = stmt(idx, range ? ST_BY_PREFIX_IN : ST_BY_PREFIX);
	sqlite3_bind_int64(s, 1, range);
	bind_oid(s, 2, &a);
	bind_oid(s, 3, &b);
	return collect(out, idx, s, NULL);
}

int sk_index_by_subject(struct sk_index_list *out, struct sk_index *idx,
			long long range, const char *subject_norm)
{
	return query2(out, idx, ST_BY_SUBJECT, range, subject_norm);
}

int sk_index_by_email(struct sk_index_list *out, struct sk_index *idx,
		      long long range, const char *email)
{
	return query2(out, idx, ST_BY_EMAIL, range, email);
}

int sk_index_by_msgid(struct sk_index_list *out, struct sk_index *idx,
		      long long range, const char *msgid)
{
	return query2(out, idx, ST_BY_MSGID, range, msgid);
}

int sk_index_by_upstream(struct sk_index_list *out, struct sk_index *idx,
			 long long range, const char *oid)
{
	return query2(out, idx, ST_BY_UPSTREAM, range, oid);
}

int sk_index_window(struct sk_index_list *out, struct sk_index *idx,
		    long long range, const char *email, long long lo,
		    long long hi)
{
	sqlite3_stmt *s;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	s = stmt(idx, ST_WINDOW);
	sqlite3_bind_int64(s, 1, range);
	bind_text(s, 2, email);
	sqlite3_bind_int64(s, 3, lo);
	sqlite3_bind_int64(s, 4, hi);
	return collect(out, idx, s, NULL);
}

void sk_index_list_release(struct sk_index_list *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->nr; i++) {
		free(l->items[i].subject);
		free(l->items[i].email);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static int commit_diff(git_diff **out, git_repository *repo, const char *hex)
{
	git_oid oid;
	git_commit *c = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	git_diff_options o;
	int ret = 0;

	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_SKIP_BINARY_CHECK;
	if (git_oid_fromstr(&oid, hex) || git_commit_lookup(&c, repo, &oid) ||
	    git_commit_tree(&tree, c) ||
	    (git_commit_parentcount(c) &&
	     (git_commit_parent(&parent, c, 0) ||
	      git_commit_tree(&ptree, parent))) ||
	    git_diff_tree_to_tree(out, repo, ptree, tree, &o))
		ret = sk_error_git(SK_ERROR, hex);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	git_commit_free(c);
	return ret;
}

static void split_files(char ***out, size_t *nr, const char *text)
{
	size_t alloc = 0;

	*out = NULL;
	*nr = 0;
	while (text && *text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);

		if (len)
			*SK_ARRAY_PUSH(*out, *nr, alloc) =
				sk_xstrndup(text, len);
		text = eol ? eol + 1 : NULL;
	}
}

int sk_index_files(char ***out, size_t *nr, struct sk_index *idx,
		   git_repository *repo, const char *oid)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	git_diff *diff = NULL;
	sqlite3_stmt *s;
	size_t i, n;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	s = stmt(idx, ST_GET_FILES);
	bind_hex(s, 1, oid);
	if (sqlite3_step(s) == SQLITE_ROW &&
	    sqlite3_column_type(s, 0) != SQLITE_NULL) {
		split_files(out, nr, (const char *)sqlite3_column_text(s, 0));
		return 0;
	}
	ret = commit_diff(&diff, repo, oid);
	if (ret)
		return ret;
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		sk_strbuf_addf(&sb, "%s\n", d->new_file.path);
		if (strcmp(d->old_file.path, d->new_file.path))
			sk_strbuf_addf(&sb, "%s\n", d->old_file.path);
	}
	git_diff_free(diff);
	s = stmt(idx, ST_SET_FILES);
	bind_hex(s, 1, oid);
	bind_text(s, 2, sb.buf);
	ret = step_done(idx, s, "store files");
	if (!ret)
		split_files(out, nr, sb.buf);
	sk_strbuf_release(&sb);
	return ret;
}

void sk_index_files_free(char **files, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(files[i]);
	free(files);
}

int sk_index_patchid(char out[41], struct sk_index *idx, git_repository *repo,
		     const char *oid)
{
	sqlite3_stmt *s;
	git_diff *diff = NULL;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	s = stmt(idx, ST_GET_PATCHID);
	bind_hex(s, 1, oid);
	if (sqlite3_step(s) == SQLITE_ROW &&
	    sqlite3_column_type(s, 0) != SQLITE_NULL) {
		snprintf(out, 41, "%s", sqlite3_column_text(s, 0));
		return 0;
	}
	ret = commit_diff(&diff, repo, oid);
	if (!ret)
		ret = sk_patchid_diff(out, diff);
	git_diff_free(diff);
	if (ret)
		return ret;
	s = stmt(idx, ST_SET_PATCHID);
	bind_hex(s, 1, oid);
	bind_text(s, 2, out);
	return step_done(idx, s, "store patch-id");
}

int sk_index_is_ancestor(struct sk_index *idx, git_repository *repo,
			 const char *anc, const char *desc)
{
	sqlite3_stmt *s;
	git_oid a, d;
	int yes, ret;

	if (!strcmp(anc, desc))
		return 1;
	ret = sk_index_finish(idx);
	if (ret)
		return ret;
	s = stmt(idx, ST_GET_ANC);
	bind_text(s, 1, anc);
	bind_text(s, 2, desc);
	if (sqlite3_step(s) == SQLITE_ROW)
		return sqlite3_column_int(s, 0);
	if (git_oid_fromstr(&a, anc) || git_oid_fromstr(&d, desc))
		return sk_error_set(SK_EINVALID, "bad commit id");
	yes = graph_is_ancestor(&idx->g, &a, &d);
	if (yes < 0)
		yes = git_graph_descendant_of(repo, &d, &a);
	if (yes < 0)
		return sk_error_git(SK_ERROR, "ancestry");
	s = stmt(idx, ST_SET_ANC);
	bind_text(s, 1, anc);
	bind_text(s, 2, desc);
	sqlite3_bind_int(s, 3, yes);
	ret = step_done(idx, s, "store ancestry");
	return ret ? ret : yes;
}
