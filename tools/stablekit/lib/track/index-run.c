/*
 * Sorted runs: lookup rows kept as sorted arrays of fixed-size records,
 * in chunks of one page each.  A cold fill has hundreds of thousands of
 * rows for each lookup, and a range walked whole as many members; sqlite
 * pays a B-tree insert for each row, where a run is sorted in memory and
 * written a page at a time.  Rows added later (a few new commits a run)
 * go to the tables as before; a lookup reads both.
 *
 * A run is a row of runs (its kind, its range for members, the first key
 * of each chunk) and its chunks in run_chunks, numbered run << 32 | seq.
 * Records are 16 bytes, little-endian: key, id, value.
 */
#include "track/index-internal.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

/* Records per chunk: 4,000 bytes, a row that fits a 4 KiB page. */
#define RUN_CHUNK 250
#define REC_SIZE 16

struct run {
	long long id;
	int kind;
	long long range;
	size_t nr, nr_chunks;
	uint64_t *first;	/* the first key of each chunk */
	/*
	 * The chunks read so far, each in its place: a status of 1,000
	 * patches looks up the same few thousand chunks over and over.
	 */
	struct sk_run_rec *recs;
	unsigned char *loaded;
};

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

_Static_assert(sizeof(struct sk_run_rec) == REC_SIZE, "a record is 16 bytes");

/* Records as stored; on a little-endian machine that is their layout. */
static void recs_encode(unsigned char *out, const struct sk_run_rec *r,
			size_t nr)
{
	size_t i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (nr) {
		memcpy(out, r, nr * REC_SIZE);
		return;
	}
#endif
	for (i = 0; i < nr; i++, out += REC_SIZE) {
		put_le(out, r[i].key, 8);
		put_le(out + 8, r[i].id, 4);
		put_le(out + 12, r[i].val, 4);
	}
}

static void recs_decode(struct sk_run_rec *r, const unsigned char *in,
			size_t nr)
{
	size_t i;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (nr) {
		memcpy(r, in, nr * REC_SIZE);
		return;
	}
#endif
	for (i = 0; i < nr; i++, in += REC_SIZE) {
		r[i].key = get_le(in, 8);
		r[i].id = (uint32_t)get_le(in + 8, 4);
		r[i].val = (uint32_t)get_le(in + 12, 4);
	}
}

void sk_index__runs_release(struct sk_index *idx)
{
	size_t i;

	for (i = 0; i < idx->nr_runs; i++) {
		free(idx->runs[i]->first);
		free(idx->runs[i]->recs);
		free(idx->runs[i]->loaded);
		free(idx->runs[i]);
	}
	free(idx->runs);
	idx->runs = NULL;
	idx->nr_runs = idx->alloc_runs = 0;
	idx->runs_loaded = 0;
	sk_index__members_forget(idx);
}

static int damaged(struct sk_index *idx)
{
	return sk_error_set(SK_ERROR, "index '%s': a sorted run is damaged; "
			    "delete the file to rebuild it", idx->path);
}

static int runs_load(struct sk_index *idx)
{
	sqlite3_stmt *s;
	int rc;

	if (idx->runs_loaded)
		return 0;
	s = sk_index__stmt(idx, ST_RUNS);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *dir = sqlite3_column_blob(s, 4);
		size_t bytes = sqlite3_column_bytes(s, 4), i;
		struct run *r = sk_xcalloc(1, sizeof(*r));

		*SK_ARRAY_PUSH(idx->runs, idx->nr_runs, idx->alloc_runs) = r;
		r->id = sqlite3_column_int64(s, 0);
		r->kind = sqlite3_column_int(s, 1);
		r->range = sqlite3_column_int64(s, 2);
		r->nr = sqlite3_column_int64(s, 3);
		r->nr_chunks = bytes / 8;
		if (r->nr_chunks != (r->nr + RUN_CHUNK - 1) / RUN_CHUNK) {
			sk_index__runs_release(idx);
			return damaged(idx);
		}
		r->first = sk_xmalloc((r->nr_chunks ? r->nr_chunks : 1) *
				      sizeof(*r->first));
		for (i = 0; i < r->nr_chunks; i++)
			r->first[i] = get_le(dir + 8 * i, 8);
	}
	if (rc != SQLITE_DONE) {
		sk_index__runs_release(idx);
		return sk_index__db_error(idx, "sorted runs");
	}
	idx->runs_loaded = 1;
	return 0;
}

