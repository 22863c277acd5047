/*
 * The rows a commit gives the index: its row in commits and its lookup
 * rows (subject, author, upstream references, Message-Ids).  On a
 * warm index they are written as the walk meets each commit.  A cold fill
 * (an empty index) is where the time goes, so there the commit rows are
 * written by a thread of their own while the walk reads on, and the lookup
 * rows are kept back, sorted in memory and appended in key order once, by
 * sk_index_finish.
 */
#include "track/index-internal.h"
#include "track/commitfacts.h"
#include "core/error.h"
#include "core/parallel.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The lookup tables.  Subjects (normalised), authors and Message-Ids are
 * keyed by a 64-bit hash of the text, the match checked on the commit
 * row; commit ids by the id.  In a cold fill those rows go to sorted runs
 * (index-run.c); the rows of the table keyed by text (upstream
 * references) are kept back and appended in key order.
 */
enum side_key {
	KEY_BLOB,		/* a commit id */
	KEY_TEXT,		/* the text */
	KEY_HASH,		/* the hash of the text */
};

static const struct side_table {
	const char *name, *cols;
	int nr_cols;
	enum side_key key;
	enum run_kind run;	/* where a cold fill puts the rows */
} side_tables[SIDE_NR] = {
	[SIDE_OIDS] = { "oids", "oid, id", 2, KEY_BLOB, RUN_OIDS },
	[SIDE_SUBJECTS] = { "subjects", "h, id", 2, KEY_HASH, RUN_SUBJECTS },
	[SIDE_EMAILS] = { "emails", "h, id", 2, KEY_HASH, RUN_EMAILS },
	[SIDE_UPREFS] = { "uprefs", "upstream, id, kind", 3, KEY_TEXT,
			  RUN_NONE },
	[SIDE_MSGIDS] = { "msgids", "h, id", 2, KEY_HASH, RUN_MSGIDS },
};

/* Rows per INSERT when the kept-back rows go in. */
#define SIDE_BATCH 64

/* A row of a table keyed by text, kept back during a cold fill. */
struct side_row {
	char *key;
	long long id;
	int kind;
};

/*
 * A cold fill stores on a thread of its own: the walk (reading the commits)
 * hands each new commit's message over and goes on reading while the
 * store thread parses it and writes its rows.  Ids are given by the walk,
 * the table being empty at the start of a cold fill.  Commits go over in
 * batches whose buffers come back to the walk for reuse: one lock per
 * batch, and no malloc or cross-thread free per commit (glibc's arena
 * lock was a tenth of the walk's time).
 */
struct job {
	long long id;
	git_oid oid;
	size_t email;		/* offset of the author address in text */
	char text[];		/* message, NUL, author address, NUL */
};

/* Commits per batch. */
#define HANDOVER 256
/* Batches in flight: the walk waits when the store thread is this far back. */
#define BATCHES 16
/* Commit rows per chunk in a cold fill: a chunk fits a page. */
#define COMMIT_CHUNK 16

struct batch {
	size_t nr;
	size_t off[HANDOVER];	/* each job's offset in mem */
	char *mem;
	size_t len, alloc;
	struct batch *next;	/* in the full or the free list */
};

struct store {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	struct batch *full, **full_tail;	/* handed over, in order */
	struct batch *free;			/* processed, for reuse */
	size_t nr_batches;			/* allocated */
	int consumer_waits, producer_waits;
	struct batch *out;	/* the walk's, not handed over yet */
	int done;		/* no more jobs will come */
	int ret;		/* the first error, its message in err */
	char err[1024];
	/* the chunk of commit rows being made: nr_rows from first_id on */
	struct sk_strbuf chunk, msgids;
	long long first_id;
	size_t nr_rows;
};

/* INSERT OR IGNORE of nr rows into a lookup table. */
int sk_index__side_prepare(sqlite3_stmt **out, struct sk_index *idx,
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
		ret = sk_index__db_error(idx, sql.buf);
	sk_strbuf_release(&sql);
	return ret;
}

/* The kept-back rows and their texts, and the records for runs. */
void sk_index__side_release(struct sk_index *idx)
{
	enum side w;
	int k;

	for (w = 0; w < SIDE_NR; w++) {
		free(idx->side[w].rows);
		memset(&idx->side[w], 0, sizeof(idx->side[w]));
	}
	for (k = 0; k < RUN_KINDS; k++)
		sk_index__run_recs_release(&idx->kept[k]);
	sk_index__arena_free(&idx->side_text);
}

/* ---- the rows of a commit ---- */

/* 64-bit FNV-1a: stored, so it must not change. */
long long sk_index__text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return (long long)h;
}

