#include "index.h"
#include "commitfacts.h"
#include "error.h"
#include "patchid.h"
#include "strbuf.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA_VERSION 1

/* The schema, in one place. */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS commits ("
	" id INTEGER PRIMARY KEY, oid TEXT NOT NULL UNIQUE, subject TEXT,"
	" subject_norm TEXT, email TEXT, patch_id TEXT, files TEXT);"
	"CREATE INDEX IF NOT EXISTS commits_subject ON commits(subject_norm);"
	"CREATE INDEX IF NOT EXISTS commits_email ON commits(email);"
	"CREATE TABLE IF NOT EXISTS uprefs ("
	" commit_id INTEGER NOT NULL, upstream TEXT NOT NULL, kind INTEGER);"
	"CREATE INDEX IF NOT EXISTS uprefs_upstream ON uprefs(upstream);"
	"CREATE TABLE IF NOT EXISTS msgids ("
	" commit_id INTEGER NOT NULL, msgid TEXT NOT NULL);"
	"CREATE INDEX IF NOT EXISTS msgids_msgid ON msgids(msgid);"
	"CREATE TABLE IF NOT EXISTS fixes ("
	" commit_id INTEGER NOT NULL, sha TEXT NOT NULL, subject TEXT);"
	"CREATE INDEX IF NOT EXISTS fixes_sha ON fixes(sha);"
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
	"DROP TABLE IF EXISTS commits; DROP TABLE IF EXISTS uprefs;"
	"DROP TABLE IF EXISTS msgids; DROP TABLE IF EXISTS fixes;"
	"DROP TABLE IF EXISTS ranges; DROP TABLE IF EXISTS range_commits;"
	"DROP TABLE IF EXISTS ancestry;";

/* Every commit column a query returns, then the position in the range. */
#define COLS "c.id, c.oid, c.subject, c.email"
#define IN_RANGE \
	" LEFT JOIN range_commits r ON r.commit_id = c.id AND r.range_id = ?1" \
	" WHERE (?1 = 0 OR r.range_id IS NOT NULL)"

enum stmt {
	ST_FIND_ID, ST_INSERT_COMMIT, ST_INSERT_UPREF, ST_INSERT_MSGID,
	ST_INSERT_FIX, ST_GET_RANGE, ST_INSERT_RANGE, ST_UPDATE_RANGE,
	ST_CLEAR_RANGE, ST_INSERT_MEMBER, ST_IN_RANGE, ST_BY_PREFIX,
	ST_BY_SUBJECT, ST_BY_EMAIL, ST_BY_MSGID, ST_BY_UPSTREAM, ST_WINDOW,
	ST_GET_FILES, ST_SET_FILES, ST_GET_PATCHID, ST_SET_PATCHID,
	ST_GET_ANC, ST_SET_ANC, ST_NR
};

static const char *const stmt_sql[ST_NR] = {
	[ST_FIND_ID] = "SELECT id FROM commits WHERE oid = ?1",
	[ST_INSERT_COMMIT] = "INSERT INTO commits (oid, subject, subject_norm,"
		" email) VALUES (?1, ?2, ?3, ?4)",
	[ST_INSERT_UPREF] = "INSERT INTO uprefs (commit_id, upstream, kind)"
		" VALUES (?1, ?2, ?3)",
	[ST_INSERT_MSGID] = "INSERT INTO msgids (commit_id, msgid)"
		" VALUES (?1, ?2)",
	[ST_INSERT_FIX] = "INSERT INTO fixes (commit_id, sha, subject)"
		" VALUES (?1, ?2, ?3)",
	[ST_GET_RANGE] = "SELECT id, base, tip, next_pos FROM ranges"
		" WHERE name = ?1",
	[ST_INSERT_RANGE] = "INSERT INTO ranges (name) VALUES (?1)",
	[ST_UPDATE_RANGE] = "UPDATE ranges SET base = ?2, tip = ?3,"
		" next_pos = ?4 WHERE id = ?1",
	[ST_CLEAR_RANGE] = "DELETE FROM range_commits WHERE range_id = ?1",
	[ST_INSERT_MEMBER] = "INSERT OR IGNORE INTO range_commits"
		" (range_id, commit_id, pos) VALUES (?1, ?2, ?3)",
	[ST_IN_RANGE] = "SELECT 1 FROM range_commits r JOIN commits c"
		" ON c.id = r.commit_id WHERE r.range_id = ?1 AND c.oid = ?2",
	[ST_BY_PREFIX] = "SELECT " COLS ", r.pos, -1 FROM commits c" IN_RANGE
		" AND c.oid >= ?2 AND c.oid < ?2 || 'g' ORDER BY r.pos",
	[ST_BY_SUBJECT] = "SELECT " COLS ", r.pos, -1 FROM commits c" IN_RANGE
		" AND c.subject_norm = ?2 ORDER BY r.pos",
	[ST_BY_EMAIL] = "SELECT " COLS ", r.pos, -1 FROM commits c" IN_RANGE
		" AND c.email = ?2 ORDER BY r.pos",
	[ST_BY_MSGID] = "SELECT " COLS ", r.pos, -1 FROM msgids m"
		" JOIN commits c ON c.id = m.commit_id" IN_RANGE
		" AND m.msgid = ?2 ORDER BY r.pos",
	[ST_BY_UPSTREAM] = "SELECT " COLS ", r.pos, u.kind FROM uprefs u"
		" JOIN commits c ON c.id = u.commit_id" IN_RANGE
		" AND u.upstream BETWEEN substr(?2, 1, 12) AND ?2"
		" AND substr(?2, 1, length(u.upstream)) = u.upstream"
		" ORDER BY r.pos",
	[ST_WINDOW] = "SELECT " COLS ", r.pos, -1 FROM range_commits r"
		" JOIN commits c ON c.id = r.commit_id WHERE r.range_id = ?1"
		" AND r.pos BETWEEN ?3 AND ?4 AND (?2 IS NULL OR c.email = ?2)"
		" ORDER BY r.pos",
	[ST_GET_FILES] = "SELECT files FROM commits WHERE oid = ?1",
	[ST_SET_FILES] = "UPDATE commits SET files = ?2 WHERE oid = ?1",
	[ST_GET_PATCHID] = "SELECT patch_id FROM commits WHERE oid = ?1",
	[ST_SET_PATCHID] = "UPDATE commits SET patch_id = ?2 WHERE oid = ?1",
	[ST_GET_ANC] = "SELECT yes FROM ancestry WHERE anc = ?1 AND desc = ?2",
	[ST_SET_ANC] = "INSERT OR REPLACE INTO ancestry (anc, desc, yes)"
		" VALUES (?1, ?2, ?3)",
};

struct sk_index {
	sqlite3 *db;
	sqlite3_stmt *st[ST_NR];
	struct sk_strbuf norm;
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

int sk_index_open(struct sk_index **out, const char *path)
{
	struct sk_index *idx = sk_xcalloc(1, sizeof(*idx));
	struct sk_strbuf sql = SK_STRBUF_INIT;
	int ret, i;

	sk_strbuf_init(&idx->norm);
	if (sqlite3_open_v2(path, &idx->db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		ret = sk_error_set(SK_ERROR, "cannot open index '%s': %s", path,
				   sqlite3_errmsg(idx->db));
		goto fail;
	}
	sqlite3_busy_timeout(idx->db, 5000);
	/* A cache: speed over durability; a torn file is rebuilt. */
	ret = exec(idx, "PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;"
		   " PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;");
	if (ret)
		goto fail;
	if (user_version(idx) != SCHEMA_VERSION) {
		sk_strbuf_addf(&sql, "%s PRAGMA user_version = %d;", drop,
			       SCHEMA_VERSION);
		ret = exec(idx, sql.buf);
		if (ret)
			goto fail;
	}
	ret = exec(idx, schema);
	if (ret)
		goto fail;
	for (i = 0; i < ST_NR; i++)
		if (sqlite3_prepare_v3(idx->db, stmt_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &idx->st[i],
				       NULL) != SQLITE_OK) {
			ret = db_error(idx, stmt_sql[i]);
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
	sk_index_close(idx);
	return ret;
}

void sk_index_close(struct sk_index *idx)
{
	int i;

	if (!idx)
		return;
	for (i = 0; i < ST_NR; i++)
		sqlite3_finalize(idx->st[i]);
	if (idx->db && !sqlite3_get_autocommit(idx->db))
		exec(idx, "COMMIT");
	sqlite3_close(idx->db);
	sk_strbuf_release(&idx->norm);
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

static int step_done(struct sk_index *idx, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return db_error(idx, what);
	return 0;
}

static int store_facts(struct sk_index *idx, long long id, const char *msg)
{
	struct sk_commit_facts f;
	sqlite3_stmt *s;
	size_t i;
	int ret = 0;

	sk_commit_facts_parse(&f, msg);
	for (i = 0; i < f.nr_uprefs && !ret; i++) {
		s = stmt(idx, ST_INSERT_UPREF);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, f.uprefs[i].sha);
		sqlite3_bind_int(s, 3, f.uprefs[i].kind);
		ret = step_done(idx, s, "upstream reference");
	}
	for (i = 0; i < f.nr_msgids && !ret; i++) {
		s = stmt(idx, ST_INSERT_MSGID);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, f.msgids[i]);
		ret = step_done(idx, s, "message-id");
	}
	for (i = 0; i < f.nr_fixes && !ret; i++) {
		s = stmt(idx, ST_INSERT_FIX);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, f.fixes[i].sha);
		bind_text(s, 3, f.fixes[i].subject);
		ret = step_done(idx, s, "fixes");
	}
	sk_commit_facts_release(&f);
	return ret;
}

/* The row id of a commit, reading and storing its facts if it is new. */
static int commit_row(long long *id, int *parsed, struct sk_index *idx,
		      git_repository *repo, const git_oid *oid)
{
	char hex[41];
	git_commit *c = NULL;
	sqlite3_stmt *s;
	char *email = NULL;
	const char *summary;
	int ret;

	git_oid_tostr(hex, sizeof(hex), oid);
	s = stmt(idx, ST_FIND_ID);
	bind_text(s, 1, hex);
	if (sqlite3_step(s) == SQLITE_ROW) {
		*id = sqlite3_column_int64(s, 0);
		return 0;
	}
	if (git_commit_lookup(&c, repo, oid))
		return sk_error_git(SK_ERROR, hex);
	summary = git_commit_summary(c);
	if (!summary)
		summary = "";
	sk_subject_norm(&idx->norm, summary);
	email = sk_author_email(git_commit_author(c)->email);
	s = stmt(idx, ST_INSERT_COMMIT);
	bind_text(s, 1, hex);
	bind_text(s, 2, summary);
	bind_text(s, 3, idx->norm.buf);
	bind_text(s, 4, email);
	ret = step_done(idx, s, "insert commit");
	if (!ret) {
		*id = sqlite3_last_insert_rowid(idx->db);
		ret = store_facts(idx, *id, git_commit_message(c));
		(*parsed)++;
	}
	free(email);
	git_commit_free(c);
	return ret;
}

static int walk_range(struct sk_index *idx, git_repository *repo,
		      long long range, long long *next_pos,
		      const git_oid *tip, const git_oid *base,
		      const git_oid *old_tip, struct sk_index_walk_stats *st)
{
	git_revwalk *walk = NULL;
	git_oid *oids = NULL, oid;
	size_t nr = 0, alloc = 0, i;
	int ret = 0, parsed = 0;

	if (git_revwalk_new(&walk, repo) ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL) ||
	    git_revwalk_push(walk, tip) ||
	    (base && git_revwalk_hide(walk, base)) ||
	    (old_tip && git_revwalk_hide(walk, old_tip))) {
		ret = sk_error_git(SK_ERROR, "cannot walk the history");
		goto out;
	}
	while (!(ret = git_revwalk_next(&oid, walk)))
		*SK_ARRAY_PUSH(oids, nr, alloc) = oid;
	if (ret != GIT_ITEROVER) {
		ret = sk_error_git(SK_ERROR, "cannot walk the history");
		goto out;
	}
	ret = 0;
	/* Oldest first, so that positions grow with time. */
	for (i = nr; i-- > 0 && !ret;) {
		long long id = 0;
		sqlite3_stmt *s;

		ret = commit_row(&id, &parsed, idx, repo, &oids[i]);
		if (ret)
			break;
		s = stmt(idx, ST_INSERT_MEMBER);
		sqlite3_bind_int64(s, 1, range);
		sqlite3_bind_int64(s, 2, id);
		sqlite3_bind_int64(s, 3, (*next_pos)++);
		ret = step_done(idx, s, "range member");
	}
	st->walked += nr;
	st->parsed += parsed;
out:
	free(oids);
	git_revwalk_free(walk);
	return ret;
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
	sqlite3_stmt *s = stmt(idx, ST_IN_RANGE);

	sqlite3_bind_int64(s, 1, range);
	bind_text(s, 2, oid);
	return sqlite3_step(s) == SQLITE_ROW;
}

static char *column_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return sk_xstrdup(t ? (const char *)t : "");
}