static size_t chunk_nr(const struct run *r, size_t seq)
{
	return seq + 1 < r->nr_chunks ? RUN_CHUNK : r->nr - seq * RUN_CHUNK;
}

/* The records of chunk seq of r, read from the index once. */
static int chunk_load(struct sk_run_rec **out, struct sk_index *idx,
		      struct run *r, size_t seq)
{
	struct sk_run_rec *recs;
	sqlite3_stmt *s;
	size_t want = chunk_nr(r, seq);

	if (!r->recs) {
		/* untouched until read: pages of chunks never read stay out */
		r->recs = sk_xmalloc(r->nr * sizeof(*r->recs));
		r->loaded = sk_xcalloc(r->nr_chunks, 1);
	}
	recs = r->recs + seq * RUN_CHUNK;
	if (!r->loaded[seq]) {
		s = sk_index__stmt(idx, ST_RUN_CHUNK);
		sqlite3_bind_int64(s, 1, r->id << 32 | (long long)seq);
		if (sqlite3_step(s) != SQLITE_ROW ||
		    (size_t)sqlite3_column_bytes(s, 0) != want * REC_SIZE)
			return damaged(idx);
		recs_decode(recs, sqlite3_column_blob(s, 0), want);
		r->loaded[seq] = 1;
	}
	*out = recs;
	return 0;
}

/* Calls each on the records of r with lo <= key <= hi, a chunk's at a time. */
static int run_scan(struct sk_index *idx, struct run *r, uint64_t lo,
		    uint64_t hi, sk_index__run_each_fn each, void *data)
{
	struct sk_run_rec *recs = NULL;
	size_t a = 0, b = r->nr_chunks, seq, i, n;
	int ret;

	/* the first chunk starting at lo or later; equal keys may begin in
	 * the chunk before it */
	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (r->first[m] < lo)
			a = m + 1;
		else
			b = m;
	}
	for (seq = a ? a - 1 : 0; seq < r->nr_chunks; seq++) {
		if (r->first[seq] > hi)
			break;
		ret = chunk_load(&recs, idx, r, seq);
		if (ret)
			return ret;
		n = chunk_nr(r, seq);
		a = 0;
		b = n;
		while (a < b) {
			size_t m = a + (b - a) / 2;

			if (recs[m].key < lo)
				a = m + 1;
			else
				b = m;
		}
		for (i = a; i < n && recs[i].key <= hi; i++)
			;
		each(data, recs + a, i - a);
		if (i < n)
			break;
	}
	return 0;
}

int sk_index__runs_scan(struct sk_index *idx, enum run_kind kind,
			long long range, uint64_t lo, uint64_t hi,
			sk_index__run_each_fn each, void *data)
{
	size_t i;
	int ret = runs_load(idx);

	for (i = 0; !ret && i < idx->nr_runs; i++)
		if (idx->runs[i]->kind == (int)kind &&
		    idx->runs[i]->range == range)
			ret = run_scan(idx, idx->runs[i], lo, hi, each, data);
	return ret;
}

static void append(void *data, const struct sk_run_rec *recs, size_t nr)
{
	struct sk_run_recs *out = data;

	if (!nr)
		return;
	if (out->nr + nr > out->alloc) {
		out->alloc = out->nr + nr > 2 * out->alloc ? out->nr + nr :
			2 * out->alloc;
		out->recs = sk_xrealloc(out->recs,
					out->alloc * sizeof(*out->recs));
	}
	if (nr)
		memcpy(out->recs + out->nr, recs, nr * sizeof(*recs));
	out->nr += nr;
}

