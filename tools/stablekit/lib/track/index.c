/*
 * The tracking index: opening it (schema, prepared statements, whether
 * this run is a cold fill), closing it, and the queries the rest of
 * stablekit asks.  Filling it is elsewhere: the range walk in
 * index-walk.c, the rows it stores in index-store.c.
 */
#include "track/index-internal.h"
#include "track/commitfacts.h"
#include "core/error.h"
#include "core/patchid.h"
#include "core/treediff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 9: patch-ids as git computes them (renames, indent heuristic) */
#define SCHEMA_VERSION 10

/*
 * The schema, in one place.  Commit ids are 20-byte blobs.  Every lookup
 * (by id, subject, author, Message-Id, upstream reference) is a table
 * keyed by what is looked up, without rowid.  A cold fill (an empty
 * index) puts the lookups by id, subject, author and Message-Id, and the
 * members of a range walked whole, in sorted runs instead (index-run.c):
 * far cheaper than keeping B-trees up to date row by row.  A lookup reads
 * the runs and the tables; a match by hash is checked on the commit row
 * (its subject, author, Message-Ids one a line).  A cold fill's commit
 * rows are in chunks (index-commits.c); what is computed later for a
 * commit (its patch-id, the paths it changes) is kept beside them.
 */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS commits ("
	" id INTEGER PRIMARY KEY, oid BLOB NOT NULL, subject TEXT,"
	" email TEXT, msgids TEXT);"
	"CREATE TABLE IF NOT EXISTS commit_chunks ("
	" id INTEGER PRIMARY KEY, nr INTEGER NOT NULL, data BLOB NOT NULL);"
	"CREATE TABLE IF NOT EXISTS commit_extra ("
	" id INTEGER PRIMARY KEY, oid BLOB NOT NULL, patch_id TEXT,"
	" files TEXT);"
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
	" h INTEGER NOT NULL, id INTEGER NOT NULL,"
	" PRIMARY KEY (h, id)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS ranges ("
	" id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, base TEXT,"
	" tip TEXT, next_pos INTEGER NOT NULL DEFAULT 1,"
	" used INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS range_commits ("
	" range_id INTEGER NOT NULL, commit_id INTEGER NOT NULL,"
	" pos INTEGER NOT NULL, PRIMARY KEY (range_id, commit_id))"
	" WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS runs ("
	" id INTEGER PRIMARY KEY, kind INTEGER NOT NULL,"
	" range_id INTEGER NOT NULL, nr INTEGER NOT NULL, dir BLOB NOT NULL);"
	"CREATE TABLE IF NOT EXISTS run_chunks ("
	" id INTEGER PRIMARY KEY, data BLOB NOT NULL);"
	"CREATE TABLE IF NOT EXISTS touches ("
	" id INTEGER NOT NULL, h INTEGER NOT NULL, yes INTEGER NOT NULL,"
	" PRIMARY KEY (id, h)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS ancestry ("
	" anc TEXT NOT NULL, desc TEXT NOT NULL, yes INTEGER NOT NULL,"
	" PRIMARY KEY (anc, desc)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS matches ("
	" key INTEGER NOT NULL, id INTEGER NOT NULL, common INTEGER,"
	" nr INTEGER, cover BLOB, difference TEXT,"
	" PRIMARY KEY (key, id)) WITHOUT ROWID;";

static const char drop[] =
	"DROP TABLE IF EXISTS commits; DROP TABLE IF EXISTS oids;"
	"DROP TABLE IF EXISTS commit_chunks; DROP TABLE IF EXISTS commit_extra;"
	"DROP TABLE IF EXISTS subjects; DROP TABLE IF EXISTS emails;"
	"DROP TABLE IF EXISTS uprefs; DROP TABLE IF EXISTS msgids;"
	"DROP TABLE IF EXISTS fixes; DROP TABLE IF EXISTS ranges;"
	"DROP TABLE IF EXISTS range_commits; DROP TABLE IF EXISTS ancestry;"
	"DROP TABLE IF EXISTS touches; DROP TABLE IF EXISTS runs;"
	"DROP TABLE IF EXISTS run_chunks; DROP TABLE IF EXISTS matches;";

static const char *const stmt_sql[ST_NR] = {
	[ST_FIND_ID] = "SELECT id FROM oids WHERE oid = ?1",
	/* ids after every row's, the chunks' too */
	[ST_INSERT_COMMIT] = "INSERT INTO commits (id, oid, subject, email,"
		" msgids) VALUES (max(coalesce((SELECT max(id) FROM commits),"
		" 0), coalesce((SELECT id + nr - 1 FROM commit_chunks"
		" ORDER BY id DESC LIMIT 1), 0)) + 1, ?2, ?3, ?4, ?5)",
	[ST_GET_RANGE] = "SELECT id, base, tip, next_pos FROM ranges"
		" WHERE name = ?1",
	[ST_INSERT_RANGE] = "INSERT INTO ranges (name, used) VALUES (?1,"
		" (SELECT coalesce(max(used), 0) + 1 FROM ranges))",
	[ST_TOUCH_RANGE] = "UPDATE ranges SET used ="
		" (SELECT max(used) + 1 FROM ranges) WHERE id = ?1"
		" AND used < (SELECT max(used) FROM ranges)",
	[ST_OLD_RANGES] = "SELECT id FROM ranges ORDER BY used DESC"
		" LIMIT -1 OFFSET ?1",
	[ST_UPDATE_RANGE] = "UPDATE ranges SET base = ?2, tip = ?3,"
		" next_pos = ?4 WHERE id = ?1",
	[ST_CLEAR_RANGE] = "DELETE FROM range_commits WHERE range_id = ?1",
	[ST_INSERT_MEMBER] = "INSERT OR IGNORE INTO range_commits"
		" (range_id, commit_id, pos) VALUES (?1, ?2, ?3)",
	[ST_MEMBERS] = "SELECT commit_id, pos FROM range_commits"
		" WHERE range_id = ?1",
	[ST_COMMIT_ROW] = "SELECT id, oid, subject, email, msgids"
		" FROM commits WHERE id = ?1",
	[ST_COMMIT_CHUNK] = "SELECT id, nr, data FROM commit_chunks"
		" WHERE id <= ?1 ORDER BY id DESC LIMIT 1",
	[ST_INSERT_CHUNK] = "INSERT INTO commit_chunks (id, nr, data)"
		" VALUES (?1, ?2, ?3)",
	/* the ids of a lookup's rows, and their kind (uprefs) */
	[ST_BY_PREFIX] = "SELECT id, -1 FROM oids WHERE oid BETWEEN ?1 AND ?2",
	[ST_BY_SUBJECT] = "SELECT id, -1 FROM subjects WHERE h = ?1",
	[ST_BY_EMAIL] = "SELECT id, -1 FROM emails WHERE h = ?1",
	[ST_BY_MSGID] = "SELECT id, -1 FROM msgids WHERE h = ?1",
	[ST_BY_UPSTREAM] = "SELECT id, kind FROM uprefs"
		" WHERE upstream BETWEEN substr(?1, 1, 12) AND ?1"
		" AND substr(?1, 1, length(upstream)) = upstream",
	[ST_REVERTS] = "SELECT id, kind FROM uprefs WHERE kind = ?1",
	[ST_ALL_UPREFS] = "SELECT upstream, kind, id FROM uprefs",
	[ST_GET_FILES] = "SELECT files FROM commit_extra WHERE id = ?1",
	[ST_SET_FILES] = "INSERT INTO commit_extra (id, oid, files)"
		" VALUES (?1, ?3, ?2) ON CONFLICT (id) DO UPDATE"
		" SET files = excluded.files",
	[ST_GET_PATCHID] = "SELECT patch_id FROM commit_extra WHERE id = ?1",
	[ST_SET_PATCHID] = "INSERT INTO commit_extra (id, oid, patch_id)"
		" VALUES (?1, ?3, ?2) ON CONFLICT (id) DO UPDATE"
		" SET patch_id = excluded.patch_id",
	[ST_GET_TOUCH] = "SELECT yes FROM touches WHERE id = ?1 AND h = ?2",
	[ST_SET_TOUCH] = "INSERT OR REPLACE INTO touches (id, h, yes)"
		" VALUES (?1, ?2, ?3)",
	[ST_GET_ANC] = "SELECT yes FROM ancestry WHERE anc = ?1 AND desc = ?2",
	[ST_SET_ANC] = "INSERT OR REPLACE INTO ancestry (anc, desc, yes)"
		" VALUES (?1, ?2, ?3)",
	[ST_GET_MATCH] = "SELECT common, nr, cover, difference FROM matches"
		" WHERE key = ?1 AND id = ?2",
	[ST_SET_MATCH] = "INSERT OR REPLACE INTO matches (key, id, common, nr,"
		" cover, difference) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[ST_RUNS] = "SELECT id, kind, range_id, nr, dir FROM runs ORDER BY id",
	[ST_RUN_CHUNK] = "SELECT data FROM run_chunks WHERE id = ?1",
	[ST_RUN_INSERT] = "INSERT INTO runs (kind, range_id, nr, dir)"
		" VALUES (?1, ?2, ?3, ?4)",
	[ST_RUN_CHUNK_INSERT] = "INSERT INTO run_chunks (id, data)"
		" VALUES (?1, ?2)",
	[ST_RUN_DROP_CHUNKS] = "DELETE FROM run_chunks"
		" WHERE id >= ?1 AND id < ?2",
	[ST_RUN_DROP] = "DELETE FROM runs WHERE id = ?1",
};

int sk_index__db_error(struct sk_index *idx, const char *what)
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

	if (sqlite3_prepare_v2(idx->db, "SELECT 1 FROM commits UNION ALL"
			       " SELECT 1 FROM commit_chunks LIMIT 1", -1,
			       &s, NULL) != SQLITE_OK)
		return sk_index__db_error(idx, "commits");
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return sk_index__db_error(idx, "commits");
	return rc == SQLITE_DONE;
}


