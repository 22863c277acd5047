/*
 * Commit rows: a commit's id, subject, author address and Message-Ids.  A
 * cold fill writes them in chunks of COMMIT_CHUNK consecutive rows, one
 * blob each: a row per commit cost the fill a third of its time (a
 * B-tree insert and its record for each of hundreds of thousands of
 * commits).  Commits indexed later, a few at a time, are rows of the
 * commits table.  A commit's row is in one or the other, never both.
 *
 * A chunk (commit_chunks: its first row id, the number of rows, the
 * data) holds, for each row in id order: the 20 bytes of the commit id,
 * then the subject, the address and the Message-Ids (one a line), each
 * ended by a NUL.
 */
#include "track/index-internal.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

static int damaged(struct sk_index *idx)
{
	return sk_error_set(SK_ERROR, "index '%s': a chunk of commit rows is "
			    "damaged; delete the file to rebuild it",
			    idx->path);
}

/* The text at *p, ended by a NUL before end; NULL if there is none. */
static const char *take_text(const unsigned char **p,
			     const unsigned char *end)
{
	const unsigned char *nul = memchr(*p, '\0', end - *p);
	const char *t = (const char *)*p;

	if (!nul)
		return NULL;
	*p = nul + 1;
	return t;
}

/* Row id of the cached chunk, which holds it: 1, or 0 if it is damaged. */
static int chunk_row(struct sk_index_row *out, const struct commit_chunk *c,
		     long long id)
{
	const unsigned char *p = c->data, *end = c->data + c->len;
	long long k;

	for (k = c->first; p < end; k++) {
		if (end - p < GIT_OID_RAWSZ)
			return 0;
		out->oid = p;
		p += GIT_OID_RAWSZ;
		out->subject = take_text(&p, end);
		out->email = out->subject ? take_text(&p, end) : NULL;
		out->msgids = out->email ? take_text(&p, end) : NULL;
		if (!out->msgids)
			return 0;
		if (k == id) {
			out->id = id;
			return 1;
		}
	}
	return 0;
}

/* The chunk holding row id into the cache: 1, or 0 if none holds it. */
static int chunk_load(struct sk_index *idx, long long id)
{
	struct commit_chunk *c = &idx->chunk;
	sqlite3_stmt *s;
	const void *data;
	size_t len;
	int rc;

	if (c->nr && id >= c->first && id < c->first + (long long)c->nr)
		return 1;
	s = sk_index__stmt(idx, ST_COMMIT_CHUNK);
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return sk_index__db_error(idx, "commit rows");
	if (sqlite3_column_int64(s, 0) + sqlite3_column_int64(s, 1) <= id)
		return 0;
	data = sqlite3_column_blob(s, 2);
	len = sqlite3_column_bytes(s, 2);
	if (sqlite3_column_int64(s, 1) <= 0 || !data)
		return damaged(idx);
	if (c->alloc < len) {
		free(c->data);
		c->alloc = len;
		c->data = sk_xmalloc(len);
	}
	memcpy(c->data, data, len);
	c->len = len;
	c->first = sqlite3_column_int64(s, 0);
	c->nr = sqlite3_column_int64(s, 1);
	return 1;
}

int sk_index__commit_row(struct sk_index_row *out, struct sk_index *idx,
			 long long id)
{
	sqlite3_stmt *s;
	int rc = chunk_load(idx, id);

	if (rc < 0)
		return rc;
	if (rc) {
		if (!chunk_row(out, &idx->chunk, id)) {
			idx->chunk.nr = 0;
			return damaged(idx);
		}
		return 1;
	}
	s = sk_index__stmt(idx, ST_COMMIT_ROW);
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return sk_index__db_error(idx, "commit");
	if (sqlite3_column_bytes(s, 1) != GIT_OID_RAWSZ)
		return damaged(idx);
	out->id = sqlite3_column_int64(s, 0);
	out->oid = sqlite3_column_blob(s, 1);
	out->subject = (const char *)sqlite3_column_text(s, 2);
	out->email = (const char *)sqlite3_column_text(s, 3);
	out->msgids = (const char *)sqlite3_column_text(s, 4);
	return 1;
}

void sk_index__chunk_add(struct sk_strbuf *chunk, const git_oid *oid,
			 const char *subject, const char *email,
			 const char *msgids)
{
	sk_strbuf_add(chunk, (const char *)oid->id, GIT_OID_RAWSZ);
	sk_strbuf_add(chunk, subject, strlen(subject) + 1);
	sk_strbuf_add(chunk, email, strlen(email) + 1);
	sk_strbuf_add(chunk, msgids, strlen(msgids) + 1);
}

int sk_index__chunk_write(struct sk_index *idx, long long first, size_t nr,
			  const struct sk_strbuf *chunk)
{
	sqlite3_stmt *s;
	int ret;

	if (!nr)
		return 0;
	s = sk_index__stmt(idx, ST_INSERT_CHUNK);
	sqlite3_bind_int64(s, 1, first);
	sqlite3_bind_int64(s, 2, (long long)nr);
	sqlite3_bind_blob(s, 3, chunk->buf, (int)chunk->len, SQLITE_STATIC);
	ret = sk_index__step_done(idx, s, "insert commit rows");
	sqlite3_reset(s);
	return ret;
}

void sk_index__chunk_forget(struct sk_index *idx)
{
	free(idx->chunk.data);
	memset(&idx->chunk, 0, sizeof(idx->chunk));
}