/* The first 8 bytes of a commit id, big-endian: ordered as the bytes are. */
uint64_t sk_index__oid_key(const git_oid *oid)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < 8; i++)
		h = h << 8 | oid->id[i];
	return h;
}

/* A row kept back: a record for a run, or a row of a text table. */
static int side_add(struct sk_index *idx, enum side which, const char *key,
		    long long id, int kind)
{
	const struct side_table *t = &side_tables[which];
	struct side_rows *sr = &idx->side[which];
	struct side_row *r;

	if (t->run)
		return sk_index__run_push(&idx->kept[t->run], t->key == KEY_BLOB ?
				sk_index__oid_key((const git_oid *)key) :
				(uint64_t)sk_index__text_hash(key), id, 0);
	r = SK_ARRAY_PUSH(sr->rows, sr->nr, sr->alloc);
	r->key = sk_index__arena_strdup(&idx->side_text, key);
	r->id = id;
	r->kind = kind;
	return 0;
}

/* Binds a row of a lookup table from parameter i + 1 on. */
static void side_bind(sqlite3_stmt *s, int i, enum side which,
		      const char *key, long long h, long long id, int kind)
{
	const struct side_table *t = &side_tables[which];

	switch (t->key) {
	case KEY_BLOB:
		sqlite3_bind_blob(s, i + 1, key, GIT_OID_RAWSZ, SQLITE_STATIC);
		break;
	case KEY_TEXT:
		sk_index__bind_static(s, i + 1, key);
		break;
	case KEY_HASH:
		sqlite3_bind_int64(s, i + 1, h);
		break;
	}
	sqlite3_bind_int64(s, i + 2, id);
	if (t->nr_cols == 3)
		sqlite3_bind_int(s, i + 3, kind);
}

static int side_step(struct sk_index *idx, sqlite3_stmt *s, enum side which)
{
	int rc = sqlite3_step(s);

	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return sk_index__db_error(idx, side_tables[which].name);
	return 0;
}

/*
 * A row of a lookup table, now or kept back during a cold fill: key is the
 * text (hashed where the table is keyed by the hash), or the raw commit id.
 */
static int insert_side(struct sk_index *idx, enum side which, const char *key,
		       long long id, int kind)
{
	const struct side_table *t = &side_tables[which];
	long long h = 0;

	if (idx->bulk)
		return side_add(idx, which, key, id, kind);
	if (t->key == KEY_HASH)
		h = sk_index__text_hash(key);
	side_bind(idx->side_one[which], 0, which, key, h, id, kind);
	return side_step(idx, idx->side_one[which], which);
}

static int store_facts(struct sk_index *idx, long long id,
		       const struct sk_commit_facts *f)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < f->nr_uprefs && !ret; i++)
		ret = insert_side(idx, SIDE_UPREFS, f->uprefs[i].sha, id,
				  f->uprefs[i].kind);
	for (i = 0; i < f->nr_msgids && !ret; i++)
		ret = insert_side(idx, SIDE_MSGIDS, f->msgids[i], id, 0);
	return ret;
}

/* The commit row's Message-Ids, a line each: what a lookup checks. */
static void msgids_text(struct sk_strbuf *sb, const struct sk_commit_facts *f)
{
	size_t i;

	sk_strbuf_reset(sb);
	for (i = 0; i < f->nr_msgids; i++)
		sk_strbuf_addf(sb, "%s\n", f->msgids[i]);
}

/* The commit row and its facts, from the raw object. */
int sk_index__store_commit(struct sk_index *idx, struct node *n,
			   const struct sk_commit_raw *raw)
{
	struct sk_commit_facts f;
	struct sk_strbuf msgids = SK_STRBUF_INIT;
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
	sk_commit_facts_parse(&f, idx->msg.buf);
	msgids_text(&msgids, &f);
	s = sk_index__stmt(idx, ST_INSERT_COMMIT);
	sqlite3_bind_blob(s, 2, n->oid.id, GIT_OID_RAWSZ, SQLITE_STATIC);
	sk_index__bind_static(s, 3, idx->summary.buf);
	sk_index__bind_static(s, 4, idx->email.buf);
	sk_index__bind_static(s, 5, msgids.buf);
	ret = sk_index__step_done(idx, s, "insert commit");
	if (ret)
		goto out;
	n->id = sqlite3_last_insert_rowid(idx->db);
	ret = insert_side(idx, SIDE_OIDS, (const char *)n->oid.id, n->id, 0);
	if (!ret)
		ret = insert_side(idx, SIDE_SUBJECTS, idx->norm.buf, n->id, 0);
	if (!ret)
		ret = insert_side(idx, SIDE_EMAILS, idx->email.buf, n->id, 0);
	if (!ret)
		ret = store_facts(idx, n->id, &f);
out:
	sk_commit_facts_release(&f);
	sk_strbuf_release(&msgids);
	return ret;
}