/* A PRAGMA's integer, or -1. */
static long long pragma_int(struct sk_index *idx, const char *sql)
{
	sqlite3_stmt *s = NULL;
	long long v = -1;

	if (sqlite3_prepare_v2(idx->db, sql, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/*
 * Is the file whole: a database (not a foreign file), with as many pages
 * as its header says (not truncated)?  1, 0, or an error (the file busy:
 * another run holds it, which is no reason to delete it).  Cheap: no page
 * is read but the first.  With a write-ahead log the database may be
 * longer than the file: then sqlite's word is taken.
 */
static int file_whole(struct sk_index *idx, const char *path)
{
	struct stat st;
	long long pages, size;
	char *wal;
	int rc, has_wal;

	rc = sqlite3_exec(idx->db, "SELECT count(*) FROM sqlite_master", NULL,
			  NULL, NULL);
	if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
		return 0;
	if (rc != SQLITE_OK)
		return sk_index__db_error(idx, path);
	wal = sk_xstrfmt("%s-wal", path);
	has_wal = !stat(wal, &st) && st.st_size > 0;
	free(wal);
	if (has_wal)
		return 1;
	pages = pragma_int(idx, "PRAGMA page_count");
	size = pragma_int(idx, "PRAGMA page_size");
	if (pages < 0 || size <= 0 || stat(path, &st))
		return 0;
	return st.st_size >= pages * size;
}

static void unlink_index(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	size_t i;

	for (i = 0; i < sizeof(suffix) / sizeof(*suffix); i++) {
		char *p = sk_xstrfmt("%s%s", path, suffix[i]);

		unlink(p);
		free(p);
	}
}

static int open_db(struct sk_index *idx, const char *path)
{
	if (sqlite3_open_v2(path, &idx->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		return sk_error_set(SK_ERROR, "cannot open index '%s': %s",
				    path, sqlite3_errmsg(idx->db));
	sqlite3_busy_timeout(idx->db, 5000);
	return 0;
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
	idx->path = sk_xstrdup(path);
	ret = open_db(idx, path);
	if (ret)
		goto fail;
	/* A cache: a torn or foreign file is rebuilt, and said so. */
	ret = file_whole(idx, path);
	if (ret < 0)
		goto fail;
	if (!ret) {
		sqlite3_close(idx->db);
		idx->db = NULL;
		unlink_index(path);
		idx->warning = sk_xstrfmt("the index '%s' was torn or not an "
					  "index; rebuilt", path);
		ret = open_db(idx, path);
		if (ret)
			goto fail;
	}
	/*
	 * Speed over durability; pages read through a mapping (a warm run
	 * reads a few thousand, and copying each costs more than the query).
	 */
	ret = exec(idx, "PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY;"
		   " PRAGMA cache_size = -16384; PRAGMA mmap_size = 1073741824;");
	if (ret)
		goto fail;
	if (user_version(idx) != SCHEMA_VERSION) {
		sk_strbuf_addf(&sql, "BEGIN; %s PRAGMA user_version = %d;"
			       " COMMIT;", drop, SCHEMA_VERSION);
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
	/* one transaction: a journal written and deleted, not one a table */
	ret = exec(idx, "BEGIN");
	if (!ret)
		ret = exec(idx, schema);
	if (!ret)
		ret = exec(idx, "COMMIT");
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
			ret = sk_index__db_error(idx, stmt_sql[i]);
			goto fail;
		}
	for (i = 0; i < SIDE_NR; i++) {
		ret = sk_index__side_prepare(&idx->side_one[i], idx, i, 1);
		if (ret)
			goto fail;
	}
	ret = exec(idx, "BEGIN");
	/* runs a cold fill did not finish cannot be trusted */
	if (!ret && idx->bulk)
		ret = sk_index__runs_drop(idx, 0);
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
	sk_index__side_release(idx);
	sk_index__runs_release(idx);
	sk_index__chunk_forget(idx);
	sk_index__graph_release(&idx->g);
	sk_strbuf_release(&idx->norm);
	sk_strbuf_release(&idx->summary);
	sk_strbuf_release(&idx->msg);
	sk_strbuf_release(&idx->email);
	free(idx->warning);
	free(idx->path);
	free(idx);
}

const char *sk_index_warning(const struct sk_index *idx)
{
	return idx ? idx->warning : NULL;
}

sqlite3_stmt *sk_index__stmt(struct sk_index *idx, enum stmt which)
{
	sqlite3_stmt *s = idx->st[which];

	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return s;
}

void sk_index__bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* For a value that outlives the statement's next step. */
void sk_index__bind_static(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

int sk_index__step_done(struct sk_index *idx, sqlite3_stmt *s,
			const char *what)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sk_index__db_error(idx, what);
	return 0;
}

int sk_index__set_extra(struct sk_index *idx, enum stmt which, long long id,
			const char *hex, const char *value)
{
	sqlite3_stmt *s;
	git_oid oid;

	/* a commit the index does not have: nothing to keep it with */
	if (!id || git_oid_fromstr(&oid, hex))
		return 0;
	s = sk_index__stmt(idx, which);
	sqlite3_bind_int64(s, 1, id);
	sk_index__bind_text(s, 2, value);
	sqlite3_bind_blob(s, 3, oid.id, GIT_OID_RAWSZ, SQLITE_TRANSIENT);
	return sk_index__step_done(idx, s, which == ST_SET_PATCHID ?
				   "store patch-id" : "store files");
}

/* ---- a lookup: candidate rows, their range, their commit rows ---- */

/* A commit row a lookup found, before it is checked. */
struct cand {
	long long id, pos;
	int kind;
	size_t ord;		/* found as the ord-th: ties keep it */
};

struct cands {
	struct cand *items;
	size_t nr, alloc;
};

/* What a match by hash or by prefix is checked on, in the commit row. */
enum check { CHECK_NONE, CHECK_SUBJECT, CHECK_EMAIL, CHECK_MSGID,
	     CHECK_PREFIX };

static void cand_add(struct cands *c, long long id, int kind)
{
	struct cand *x = SK_ARRAY_PUSH(c->items, c->nr, c->alloc);

	x->id = id;
	x->pos = 0;
	x->kind = kind;
	x->ord = c->nr - 1;
}

/* The rows of a query returning (id, kind). */
static int cands_sql(struct cands *c, struct sk_index *idx, sqlite3_stmt *s)
{
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		cand_add(c, sqlite3_column_int64(s, 0),
			 sqlite3_column_int(s, 1));
	return rc == SQLITE_DONE ? 0 : sk_index__db_error(idx, "query");
}

static int cands_runs(struct cands *c, struct sk_index *idx,
		      enum run_kind kind, uint64_t lo, uint64_t hi)
{
	struct sk_run_recs rs = { 0 };
	size_t i;
	int ret = sk_index__runs_find(&rs, idx, kind, 0, lo, hi);

	for (i = 0; !ret && i < rs.nr; i++)
		cand_add(c, rs.recs[i].id, -1);
	sk_index__run_recs_release(&rs);
	return ret;
}

/*
 * A range's members, read whole on its first lookup: a position for each
 * commit row (0: not a member).  A lookup checks many candidates (an
 * author's commits), one at a time each a search of the runs.
 */
struct members {
	long long range;
	uint32_t *pos;
	size_t nr;		/* rows 0 .. nr - 1 */
};

void sk_index__members_forget(struct sk_index *idx)
{
	size_t i;

	for (i = 0; i < idx->nr_members; i++)
		free(idx->members[i].pos);
	free(idx->members);
	idx->members = NULL;
	idx->nr_members = idx->alloc_members = 0;
}

static void members_set(struct members *m, long long id, long long pos)
{
	size_t nr = m->nr;

	if (id < 0 || pos <= 0 || pos > UINT32_MAX)
		return;
	if ((size_t)id >= nr) {
		while ((size_t)id >= nr)
			nr = nr ? 2 * nr : 1024;
		m->pos = sk_xrealloc(m->pos, nr * sizeof(*m->pos));
		memset(m->pos + m->nr, 0, (nr - m->nr) * sizeof(*m->pos));
		m->nr = nr;
	}
	m->pos[id] = (uint32_t)pos;
}

static void members_add(void *data, const struct sk_run_rec *recs,
			size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		members_set(data, recs[i].id, recs[i].val);
}

static int members_get(struct members **out, struct sk_index *idx,
		       long long range)
{
	struct members *m;
	sqlite3_stmt *s;
	size_t i;
	int ret, rc;

	for (i = 0; i < idx->nr_members; i++)
		if (idx->members[i].range == range) {
			*out = &idx->members[i];
			return 0;
		}
	m = SK_ARRAY_PUSH(idx->members, idx->nr_members, idx->alloc_members);
	memset(m, 0, sizeof(*m));
	m->range = range;
	ret = sk_index__runs_scan(idx, RUN_MEMBERS, range, 0, UINT64_MAX,
				  members_add, m);
	s = sk_index__stmt(idx, ST_MEMBERS);
	sqlite3_bind_int64(s, 1, range);
	while (!ret && (rc = sqlite3_step(s)) == SQLITE_ROW)
		members_set(m, sqlite3_column_int64(s, 0),
			    sqlite3_column_int64(s, 1));
	if (!ret && rc != SQLITE_DONE)
		ret = sk_index__db_error(idx, "range");
	*out = &idx->members[idx->nr_members - 1];
	return ret;
}

/* 1 and its position if commit row id is in the range, 0 if not. */
static int member_pos(long long *pos, struct sk_index *idx, long long range,
		      long long id)
{
	struct members *m;
	int ret = members_get(&m, idx, range);

	if (ret)
		return ret;
	if (id < 0 || (size_t)id >= m->nr || !m->pos[id])
		return 0;
	*pos = m->pos[id];
	return 1;
}

static int cmp_pos(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

static int cmp_pos_desc(const void *a, const void *b)
{
	return -cmp_pos(a, b);
}

/* Only the members of range (0: any commit), each with its position. */
static int cands_in_range(struct cands *c, struct sk_index *idx,
			  long long range)
{
	size_t i, j = 0;
	int yes;

	for (i = 0; range && i < c->nr; i++) {
		yes = member_pos(&c->items[i].pos, idx, range,
				 c->items[i].id);
		if (yes < 0)
			return yes;
		if (yes)
			c->items[j++] = c->items[i];
	}
	if (range)
		c->nr = j;
	return 0;
}

/*
 * Within a range (not 0), only its members, with their positions; then
 * oldest first: along the range, or by row (the order rows were added).
 */
static int cands_order(struct cands *c, struct sk_index *idx, long long range)
{
	int ret = cands_in_range(c, idx, range);

	if (!ret && c->nr > 1)
		qsort(c->items, c->nr, sizeof(*c->items), cmp_pos);
	return ret;
}

static char *column_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return sk_xstrdup(t ? (const char *)t : "");
}

static void row_oid(char out[GIT_OID_HEXSZ + 1], const struct sk_index_row *r)
{
	git_oid oid;

	git_oid_fromraw(&oid, r->oid);
	git_oid_tostr(out, GIT_OID_HEXSZ + 1, &oid);
}

/* Is line one of the lines of text? */
static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	while (text && *text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);

		if (len == n && !memcmp(text, line, n))
			return 1;
		text = eol ? eol + 1 : NULL;
	}
	return 0;
}

/* Does the commit row pass the check on arg? */
static int row_matches(struct sk_index *idx, const struct sk_index_row *r,
		       enum check check, const char *arg)
{
	char hex[GIT_OID_HEXSZ + 1];

	switch (check) {
	case CHECK_NONE:
		return 1;
	case CHECK_SUBJECT:
		sk_subject_norm(&idx->norm, r->subject ? r->subject : "");
		return !strcmp(idx->norm.buf, arg);
	case CHECK_EMAIL:
		return r->email && !strcmp(r->email, arg);
	case CHECK_MSGID:
		return has_line(r->msgids, arg);
	case CHECK_PREFIX:
		row_oid(hex, r);
		return !strncasecmp(hex, arg, strlen(arg));
	}
	return 0;
}

/*
 * The commit rows of the candidates, in their order, that pass the check:
 * at most cap of them (0: all), appended to out.
 */
static int cands_collect(struct sk_index_list *out, struct sk_index *idx,
			 const struct cands *c, enum check check,
			 const char *arg, size_t cap)
{
	size_t i, added = 0;
	int rc;

	for (i = 0; i < c->nr && (!cap || added < cap); i++) {
		struct sk_index_commit *x;
		struct sk_index_row r;

		rc = sk_index__commit_row(&r, idx, c->items[i].id);
		if (rc < 0)
			return rc;
		if (!rc || !row_matches(idx, &r, check, arg))
			continue;
		x = SK_ARRAY_PUSH(out->items, out->nr, out->alloc);
		x->id = r.id;
		row_oid(x->oid, &r);
		x->subject = sk_xstrdup(r.subject ? r.subject : "");
		x->email = sk_xstrdup(r.email ? r.email : "");
		x->pos = c->items[i].pos;
		x->kind = c->items[i].kind;
		added++;
	}
	return 0;
}

/*
 * The candidates of a lookup by the hash of a text: from the runs of kind
 * and from the table (its statement), in order (see cands_order).
 */
static int hash_cands(struct cands *c, struct sk_index *idx,
		      enum run_kind kind, enum stmt which, long long range,
		      const char *text, int sorted)
{
	uint64_t h = (uint64_t)sk_index__text_hash(text);
	sqlite3_stmt *s;
	int ret = sk_index_finish(idx);

	if (!ret)
		ret = cands_runs(c, idx, kind, h, h);
	if (!ret) {
		s = sk_index__stmt(idx, which);
		sqlite3_bind_int64(s, 1, (long long)h);
		ret = cands_sql(c, idx, s);
	}
	if (ret)
		return ret;
	return sorted ? cands_order(c, idx, range) :
			cands_in_range(c, idx, range);
}

/* A lookup by the hash of a text, checked on the commit row; oldest first. */
static int by_hash(struct sk_index_list *out, struct sk_index *idx,
		   enum run_kind kind, enum stmt which, enum check check,
		   long long range, const char *text)
{
	struct cands c = { 0 };
	int ret = hash_cands(&c, idx, kind, which, range, text ? text : "",
			     1);

	if (!ret)
		ret = cands_collect(out, idx, &c, check, text ? text : "", 0);
	free(c.items);
	return ret;
}

int sk_index__find_id(long long *id, struct sk_index *idx, const git_oid *oid)
{
	struct cands c = { 0 };
	uint64_t key = sk_index__oid_key(oid);
	sqlite3_stmt *s;
	size_t i;
	int ret, rc;

	*id = 0;
	ret = cands_runs(&c, idx, RUN_OIDS, key, key);
	for (i = 0; !ret && i < c.nr && !*id; i++) {
		struct sk_index_row r;

		rc = sk_index__commit_row(&r, idx, c.items[i].id);
		if (rc < 0)
			ret = rc;
		else if (rc && !memcmp(r.oid, oid->id, GIT_OID_RAWSZ))
			*id = c.items[i].id;
	}
	free(c.items);
	if (ret || *id)
		return ret;
	s = sk_index__stmt(idx, ST_FIND_ID);
	sqlite3_bind_blob(s, 1, oid->id, GIT_OID_RAWSZ, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		return sk_index__db_error(idx, "find commit");
	return 0;
}

/* The row of a full hex id; 0 if it does not parse or is not known. */
static int hex_id(long long *id, struct sk_index *idx, const char *hex)
{
	git_oid oid;

	*id = 0;
	if (strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(&oid, hex))
		return 0;
	return sk_index__find_id(id, idx, &oid);
}

int sk_index_in_range(struct sk_index *idx, long long range, const char *oid)
{
	long long id, pos;

	if (sk_index_finish(idx) || hex_id(&id, idx, oid) || !id)
		return 0;
	return member_pos(&pos, idx, range, id) == 1;
}

int sk_index_by_prefix(struct sk_index_list *out, struct sk_index *idx,
		       long long range, const char *hex)
{
	char lo[GIT_OID_HEXSZ + 1], hi[GIT_OID_HEXSZ + 1];
	struct cands c = { 0 };
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
	ret = cands_runs(&c, idx, RUN_OIDS, sk_index__oid_key(&a),
			 sk_index__oid_key(&b));
	if (!ret) {
		s = sk_index__stmt(idx, ST_BY_PREFIX);
		sqlite3_bind_blob(s, 1, a.id, GIT_OID_RAWSZ, SQLITE_TRANSIENT);
		sqlite3_bind_blob(s, 2, b.id, GIT_OID_RAWSZ, SQLITE_TRANSIENT);
		ret = cands_sql(&c, idx, s);
	}
	if (!ret)
		ret = cands_order(&c, idx, range);
	if (!ret)
		ret = cands_collect(out, idx, &c, CHECK_PREFIX, hex, 0);
	free(c.items);
	return ret;
}

int sk_index_by_subject(struct sk_index_list *out, struct sk_index *idx,
			long long range, const char *subject_norm)
{
	return by_hash(out, idx, RUN_SUBJECTS, ST_BY_SUBJECT, CHECK_SUBJECT,
		       range, subject_norm);
}

int sk_index_by_email(struct sk_index_list *out, struct sk_index *idx,
		      long long range, const char *email)
{
	return by_hash(out, idx, RUN_EMAILS, ST_BY_EMAIL, CHECK_EMAIL, range,
		       email);
}

/*
 * The k newest of c first, newest first; the others after them, in no
 * order.  An author's few hundred newest of tens of thousands of commits:
 * a selection, not a sort of them all.
 */
static void cands_newest_first(struct cands *c, size_t k)
{
	size_t lo = 0, hi = c->nr, i, store;
	struct cand t;

	while (k < c->nr && hi - lo > 1) {
		/* the middle as pivot: the runs give rows nearly sorted */
		t = c->items[lo + (hi - lo) / 2];
		c->items[lo + (hi - lo) / 2] = c->items[hi - 1];
		c->items[hi - 1] = t;
		for (i = store = lo; i < hi - 1; i++) {
			if (cmp_pos_desc(&c->items[i], &c->items[hi - 1]) < 0) {
				t = c->items[i];
				c->items[i] = c->items[store];
				c->items[store++] = t;
			}
		}
		t = c->items[store];
		c->items[store] = c->items[hi - 1];
		c->items[hi - 1] = t;
		if (store == k)
			break;
		if (store < k)
			lo = store + 1;
		else
			hi = store;
	}
	if (k > c->nr)
		k = c->nr;
	if (k > 1)
		qsort(c->items, k, sizeof(*c->items), cmp_pos_desc);
}

/*
 * The author's commits (any range), those of the range kept, newest
 * first; only the first cap rows are read.
 */
int sk_index_by_email_recent(struct sk_index_list *out, struct sk_index *idx,
			     long long range, const char *email, size_t cap)
{
	struct cands c = { 0 }, rest;
	size_t k, before = out->nr;
	int ret = hash_cands(&c, idx, RUN_EMAILS, ST_BY_EMAIL, range, email,
			     0);

	/* a few more than cap: a row whose email only shares the hash */
	k = cap ? 2 * cap + 16 : c.nr;
	if (!ret)
		cands_newest_first(&c, k);
	rest = c;
	rest.nr = k < c.nr ? k : c.nr;
	if (!ret && cap)
		ret = cands_collect(out, idx, &rest, CHECK_EMAIL, email, cap);
	if (!ret && cap && out->nr - before < cap && rest.nr < c.nr) {
		rest.items = c.items + rest.nr;
		rest.nr = c.nr - rest.nr;
		qsort(rest.items, rest.nr, sizeof(*rest.items), cmp_pos_desc);
		ret = cands_collect(out, idx, &rest, CHECK_EMAIL, email,
				    cap - (out->nr - before));
	}
	free(c.items);
	return ret;
}

int sk_index_by_msgid(struct sk_index_list *out, struct sk_index *idx,
		      long long range, const char *msgid)
{
	return by_hash(out, idx, RUN_MSGIDS, ST_BY_MSGID, CHECK_MSGID, range,
		       msgid);
}

/* Upstream references are few: the table alone holds them. */
int sk_index_by_upstream(struct sk_index_list *out, struct sk_index *idx,
			 long long range, const char *oid)
{
	struct cands c = { 0 };
	sqlite3_stmt *s;
	int ret = sk_index_finish(idx);

	if (!ret) {
		s = sk_index__stmt(idx, ST_BY_UPSTREAM);
		sk_index__bind_text(s, 1, oid);
		ret = cands_sql(&c, idx, s);
	}
	if (!ret)
		ret = cands_order(&c, idx, range);
	if (!ret)
		ret = cands_collect(out, idx, &c, CHECK_NONE, NULL, 0);
	free(c.items);
	return ret;
}

static int is_but(long long id, const long long *but, size_t nr_but)
{
	size_t lo = 0, hi = nr_but;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (but[mid] == id)
			return 1;
		if (but[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The newest cap of the range's commits but those in but, newest first. */
static int range_commits(struct sk_index_list *out, struct sk_index *idx,
			 long long range, size_t cap, const long long *but,
			 size_t nr_but)
{
	struct cands c = { 0 };
	struct members *m;
	size_t i;
	int ret = sk_index_finish(idx);

	if (!ret)
		ret = members_get(&m, idx, range);
	for (i = 0; !ret && i < m->nr; i++)
		if (m->pos[i] && !is_but((long long)i, but, nr_but)) {
			cand_add(&c, (long long)i, -1);
			c.items[c.nr - 1].pos = m->pos[i];
		}
	if (!ret && c.nr > 1)
		qsort(c.items, c.nr, sizeof(*c.items), cmp_pos_desc);
	if (!ret)
		ret = cands_collect(out, idx, &c, CHECK_NONE, NULL, cap);
	free(c.items);
	return ret;
}

/*
 * The newest cap commits of the range (its members, read whole), newest
 * first: where a pick is looked for whatever its subject and author.
 */
int sk_index_range_commits(struct sk_index_list *out, struct sk_index *idx,
			   long long range, size_t cap)
{
	return range_commits(out, idx, range, cap, NULL, 0);
}

/* A row read per commit costs: those a caller has no use for are not read. */
int sk_index_range_commits_but(struct sk_index_list *out, struct sk_index *idx,
			       long long range, const long long *but,
			       size_t nr_but)
{
	return range_commits(out, idx, range, 0, but, nr_but);
}

static int upref_pos_cmp(const void *a, const void *b)
{
	const struct sk_index_upref *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* One pass over the table: a lookup per sha costs a query each. */
int sk_index_range_uprefs(struct sk_index_upref **out, size_t *nr,
			  struct sk_index *idx, long long range)
{
	struct members *m;
	sqlite3_stmt *s;
	size_t alloc = 0;
	int ret = sk_index_finish(idx), rc;

	*out = NULL;
	*nr = 0;
	if (!ret)
		ret = members_get(&m, idx, range);
	if (ret)
		return ret;
	s = sk_index__stmt(idx, ST_ALL_UPREFS);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		long long id = sqlite3_column_int64(s, 2);
		const unsigned char *up = sqlite3_column_text(s, 0);
		struct sk_index_upref *u;
		struct sk_index_row r;

		if (id < 0 || (size_t)id >= m->nr || !m->pos[id] || !up)
			continue;
		ret = sk_index__commit_row(&r, idx, id);
		if (ret < 0) {
			free(*out);
			*out = NULL;
			*nr = 0;
			return ret;
		}
		if (!ret)
			continue;
		u = SK_ARRAY_PUSH(*out, *nr, alloc);
		snprintf(u->upstream, sizeof(u->upstream), "%s", up);
		u->kind = sqlite3_column_int(s, 1);
		u->id = id;
		row_oid(u->oid, &r);
		u->pos = m->pos[id];
	}
	if (rc != SQLITE_DONE)
		return sk_index__db_error(idx, "upstream references");
	if (*nr > 1)
		qsort(*out, *nr, sizeof(**out), upref_pos_cmp);
	return 0;
}

/* Reverts are few beside the backports: a scan of the table. */
int sk_index_reverts(struct sk_index_list *out, struct sk_index *idx,
		     long long range)
{
	struct cands c = { 0 };
	sqlite3_stmt *s;
	int ret = sk_index_finish(idx);

	if (!ret) {
		s = sk_index__stmt(idx, ST_REVERTS);
		sqlite3_bind_int(s, 1, SK_UPREF_REVERT);
		ret = cands_sql(&c, idx, s);
	}
	if (!ret)
		ret = cands_order(&c, idx, range);
	if (!ret)
		ret = cands_collect(out, idx, &c, CHECK_NONE, NULL, 0);
	free(c.items);
	return ret;
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

/* The commit's tree and its first parent's (NULL for a root commit). */
static int commit_trees(git_tree **ptree, git_tree **tree, git_repository *repo,
			const char *hex)
{
	git_oid oid;
	git_commit *c = NULL, *parent = NULL;
	int ret = 0;

	*ptree = *tree = NULL;
	if (git_oid_fromstr(&oid, hex) || git_commit_lookup(&c, repo, &oid) ||
	    git_commit_tree(tree, c) ||
	    (git_commit_parentcount(c) &&
	     (git_commit_parent(&parent, c, 0) ||
	      git_commit_tree(ptree, parent))))
		ret = sk_error_git(SK_ERROR, hex);
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

/* The paths it changes against its first parent, without renames. */
int sk_index__files_text(struct sk_strbuf *sb, git_repository *repo,
			 const char *oid)
{
	struct sk_tree_changes c = { 0 };
	git_tree *ptree, *tree;
	size_t i;
	int ret = commit_trees(&ptree, &tree, repo, oid);

	if (!ret)
		ret = sk_tree_changes(&c, repo, ptree, tree, 0);
	for (i = 0; !ret && i < c.nr; i++)
		sk_strbuf_addf(sb, "%s\n", c.items[i].path);
	sk_tree_changes_release(&c);
	git_tree_free(ptree);
	git_tree_free(tree);
	return ret;
}

int sk_index_files(char ***out, size_t *nr, struct sk_index *idx,
		   git_repository *repo, const char *oid)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	sqlite3_stmt *s;
	long long id;
	int ret = sk_index_finish(idx);

	if (!ret)
		ret = hex_id(&id, idx, oid);
	if (ret)
		return ret;
	s = sk_index__stmt(idx, ST_GET_FILES);
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW &&
	    sqlite3_column_type(s, 0) != SQLITE_NULL) {
		split_files(out, nr, (const char *)sqlite3_column_text(s, 0));
		return 0;
	}
	idx->diffs++;
	ret = sk_index__files_text(&sb, repo, oid);
	if (ret)
		return ret;
	ret = sk_index__set_extra(idx, ST_SET_FILES, id, oid, sb.buf);
	if (!ret)
		split_files(out, nr, sb.buf);
	sk_strbuf_release(&sb);
	return ret;
}

/* Does the entry at path differ between the two trees (one may be NULL)? */
static int path_changed(git_tree *ptree, git_tree *tree, const char *path)
{
	git_tree_entry *a = NULL, *b = NULL;
	int changed;

	if (ptree && git_tree_entry_bypath(&a, ptree, path))
		sk_error_clear();
	if (git_tree_entry_bypath(&b, tree, path))
		sk_error_clear();
	changed = !a != !b || (a && (!git_oid_equal(git_tree_entry_id(a),
						    git_tree_entry_id(b)) ||
				     git_tree_entry_filemode(a) !=
				     git_tree_entry_filemode(b)));
	git_tree_entry_free(a);
	git_tree_entry_free(b);
	return changed;
}

/* From the stored file list: 1, 0, or -1 when there is none. */
static int files_have_all(struct sk_index *idx, long long id,
			  char *const *paths, size_t nr)
{
	sqlite3_stmt *s = sk_index__stmt(idx, ST_GET_FILES);
	char **files;
	size_t n, i, j;
	int yes = 1;

	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) != SQLITE_ROW ||
	    sqlite3_column_type(s, 0) == SQLITE_NULL)
		return -1;
	split_files(&files, &n, (const char *)sqlite3_column_text(s, 0));
	for (i = 0; i < nr && yes; i++) {
		for (j = 0; j < n && strcmp(files[j], paths[i]); j++)
			;
		yes = j < n;
	}
	sk_index_files_free(files, n);
	return yes;
}

/*
 * Does the commit change every one of paths (against its first parent)?
 * A kept answer, else the stored file list if there is one; else the
 * entries at those paths are compared in the two trees, as `git log --
 * <paths>` does, far cheaper than the diff, which is left for the commits
 * that pass.  The answer is kept, keyed by the commit and the set of
 * paths.
 */
int sk_index_touches_all(struct sk_index *idx, git_repository *repo,
			 const char *oid, char *const *paths, size_t nr)
{
	git_oid id;
	git_commit *c = NULL, *parent = NULL;
	git_tree *tree = NULL, *ptree = NULL;
	struct sk_strbuf key = SK_STRBUF_INIT;
	sqlite3_stmt *s;
	long long h, row;
	size_t i;
	int ret = sk_index_finish(idx), yes;

	if (!ret)
		ret = hex_id(&row, idx, oid);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++)
		sk_strbuf_addf(&key, "%s\n", paths[i]);
	h = sk_index__text_hash(key.buf);
	sk_strbuf_release(&key);
	s = sk_index__stmt(idx, ST_GET_TOUCH);
	sqlite3_bind_int64(s, 1, row);
	sqlite3_bind_int64(s, 2, h);
	if (sqlite3_step(s) == SQLITE_ROW)
		return sqlite3_column_int(s, 0);
	yes = files_have_all(idx, row, paths, nr);
	if (yes >= 0)
		return yes;
	if (git_oid_fromstr(&id, oid) || git_commit_lookup(&c, repo, &id) ||
	    git_commit_tree(&tree, c) ||
	    (git_commit_parentcount(c) &&
	     (git_commit_parent(&parent, c, 0) ||
	      git_commit_tree(&ptree, parent)))) {
		ret = sk_error_git(SK_ERROR, oid);
		goto out;
	}
	for (i = 0, yes = 1; i < nr && yes; i++)
		yes = path_changed(ptree, tree, paths[i]);
	s = sk_index__stmt(idx, ST_SET_TOUCH);
	sqlite3_bind_int64(s, 1, row);
	sqlite3_bind_int64(s, 2, h);
	sqlite3_bind_int(s, 3, yes);
	ret = row ? sk_index__step_done(idx, s, "store touched paths") : 0;
	if (!ret)
		ret = yes;
out:
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	git_commit_free(c);
	return ret;
}

void sk_index_files_free(char **files, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(files[i]);
	free(files);
}

/* as git show diffs it: renames, the indent heuristic */
int sk_index__patchid_compute(char out[41], git_repository *repo,
			      const char *oid)
{
	git_commit *c = NULL;
	git_oid goid;
	int ret;

	if (git_oid_fromstr(&goid, oid) || git_commit_lookup(&c, repo, &goid))
		return sk_error_git(SK_ERROR, oid);
	ret = sk_patchid_commit(out, repo, c);
	git_commit_free(c);
	return ret;
}

int sk_index_patchid(char out[41], struct sk_index *idx, git_repository *repo,
		     const char *oid)
{
	sqlite3_stmt *s;
	long long id;
	int ret = sk_index_finish(idx);

	if (!ret)
		ret = hex_id(&id, idx, oid);
	if (ret)
		return ret;
	s = sk_index__stmt(idx, ST_GET_PATCHID);
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW &&
	    sqlite3_column_type(s, 0) != SQLITE_NULL) {
		snprintf(out, 41, "%s", sqlite3_column_text(s, 0));
		return 0;
	}
	idx->diffs++;
	ret = sk_index__patchid_compute(out, repo, oid);
	if (ret)
		return ret;
	return sk_index__set_extra(idx, ST_SET_PATCHID, id, oid, out);
}

int sk_index_is_ancestor(struct sk_index *idx, git_repository *repo,
			 const char *anc, const char *desc)
{
	sqlite3_stmt *s;
	const git_oid *edge;
	size_t nr_edge;
	git_oid a, d;
	int yes, ret;

	if (!strcmp(anc, desc))
		return 1;
	ret = sk_index_finish(idx);
	if (ret)
		return ret;
	s = sk_index__stmt(idx, ST_GET_ANC);
	sk_index__bind_text(s, 1, anc);
	sk_index__bind_text(s, 2, desc);
	if (sqlite3_step(s) == SQLITE_ROW)
		return sqlite3_column_int(s, 0);
	if (git_oid_fromstr(&a, anc) || git_oid_fromstr(&d, desc))
		return sk_error_set(SK_EINVALID, "bad commit id");
	yes = sk_index__graph_is_ancestor(&idx->g, &a, &d, &edge, &nr_edge);
	if (yes == -2)
		yes = nr_edge ? git_graph_reachable_from_any(repo, &a, edge,
							     nr_edge) : 0;
	else if (yes < 0)
		yes = git_graph_descendant_of(repo, &d, &a);
	if (yes < 0)
		return sk_error_git(SK_ERROR, "ancestry");
	s = sk_index__stmt(idx, ST_SET_ANC);
	sk_index__bind_text(s, 1, anc);
	sk_index__bind_text(s, 2, desc);
	sqlite3_bind_int(s, 3, yes);
	ret = sk_index__step_done(idx, s, "store ancestry");
	return ret ? ret : yes;
}

/* ---- matching results, per (patch, commit) ---- */

int sk_index_match_get(struct sk_index_match *out, struct sk_index *idx,
		       long long key, const char *oid)
{
	sqlite3_stmt *s;
	long long id;
	const void *blob;
	int ret = sk_index_finish(idx), rc, n;

	memset(out, 0, sizeof(*out));
	if (!ret)
		ret = hex_id(&id, idx, oid);
	if (ret || !id)
		return ret;
	s = sk_index__stmt(idx, ST_GET_MATCH);
	sqlite3_bind_int64(s, 1, key);
	sqlite3_bind_int64(s, 2, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return sk_index__db_error(idx, "match");
	out->common = sqlite3_column_int64(s, 0);
	out->nr = sqlite3_column_int64(s, 1);
	blob = sqlite3_column_blob(s, 2);
	n = sqlite3_column_bytes(s, 2);
	if (blob && n > 0) {
		out->cover = sk_xmalloc(n);
		memcpy(out->cover, blob, n);
		out->nr_cover = n / sizeof(*out->cover);
	}
	if (sqlite3_column_type(s, 3) != SQLITE_NULL)
		out->difference = column_dup(s, 3);
	return 1;
}

int sk_index_match_set(struct sk_index *idx, long long key, const char *oid,
		       const struct sk_index_match *m)
{
	sqlite3_stmt *s;
	long long id;
	int ret = sk_index_finish(idx);

	if (!ret)
		ret = hex_id(&id, idx, oid);
	if (ret || !id)
		return ret;
	s = sk_index__stmt(idx, ST_SET_MATCH);
	sqlite3_bind_int64(s, 1, key);
	sqlite3_bind_int64(s, 2, id);
	sqlite3_bind_int64(s, 3, m->common);
	sqlite3_bind_int64(s, 4, m->nr);
	if (m->nr_cover)
		sqlite3_bind_blob(s, 5, m->cover,
				  m->nr_cover * sizeof(*m->cover),
				  SQLITE_TRANSIENT);
	if (m->difference)
		sk_index__bind_text(s, 6, m->difference);
	return sk_index__step_done(idx, s, "store match");
}

void sk_index_match_release(struct sk_index_match *m)
{
	free(m->cover);
	free(m->difference);
	memset(m, 0, sizeof(*m));
}

long long sk_index_key(const char *text)
{
	return sk_index__text_hash(text);
}

unsigned long sk_index_diffs(const struct sk_index *idx)
{
	return idx ? idx->diffs : 0;
}