int sk_index__runs_find(struct sk_run_recs *out, struct sk_index *idx,
			enum run_kind kind, long long range, uint64_t lo,
			uint64_t hi)
{
	return sk_index__runs_scan(idx, kind, range, lo, hi, append, out);
}

int sk_index__run_push(struct sk_run_recs *rs, uint64_t key, long long id,
		       long long val)
{
	struct sk_run_rec *r;

	if (id < 0 || id > UINT32_MAX || val < 0 || val > UINT32_MAX)
		return sk_error_set(SK_ERROR, "index: %lld rows are more "
				    "than a sorted run holds", id);
	r = SK_ARRAY_PUSH(rs->recs, rs->nr, rs->alloc);
	r->key = key;
	r->id = (uint32_t)id;
	r->val = (uint32_t)val;
	return 0;
}

void sk_index__run_recs_release(struct sk_run_recs *rs)
{
	free(rs->recs);
	memset(rs, 0, sizeof(*rs));
}

static int cmp_rec(const void *a, const void *b)
{
	const struct sk_run_rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

#define DIGIT_BITS 16
#define DIGITS (1 << DIGIT_BITS)
/* Buckets up to this size are put in order by insertion. */
#define SMALL_BUCKET 16

static int in_order(const struct sk_run_rec *r, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (cmp_rec(&r[i - 1], &r[i]) > 0)
			return 0;
	return 1;
}

/* Records in reverse order (a range's members, oldest last) turned round. */
static int reverse_if_descending(struct sk_run_rec *r, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (cmp_rec(&r[i - 1], &r[i]) < 0)
			return 0;
	for (i = 0; i < nr / 2; i++) {
		struct sk_run_rec t = r[i];

		r[i] = r[nr - 1 - i];
		r[nr - 1 - i] = t;
	}
	return 1;
}

static void insertion_sort(struct sk_run_rec *r, size_t nr)
{
	size_t i, j;

	for (i = 1; i < nr; i++) {
		struct sk_run_rec x = r[i];

		for (j = i; j && cmp_rec(&r[j - 1], &x) > 0; j--)
			r[j] = r[j - 1];
		r[j] = x;
	}
}

static size_t digit(uint64_t key, int shift)
{
	return (size_t)(key >> shift) & (DIGITS - 1);
}

/*
 * One counting pass on the 16 highest bits in which the keys differ, then
 * each bucket on its own: the keys are hashes (or commit rows, dense), so
 * a bucket holds a few records where a full radix sort made four passes
 * over all of them.  Returns the sorted copy; the input is left as it was.
 */
static struct sk_run_rec *bucket_sort(const struct sk_run_rec *in, size_t nr)
{
	struct sk_run_rec *out = sk_xmalloc(nr * sizeof(*out));
	size_t *start = sk_xcalloc(DIGITS + 1, sizeof(*start)), i, k, sum = 0;
	uint64_t lo = in[0].key, hi = in[0].key;
	int shift = 0, top;

	for (i = 1; i < nr; i++) {
		lo = in[i].key < lo ? in[i].key : lo;
		hi = in[i].key > hi ? in[i].key : hi;
	}
	if (lo != hi) {
		top = 63 - __builtin_clzll(lo ^ hi);
		shift = top + 1 > DIGIT_BITS ? top + 1 - DIGIT_BITS : 0;
	}
	for (i = 0; i < nr; i++)
		start[digit(in[i].key, shift) + 1]++;
	for (k = 0; k <= DIGITS; k++) {
		sum += start[k];
		start[k] = sum;
	}
	for (i = 0; i < nr; i++)
		out[start[digit(in[i].key, shift)]++] = in[i];
	/* start[k] is now where bucket k ends */
	for (k = 0, i = 0; k < DIGITS; i = start[k++]) {
		size_t n = start[k] - i;

		/* one key (an author's commits) comes in id order already */
		if (n <= SMALL_BUCKET)
			insertion_sort(out + i, n);
		else if (!in_order(out + i, n))
			qsort(out + i, n, sizeof(*out), cmp_rec);
	}
	free(start);
	return out;
}

/* By key, then id; duplicates dropped. */
void sk_index__run_sort(struct sk_run_recs *rs)
{
	size_t i, j, nr = rs->nr;

	if (nr < 4096) {
		if (nr > 1)
			qsort(rs->recs, nr, sizeof(*rs->recs), cmp_rec);
	} else if (!in_order(rs->recs, nr) &&
		   !reverse_if_descending(rs->recs, nr)) {
		struct sk_run_rec *sorted = bucket_sort(rs->recs, nr);

		free(rs->recs);
		rs->recs = sorted;
		rs->alloc = nr;
	}
	for (i = j = 0; i < nr; i++)
		if (!j || cmp_rec(&rs->recs[j - 1], &rs->recs[i]))
			rs->recs[j++] = rs->recs[i];
	rs->nr = j;
}

/* Writes the records (sorted by sk_index__run_sort) as a run. */
int sk_index__run_write(struct sk_index *idx, enum run_kind kind,
			long long range, const struct sk_run_recs *rs)
{
	size_t nr_chunks = (rs->nr + RUN_CHUNK - 1) / RUN_CHUNK, seq;
	unsigned char *dir = sk_xmalloc(nr_chunks ? 8 * nr_chunks : 1);
	unsigned char chunk[RUN_CHUNK * REC_SIZE];
	long long run;
	sqlite3_stmt *s;
	int ret;

	for (seq = 0; seq < nr_chunks; seq++)
		put_le(dir + 8 * seq, rs->recs[seq * RUN_CHUNK].key, 8);
	s = sk_index__stmt(idx, ST_RUN_INSERT);
	sqlite3_bind_int(s, 1, kind);
	sqlite3_bind_int64(s, 2, range);
	sqlite3_bind_int64(s, 3, (long long)rs->nr);
	sqlite3_bind_blob(s, 4, dir, (int)(nr_chunks * 8), SQLITE_STATIC);
	ret = sk_index__step_done(idx, s, "sorted run");
	sqlite3_reset(s);
	free(dir);
	if (ret)
		return ret;
	run = sqlite3_last_insert_rowid(idx->db);
	for (seq = 0; seq < nr_chunks && !ret; seq++) {
		size_t n = seq + 1 < nr_chunks ? RUN_CHUNK :
			rs->nr - seq * RUN_CHUNK;
		const struct sk_run_rec *r = rs->recs + seq * RUN_CHUNK;

		recs_encode(chunk, r, n);
		s = sk_index__stmt(idx, ST_RUN_CHUNK_INSERT);
		sqlite3_bind_int64(s, 1, run << 32 | (long long)seq);
		sqlite3_bind_blob(s, 2, chunk, (int)(n * REC_SIZE),
				  SQLITE_STATIC);
		ret = sk_index__step_done(idx, s, "sorted run");
		sqlite3_reset(s);
	}
	sk_index__runs_release(idx);
	return ret;
}

/* Drops the runs of a range (members), or with range 0 every run. */
int sk_index__runs_drop(struct sk_index *idx, long long range)
{
	sqlite3_stmt *s;
	long long *ids = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0, rc;

	s = sk_index__stmt(idx, ST_RUNS);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (!range || sqlite3_column_int64(s, 2) == range)
			*SK_ARRAY_PUSH(ids, nr, alloc) =
				sqlite3_column_int64(s, 0);
	if (rc != SQLITE_DONE)
		ret = sk_index__db_error(idx, "sorted runs");
	for (i = 0; i < nr && !ret; i++) {
		s = sk_index__stmt(idx, ST_RUN_DROP_CHUNKS);
		sqlite3_bind_int64(s, 1, ids[i] << 32);
		sqlite3_bind_int64(s, 2, (ids[i] + 1) << 32);
		ret = sk_index__step_done(idx, s, "drop sorted run");
		if (ret)
			break;
		s = sk_index__stmt(idx, ST_RUN_DROP);
		sqlite3_bind_int64(s, 1, ids[i]);
		ret = sk_index__step_done(idx, s, "drop sorted run");
	}
	free(ids);
	sk_index__runs_release(idx);
	return ret;
}