/* ---- the store thread of a cold fill ---- */

static int store_rows_flush(struct sk_index *idx, struct store *st)
{
	int ret = sk_index__chunk_write(idx, st->first_id, st->nr_rows,
					&st->chunk);

	sk_strbuf_reset(&st->chunk);
	st->nr_rows = 0;
	return ret;
}

/* A new commit's rows, in a cold fill (lookup rows kept back). */
static int store_job(struct sk_index *idx, struct store *st,
		     const struct job *job)
{
	struct sk_commit_facts f;
	int ret = 0;

	sk_commit_summary(&idx->summary, job->text);
	sk_subject_norm(&idx->norm, idx->summary.buf);
	sk_commit_facts_parse(&f, job->text);
	/* a chunk holds consecutive rows, as the walk gives them */
	if (st->nr_rows && job->id != st->first_id + (long long)st->nr_rows)
		ret = store_rows_flush(idx, st);
	if (ret)
		goto out;
	if (!st->nr_rows)
		st->first_id = job->id;
	msgids_text(&st->msgids, &f);
	sk_index__chunk_add(&st->chunk, &job->oid, idx->summary.buf,
			    job->text + job->email, st->msgids.buf);
	if (++st->nr_rows == COMMIT_CHUNK)
		ret = store_rows_flush(idx, st);
	if (!ret)
		ret = insert_side(idx, SIDE_OIDS, (const char *)job->oid.id,
				  job->id, 0);
	if (!ret)
		ret = insert_side(idx, SIDE_SUBJECTS, idx->norm.buf, job->id, 0);
	if (!ret)
		ret = insert_side(idx, SIDE_EMAILS, job->text + job->email,
				  job->id, 0);
	if (!ret)
		ret = store_facts(idx, job->id, &f);
out:
	sk_commit_facts_release(&f);
	return ret;
}

static void *store_main(void *arg)
{
	struct sk_index *idx = arg;
	struct store *st = idx->store;
	struct batch *b;
	size_t i;
	int ret = 0;

	for (;;) {
		pthread_mutex_lock(&st->lock);
		while (!st->full && !st->done) {
			st->consumer_waits = 1;
			pthread_cond_wait(&st->not_empty, &st->lock);
			st->consumer_waits = 0;
		}
		b = st->full;
		if (b) {
			st->full = b->next;
			if (!st->full)
				st->full_tail = &st->full;
		}
		pthread_mutex_unlock(&st->lock);
		if (!b)
			break;
		for (i = 0; i < b->nr && !ret; i++)
			ret = store_job(idx, st,
					(const struct job *)(b->mem + b->off[i]));
		b->nr = 0;
		b->len = 0;
		pthread_mutex_lock(&st->lock);
		b->next = st->free;
		st->free = b;
		if (st->producer_waits)
			pthread_cond_signal(&st->not_full);
		pthread_mutex_unlock(&st->lock);
	}
	if (!ret)
		ret = store_rows_flush(idx, st);
	if (ret) {
		st->ret = ret;
		snprintf(st->err, sizeof(st->err), "%s", sk_error_last());
	}
	return NULL;
}

static void batches_free(struct batch *b)
{
	struct batch *next;

	for (; b; b = next) {
		next = b->next;
		free(b->mem);
		free(b);
	}
}

static void store_free(struct store *st)
{
	sk_strbuf_release(&st->chunk);
	sk_strbuf_release(&st->msgids);
	batches_free(st->full);
	batches_free(st->free);
	batches_free(st->out);
	free(st);
}

