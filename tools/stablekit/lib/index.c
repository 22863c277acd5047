/*
 * The tracking index: opening it (schema, prepared statements, whether
 * this run is a cold fill), closing it, and the queries the rest of
 * stablekit asks.  Filling it is elsewhere: the range walk in
 * index-walk.c, the rows it stores in index-store.c.
 */
#include "index-internal.h"
#include "commitfacts.h"
#include "error.h"
#include "patchid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SCHEMA_VERSION 6

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
	" tip TEXT, next_pos INTEGER NOT NULL DEFAULT 1,"
	" used INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE IF NOT EXISTS range_commits ("
	" range_id INTEGER NOT NULL, commit_id INTEGER NOT NULL,"
	" pos INTEGER NOT NULL, PRIMARY KEY (range_id, commit_id))"
	" WITHOUT ROWID;"
	"CREATE INDEX IF NOT EXISTS range_commits_pos"
	" ON range_commits(range_id, pos);"
	"CREATE TABLE IF NOT EXISTS touches ("
	" id INTEGER NOT NULL, h INTEGER NOT NULL, yes INTEGER NOT NULL,"
	" PRIMARY KEY (id, h)) WITHOUT ROWID;"
	"CREATE TABLE IF NOT EXISTS ancestry ("
	" anc TEXT NOT NULL, desc TEXT NOT NULL, yes INTEGER NOT NULL,"
	" PRIMARY KEY (anc, desc)) WITHOUT ROWID;";

static const char drop[] =
	"DROP TABLE IF EXISTS commits; DROP TABLE IF EXISTS oids;"
	"DROP TABLE IF EXISTS subjects; DROP TABLE IF EXISTS emails;"
	"DROP TABLE IF EXISTS uprefs; DROP TABLE IF EXISTS msgids;"
	"DROP TABLE IF EXISTS fixes; DROP TABLE IF EXISTS ranges;"
	"DROP TABLE IF EXISTS range_commits; DROP TABLE IF EXISTS ancestry;"
	"DROP TABLE IF EXISTS touches;";

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