static int collect(struct sk_index_list *out, struct sk_index *idx,
		   sqlite3_stmt *s)
{
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct sk_index_commit *c = SK_ARRAY_PUSH(out->items, out->nr,
							  out->alloc);
		const unsigned char *oid = sqlite3_column_text(s, 1);

		c->id = sqlite3_column_int64(s, 0);
		snprintf(c->oid, sizeof(c->oid), "%s",
			 oid ? (const char *)oid : "");
		c->subject = column_dup(s, 2);
		c->email = column_dup(s, 3);
		c->pos = sqlite3_column_int64(s, 4);
		c->kind = sqlite3_column_int(s, 5);
	}
	return rc == SQLITE_DONE ? 0 : db_error(idx, "query");
}

static int query2(struct sk_index_list *out, struct sk_index *idx,
		  enum stmt which, long long range, const char *arg)
{
	sqlite3_stmt *s = stmt(idx, which);

	sqlite3_bind_int64(s, 1, range);
	bind_text(s, 2, arg);
	return collect(out, idx, s);
}

int sk_index_by_prefix(struct sk_index_list *out, struct sk_index *idx,
		       long long range, const char *hex)
{
	return query2(out, idx, ST_BY_PREFIX, range, hex);
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
	sqlite3_stmt *s = stmt(idx, ST_WINDOW);

	sqlite3_bind_int64(s, 1, range);
	bind_text(s, 2, email);
	sqlite3_bind_int64(s, 3, lo);
	sqlite3_bind_int64(s, 4, hi);
	return collect(out, idx, s);
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
	sqlite3_stmt *s = stmt(idx, ST_GET_FILES);
	size_t i, n;
	int ret;

	bind_text(s, 1, oid);
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
	bind_text(s, 1, oid);
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
	sqlite3_stmt *s = stmt(idx, ST_GET_PATCHID);
	git_diff *diff = NULL;
	int ret;

	bind_text(s, 1, oid);
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
	bind_text(s, 1, oid);
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
	s = stmt(idx, ST_GET_ANC);
	bind_text(s, 1, anc);
	bind_text(s, 2, desc);
	if (sqlite3_step(s) == SQLITE_ROW)
		return sqlite3_column_int(s, 0);
	if (git_oid_fromstr(&a, anc) || git_oid_fromstr(&d, desc))
		return sk_error_set(SK_EINVALID, "bad commit id");
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