int sk_index__store_start(struct sk_index *idx)
{
	struct store *st = sk_xcalloc(1, sizeof(*st));
	int ret = 0;

	st->full_tail = &st->full;
	sk_strbuf_init(&st->chunk);
	sk_strbuf_init(&st->msgids);
	if (pthread_mutex_init(&st->lock, NULL) ||
	    pthread_cond_init(&st->not_empty, NULL) ||
	    pthread_cond_init(&st->not_full, NULL))
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

/* The walk's batch goes over; the next one is a processed batch or new. */
static void store_handover(struct store *st)
{
	struct batch *b = st->out;

	pthread_mutex_lock(&st->lock);
	if (b && b->nr) {
		b->next = NULL;
		*st->full_tail = b;
		st->full_tail = &b->next;
		st->out = NULL;
		if (st->consumer_waits)
			pthread_cond_signal(&st->not_empty);
	}
	if (!st->out && !st->free && st->nr_batches < BATCHES) {
		st->nr_batches++;
		st->out = sk_xcalloc(1, sizeof(*st->out));
	}
	while (!st->out && !st->free) {
		st->producer_waits = 1;
		pthread_cond_wait(&st->not_full, &st->lock);
		st->producer_waits = 0;
	}
	if (!st->out) {
		st->out = st->free;
		st->free = st->free->next;
		st->out->next = NULL;
	}
	pthread_mutex_unlock(&st->lock);
}

/* Waits for the store thread to write every row handed over; its error. */
int sk_index__store_stop(struct sk_index *idx)
{
	struct store *st = idx->store;
	int ret;

	if (!st)
		return 0;
	if (st->out && st->out->nr)
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
void sk_index__store_push(struct sk_index *idx, struct node *n,
			  const struct sk_commit_raw *raw)
{
	struct store *st = idx->store;
	size_t need = sizeof(struct job) + raw->message_len + 1 +
		raw->email_len + 1, i;
	struct batch *b;
	struct job *job;
	char *email;

	if (!st->out)
		store_handover(st);
	b = st->out;
	need = (need + 7) & ~(size_t)7;
	if (b->len + need > b->alloc) {
		b->alloc = b->len + need > 2 * b->alloc ? b->len + need :
			2 * b->alloc;
		b->mem = sk_xrealloc(b->mem, b->alloc);
	}
	job = (struct job *)(b->mem + b->len);
	b->off[b->nr++] = b->len;
	b->len += need;
	job->id = n->id;
	git_oid_cpy(&job->oid, &n->oid);
	memcpy(job->text, raw->message, raw->message_len);
	job->text[raw->message_len] = '\0';
	job->email = raw->message_len + 1;
	email = job->text + job->email;
	for (i = 0; i < raw->email_len; i++)
		email[i] = tolower((unsigned char)raw->email[i]);
	email[raw->email_len] = '\0';
	if (b->nr == HANDOVER)
		store_handover(st);
}

/* The order of the table's primary key: the text as bytes, then the id. */
static int cmp_text_row(const void *a, const void *b)
{
	const struct side_row *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* The kept-back rows of a table keyed by text, in key order, in batches. */
static int side_flush(struct sk_index *idx, enum side which)
{
	struct side_rows *sr = &idx->side[which];
	const struct side_table *t = &side_tables[which];
	sqlite3_stmt *many = NULL;
	size_t i = 0;
	int j, ret = 0;

	if (sr->nr > 1)
		qsort(sr->rows, sr->nr, sizeof(*sr->rows), cmp_text_row);
	if (sr->nr >= SIDE_BATCH)
		ret = sk_index__side_prepare(&many, idx, which, SIDE_BATCH);
	for (; !ret && sr->nr - i >= SIDE_BATCH; i += SIDE_BATCH) {
		for (j = 0; j < SIDE_BATCH; j++) {
			struct side_row *r = &sr->rows[i + j];

			side_bind(many, j * t->nr_cols, which, r->key, 0,
				  r->id, r->kind);
		}
		ret = side_step(idx, many, which);
	}
	for (; !ret && i < sr->nr; i++) {
		struct side_row *r = &sr->rows[i];

		side_bind(idx->side_one[which], 0, which, r->key, 0, r->id,
			  r->kind);
		ret = side_step(idx, idx->side_one[which], which);
	}
	sqlite3_finalize(many);
	return ret;
}

static int sort_one(void *ctx, size_t i)
{
	struct sk_run_recs **runs = ctx;

	sk_index__run_sort(runs[i]);
	return 0;
}

/*
 * The kept records sorted, two runs at a time: the end of a cold fill has
 * the machine's other core to itself.
 */
static void sort_kept(struct sk_index *idx)
{
	struct sk_run_recs *runs[RUN_KINDS];
	enum run_kind k;
	size_t nr = 0;

	for (k = RUN_OIDS; k < RUN_KINDS; k++)
		if (idx->kept[k].nr)
			runs[nr++] = &idx->kept[k];
	sk_parallel_for(nr, 2, sort_one, runs);
}

/*
 * Ends a cold fill: the records kept back for the lookups by commit id,
 * subject, author and Message-Id become sorted runs; the rows of the text
 * tables go in, in key order (appends to their B-trees).
 */
int sk_index_finish(struct sk_index *idx)
{
	enum side w;
	int ret = 0;

	if (!idx->bulk)
		return 0;
	idx->bulk = 0;
	sort_kept(idx);
	for (w = 0; w < SIDE_NR && !ret; w++) {
		enum run_kind k = side_tables[w].run;

		if (!k)
			ret = side_flush(idx, w);
		else if (idx->kept[k].nr)
			ret = sk_index__run_write(idx, k, 0, &idx->kept[k]);
	}
	sk_index__side_release(idx);
	return ret;
}