static const char *const stmt_sql[ST_NR] = {
	[ST_FIND_ID] = "SELECT id FROM oids WHERE oid = ?1",
	[ST_INSERT_COMMIT] = "INSERT INTO commits (oid, subject, email)"
		" VALUES (?1, ?2, ?3)",
	[ST_INSERT_COMMIT_ID] = "INSERT INTO commits (id, oid, subject, email)"
		" VALUES (?1, ?2, ?3, ?4)",
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
	[ST_EMAIL_COUNT] = "SELECT count(*) FROM emails WHERE h = ?1",
	/* newest first along the range, for an author with many commits */
	[ST_EMAIL_RECENT] = "SELECT " COLS ", r.pos, -1 FROM range_commits r"
		" INDEXED BY range_commits_pos CROSS JOIN commits c"
		" ON c.id = r.commit_id WHERE r.range_id = ?1 AND c.email = ?2"
		" ORDER BY r.pos DESC LIMIT ?3",
	[ST_GET_FILES] = "SELECT c.files FROM oids o JOIN commits c"
		" ON c.id = o.id WHERE o.oid = ?1",
	[ST_SET_FILES] = "UPDATE commits SET files = ?2"
		" WHERE id = (SELECT id FROM oids WHERE oid = ?1)",
	[ST_GET_PATCHID] = "SELECT c.patch_id FROM oids o JOIN commits c"
		" ON c.id = o.id WHERE o.oid = ?1",
	[ST_SET_PATCHID] = "UPDATE commits SET patch_id = ?2"
		" WHERE id = (SELECT id FROM oids WHERE oid = ?1)",
	[ST_GET_TOUCH] = "SELECT t.yes FROM oids o JOIN touches t"
		" ON t.id = o.id WHERE o.oid = ?1 AND t.h = ?2",
	[ST_SET_TOUCH] = "INSERT OR REPLACE INTO touches (id, h, yes)"
		" SELECT id, ?2, ?3 FROM oids WHERE oid = ?1",
	[ST_GET_ANC] = "SELECT yes FROM ancestry WHERE anc = ?1 AND desc = ?2",
	[ST_SET_ANC] = "INSERT OR REPLACE INTO ancestry (anc, desc, yes)"
		" VALUES (?1, ?2, ?3)",
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

	if (sqlite3_prepare_v2(idx->db, "SELECT 1 FROM commits LIMIT 1", -1,
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
			ret = sk_index__db_error(idx, stmt_sql[i]);
			goto fail;
		}
	for (i = 0; i < SIDE_NR; i++) {
		ret = sk_index__side_prepare(&idx->side_one[i], idx, i, 1);
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
	sk_index__graph_release(&idx->g);
	sk_strbuf_release(&idx->norm);
	sk_strbuf_release(&idx->summary);
	sk_strbuf_release(&idx->msg);
	sk_strbuf_release(&idx->email);
	free(idx->warning);
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

int sk_index__step_done(struct sk_index *idx, sqlite3_stmt *s,
			const char *what)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return sk_index__db_error(idx, what);
	return 0;
}

int sk_index_in_range(struct sk_index *idx, long long range, const char *oid)
{
	sqlite3_stmt *s;

	if (sk_index_finish(idx))
		return 0;
	s = sk_index__stmt(idx, ST_IN_RANGE);
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
	return rc == SQLITE_DONE ? 0 : sk_index__db_error(idx, "query");
}

/* A lookup by arg (?2), and by its hash (?3) where the table has one. */
static int query2(struct sk_index_list *out, struct sk_index *idx,
		  enum stmt which, long long range, const char *arg)
{
	sqlite3_stmt *s;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	s = sk_index__stmt(idx, which + !!range);
	sqlite3_bind_int64(s, 1, range);
	sk_index__bind_text(s, 2, arg);
	if (which != ST_BY_UPSTREAM)
		sqlite3_bind_int64(s, 3, sk_index__text_hash(arg ? arg : ""));
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
	s = sk_index__stmt(idx, range ? ST_BY_PREFIX_IN : ST_BY_PREFIX);
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

/*
 * An author with few commits is looked up by address; one with many, by
 * walking the range from its newest commit until cap are found.
 */
int sk_index_by_email_recent(struct sk_index_list *out, struct sk_index *idx,
			     long long range, const char *email, size_t cap)
{
	sqlite3_stmt *s;
	long long n = 0;
	size_t i, first = out->nr;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	s = sk_index__stmt(idx, ST_EMAIL_COUNT);
	sqlite3_bind_int64(s, 1, sk_index__text_hash(email));
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	if (!range || n <= 4 * (long long)cap) {
		ret = sk_index_by_email(out, idx, range, email);
		if (ret)
			return ret;
		/* newest first, at most cap */
		for (i = 0; i < (out->nr - first) / 2; i++) {
			struct sk_index_commit t = out->items[first + i];

			out->items[first + i] = out->items[out->nr - 1 - i];
			out->items[out->nr - 1 - i] = t;
		}
		while (out->nr - first > cap) {
			out->nr--;
			free(out->items[out->nr].subject);
			free(out->items[out->nr].email);
		}
		return 0;
	}
	s = sk_index__stmt(idx, ST_EMAIL_RECENT);
	sqlite3_bind_int64(s, 1, range);
	sk_index__bind_text(s, 2, email);
	sqlite3_bind_int64(s, 3, (long long)cap);
	return collect(out, idx, s, NULL);
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
	s = sk_index__stmt(idx, ST_GET_FILES);
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
	s = sk_index__stmt(idx, ST_SET_FILES);
	bind_hex(s, 1, oid);
	sk_index__bind_text(s, 2, sb.buf);
	ret = sk_index__step_done(idx, s, "store files");
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
static int files_have_all(struct sk_index *idx, const char *oid,
			  char *const *paths, size_t nr)
{
	sqlite3_stmt *s = sk_index__stmt(idx, ST_GET_FILES);
	char **files;
	size_t n, i, j;
	int yes = 1;

	bind_hex(s, 1, oid);
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
	long long h;
	size_t i;
	int ret = sk_index_finish(idx), yes;

	if (ret)
		return ret;
	for (i = 0; i < nr; i++)
		sk_strbuf_addf(&key, "%s\n", paths[i]);
	h = sk_index__text_hash(key.buf);
	sk_strbuf_release(&key);
	s = sk_index__stmt(idx, ST_GET_TOUCH);
	bind_hex(s, 1, oid);
	sqlite3_bind_int64(s, 2, h);
	if (sqlite3_step(s) == SQLITE_ROW)
		return sqlite3_column_int(s, 0);
	yes = files_have_all(idx, oid, paths, nr);
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
	bind_hex(s, 1, oid);
	sqlite3_bind_int64(s, 2, h);
	sqlite3_bind_int(s, 3, yes);
	ret = sk_index__step_done(idx, s, "store touched paths");
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

int sk_index_patchid(char out[41], struct sk_index *idx, git_repository *repo,
		     const char *oid)
{
	sqlite3_stmt *s;
	git_diff *diff = NULL;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	s = sk_index__stmt(idx, ST_GET_PATCHID);
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
	s = sk_index__stmt(idx, ST_SET_PATCHID);
	bind_hex(s, 1, oid);
	sk_index__bind_text(s, 2, out);
	return sk_index__step_done(idx, s, "store patch-id");
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
	s = sk_index__stmt(idx, ST_GET_ANC);
	sk_index__bind_text(s, 1, anc);
	sk_index__bind_text(s, 2, desc);
	if (sqlite3_step(s) == SQLITE_ROW)
		return sqlite3_column_int(s, 0);
	if (git_oid_fromstr(&a, anc) || git_oid_fromstr(&d, desc))
		return sk_error_set(SK_EINVALID, "bad commit id");
	yes = sk_index__graph_is_ancestor(&idx->g, &a, &d);
	if (yes < 0)
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
