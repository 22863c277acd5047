/* Unit tests for the tracking index: sorted runs (records spanning chunks,
 * sorting, dropping), the lookups of a cold fill (runs) answered as
 * those of rows added later (tables), ancestry from the walked graph and
 * the diffs computed ahead over the cores, in repositories built here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "track/commitfacts.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "track/index-internal.h"
#include "core/patchid.h"
#include <git2/sys/mempack.h>

/* Records per chunk in index-run.c: runs here span several. */
#define CHUNK 250

static char dir[] = "/tmp/sk-test-index-XXXXXX";

static char *path_in(const char *name)
{
	return sk_xstrfmt("%s/%s", dir, name);
}

/* The first column of the first row of sql, an integer. */
static long long sql_int(struct sk_index *idx, const char *sql)
{
	sqlite3_stmt *s;
	long long v;

	assert_int_equal(sqlite3_prepare_v2(idx->db, sql, -1, &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static struct sk_index *open_index(const char *name)
{
	struct sk_index *idx = NULL;
	char *p = path_in(name);

	assert_int_equal(sk_index_open(&idx, p), 0);
	free(p);
	return idx;
}

static void test_run_sort(void **state)
{
	struct sk_run_recs rs = { 0 };
	size_t i, n = 10000;

	(void)state;
	/* more than the radix sort's threshold, ids out of order in a key */
	for (i = 0; i < n; i++)
		assert_int_equal(sk_index__run_push(&rs, (n - i) % 97,
						    (long long)(n - i), 0), 0);
	assert_int_equal(sk_index__run_push(&rs, 5, 5, 0), 0);
	assert_int_equal(sk_index__run_push(&rs, 5, 5, 0), 0);
	sk_index__run_sort(&rs);
	for (i = 1; i < rs.nr; i++)
		assert_true(rs.recs[i - 1].key < rs.recs[i].key ||
			    (rs.recs[i - 1].key == rs.recs[i].key &&
			     rs.recs[i - 1].id < rs.recs[i].id));
	/* the pushed twice, and the one already there: once */
	assert_int_equal(rs.nr, n);
	assert_int_equal(sk_index__run_push(&rs, 1, 1LL << 33, 0), SK_ERROR);
	sk_index__run_recs_release(&rs);
}

static int rec_cmp(const void *a, const void *b)
{
	const struct sk_run_rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* The records of rs sorted and deduplicated by sk_index__run_sort, as qsort
 * and a pass over the copy give them. */
static void check_sort(struct sk_run_recs *rs)
{
	size_t nr = rs->nr, i, j;
	struct sk_run_rec *want = malloc((nr ? nr : 1) * sizeof(*want));

	memcpy(want, rs->recs, nr * sizeof(*want));
	qsort(want, nr, sizeof(*want), rec_cmp);
	for (i = j = 0; i < nr; i++)
		if (!j || rec_cmp(&want[j - 1], &want[i]))
			want[j++] = want[i];
	sk_index__run_sort(rs);
	assert_int_equal(rs->nr, j);
	for (i = 0; i < j; i++) {
		assert_true(rs->recs[i].key == want[i].key);
		assert_int_equal(rs->recs[i].id, want[i].id);
		assert_int_equal(rs->recs[i].val, want[i].val);
	}
	free(want);
	sk_index__run_recs_release(rs);
}

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * The shapes a cold fill sorts: hashes (spread over all 64 bits), a few
 * keys shared by thousands (one author's commits, in id order or not),
 * dense commit rows pushed newest first (a range's members), keys that
 * differ only in their low bits or only in the top one, and one key.
 */
static void test_run_sort_shapes(void **state)
{
	struct sk_run_recs rs = { 0 };
	uint64_t x = 88172645463325252ULL;
	size_t i, n = 50000;

	(void)state;
	for (i = 0; i < n; i++)
		sk_index__run_push(&rs, next_rand(&x), i + 1, 0);
	for (i = 0; i < 100; i++)	/* duplicates of earlier records */
		sk_index__run_push(&rs, rs.recs[i * 7].key, rs.recs[i * 7].id,
				   0);
	check_sort(&rs);
	for (i = 0; i < n; i++)
		sk_index__run_push(&rs, 1000 + i % 8, i + 1, 0);
	check_sort(&rs);
	for (i = 0; i < n; i++)
		sk_index__run_push(&rs, 1000 + i % 8, n - i, 0);
	check_sort(&rs);
	for (i = 0; i < n; i++)
		sk_index__run_push(&rs, n - i, n - i, i);
	check_sort(&rs);
	for (i = 0; i < n; i++)
		sk_index__run_push(&rs, next_rand(&x) % 37, i + 1, 0);
	check_sort(&rs);
	for (i = 0; i < n; i++)
		sk_index__run_push(&rs, i % 2 ? UINT64_MAX - i : i,
				   (next_rand(&x) % n) + 1, 0);
	check_sort(&rs);
	for (i = 0; i < n; i++)	/* 16 buckets of thousands, out of order */
		sk_index__run_push(&rs, (next_rand(&x) & 0xf) << 40 |
				   (i % 4000), (next_rand(&x) % n) + 1, 0);
	check_sort(&rs);
	for (i = 0; i < n; i++)
		sk_index__run_push(&rs, 42, (next_rand(&x) % n) + 1, 0);
	check_sort(&rs);
}

static void test_run_find_across_chunks(void **state)
{
	struct sk_index *idx = open_index("runs.sqlite");
	struct sk_run_recs rs = { 0 }, out = { 0 };
	size_t i;

	(void)state;
	/* keys 0, 2, 4, ...; key 500 a hundred times, over a chunk's end */
	for (i = 0; i < 3 * CHUNK; i++)
		assert_int_equal(sk_index__run_push(&rs, 2 * i, i + 1, i), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(sk_index__run_push(&rs, 500, 10000 + i, 0),
				 0);
	sk_index__run_sort(&rs);
	assert_int_equal(sk_index__run_write(idx, RUN_SUBJECTS, 0, &rs), 0);

	assert_int_equal(sk_index__runs_find(&out, idx, RUN_SUBJECTS, 0, 500,
					     500), 0);
	assert_int_equal(out.nr, 101);
	for (i = 0; i < out.nr; i++)
		assert_int_equal(out.recs[i].key, 500);
	out.nr = 0;
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_SUBJECTS, 0, 0,
					     0), 0);
	assert_int_equal(out.nr, 1);
	assert_int_equal(out.recs[0].id, 1);
	out.nr = 0;
	/* an odd key, below the first, past the last: none */
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_SUBJECTS, 0, 3,
					     3), 0);
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_SUBJECTS, 0,
					     UINT64_MAX, UINT64_MAX), 0);
	assert_int_equal(out.nr, 0);
	/* a range of keys; another kind or range holds nothing */
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_SUBJECTS, 0, 1494,
					     1498), 0);
	assert_int_equal(out.nr, 3);
	assert_int_equal(out.recs[2].val, 749);
	out.nr = 0;
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_EMAILS, 0, 0,
					     UINT64_MAX), 0);
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_SUBJECTS, 7, 0,
					     UINT64_MAX), 0);
	assert_int_equal(out.nr, 0);
	sk_index__run_recs_release(&rs);
	sk_index__run_recs_release(&out);
	sk_index_close(idx);
}

static void test_runs_drop(void **state)
{
	struct sk_index *idx = open_index("drop.sqlite");
	struct sk_run_recs rs = { 0 }, out = { 0 };
	size_t i;

	(void)state;
	for (i = 1; i <= 2 * CHUNK; i++)
		assert_int_equal(sk_index__run_push(&rs, i, i, i), 0);
	assert_int_equal(sk_index__run_write(idx, RUN_MEMBERS, 5, &rs), 0);
	assert_int_equal(sk_index__run_write(idx, RUN_MEMBERS, 6, &rs), 0);
	assert_int_equal(sk_index__runs_drop(idx, 5), 0);
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_MEMBERS, 5, 0,
					     UINT64_MAX), 0);
	assert_int_equal(out.nr, 0);
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_MEMBERS, 6, 0,
					     UINT64_MAX), 0);
	assert_int_equal(out.nr, 2 * CHUNK);
	sk_index__run_recs_release(&rs);
	sk_index__run_recs_release(&out);
	sk_index_close(idx);
}

static void test_run_damaged(void **state)
{
	struct sk_index *idx = open_index("damaged.sqlite");
	struct sk_run_recs rs = { 0 }, out = { 0 };
	size_t i;

	(void)state;
	for (i = 1; i <= 2 * CHUNK; i++)
		assert_int_equal(sk_index__run_push(&rs, i, i, 0), 0);
	assert_int_equal(sk_index__run_write(idx, RUN_EMAILS, 0, &rs), 0);
	assert_int_equal(sqlite3_exec(idx->db, "DELETE FROM run_chunks WHERE"
				      " id = (SELECT max(id) FROM run_chunks)",
				      NULL, NULL, NULL), SQLITE_OK);
	sk_index__runs_release(idx);
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_EMAILS, 0, 1, 1),
			 0);
	assert_int_equal(out.nr, 1);
	assert_int_equal(sk_index__runs_find(&out, idx, RUN_EMAILS, 0,
					     2 * CHUNK, 2 * CHUNK), SK_ERROR);
	assert_non_null(strstr(sk_error_last(), "damaged.sqlite': a sorted "
			       "run is damaged"));
	sk_error_clear();
	sk_index__run_recs_release(&rs);
	sk_index__run_recs_release(&out);
	sk_index_close(idx);
}

/* ---- the lookups, on a repository ---- */

static git_repository *repo;
static git_oid tree;

static void commit(git_oid *out, const char *ref, const git_oid *parent,
		   const char *email, const char *msg)
{
	git_signature *sig;
	git_tree *t;
	git_commit *p = NULL;
	static long long when = 1700000000;

	assert_int_equal(git_signature_new(&sig, "A U Thor", email, when++,
					   0), 0);
	assert_int_equal(git_tree_lookup(&t, repo, &tree), 0);
	if (parent)
		assert_int_equal(git_commit_lookup(&p, repo, parent), 0);
	assert_int_equal(git_commit_create_v(out, repo, ref, sig, sig, NULL,
					     msg, t, p ? 1 : 0, p), 0);
	git_commit_free(p);
	git_tree_free(t);
	git_signature_free(sig);
}

/* Commits i = first .. last on ref: "sub: change i", every third by b. */
static void commits(git_oid *oids, int first, int last, const char *ref)
{
	char msg[200];
	int i;

	for (i = first; i <= last; i++) {
		snprintf(msg, sizeof(msg), "sub: change %d\n\nLink: "
			 "https://lore.kernel.org/r/m%d@example.org\n", i, i);
		commit(&oids[i], ref, i ? &oids[i - 1] : NULL,
		       i % 3 ? "a@example.org" : "b@example.org", msg);
	}
}

static void hex(char out[41], const git_oid *oid)
{
	git_oid_tostr(out, 41, oid);
}

/* The lookups give commit i of range, and each only it. */
static void assert_found(struct sk_index *idx, long long range,
			 const git_oid *oids, int i, long long pos)
{
	struct sk_index_list l = { 0 };
	struct sk_strbuf norm = SK_STRBUF_INIT;
	char h[41], subject[64], msgid[64];

	hex(h, &oids[i]);
	snprintf(subject, sizeof(subject), "sub: change %d", i);
	snprintf(msgid, sizeof(msgid), "m%d@example.org", i);
	sk_subject_norm(&norm, subject);
	assert_int_equal(sk_index_by_subject(&l, idx, range, norm.buf), 0);
	sk_strbuf_release(&norm);
	assert_int_equal(l.nr, 1);
	assert_string_equal(l.items[0].oid, h);
	assert_int_equal(l.items[0].pos, pos);
	sk_index_list_release(&l);
	assert_int_equal(sk_index_by_msgid(&l, idx, range, msgid), 0);
	assert_int_equal(l.nr, 1);
	assert_string_equal(l.items[0].oid, h);
	sk_index_list_release(&l);
	h[12] = '\0';
	assert_int_equal(sk_index_by_prefix(&l, idx, range, h), 0);
	assert_int_equal(l.nr, 1);
	assert_string_equal(l.items[0].subject, subject);
	sk_index_list_release(&l);
	hex(h, &oids[i]);
	if (range)
		assert_int_equal(sk_index_in_range(idx, range, h), 1);
}

#define NR 700

static void test_lookups_cold_then_warm(void **state)
{
	static git_oid oids[NR + 20];
	struct sk_index_walk_stats st;
	struct sk_index_list l = { 0 };
	struct sk_index *idx;
	git_treebuilder *tb;
	long long range;
	char *path = path_in("repo"), h[41];
	int i;

	(void)state;
	assert_int_equal(git_repository_init(&repo, path, 1), 0);
	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	assert_int_equal(git_treebuilder_write(&tree, tb), 0);
	git_treebuilder_free(tb);
	commits(oids, 0, NR - 1, "refs/heads/main");

	/* cold: the lookups come from sorted runs */
	idx = open_index("repo.sqlite");
	assert_int_equal(sk_index_update_range(&range, &st, idx, repo, "main",
					       &oids[NR - 1], &oids[9]), 0);
	assert_int_equal(st.walked, NR - 10);
	assert_int_equal(sk_index_finish(idx), 0);
	assert_found(idx, range, oids, 10, 1);
	assert_found(idx, range, oids, 400, 391);
	assert_found(idx, 0, oids, 600, 0);
	hex(h, &oids[5]);
	assert_int_equal(sk_index_in_range(idx, range, h), 0);
	/* the fill's commit rows are in chunks of 16 consecutive rows */
	assert_int_equal(sql_int(idx, "SELECT count(*) FROM commits"), 0);
	assert_int_equal(sql_int(idx, "SELECT count(*) FROM commit_chunks"),
			 (NR - 10 + 15) / 16);
	assert_int_equal(sql_int(idx, "SELECT sum(nr) FROM commit_chunks"),
			 NR - 10);
	assert_int_equal(sql_int(idx, "SELECT max(id + nr - 1)"
				 " FROM commit_chunks"), NR - 10);
	/* the newest of b's commits in the range, newest first */
	assert_int_equal(sk_index_by_email_recent(&l, idx, range,
						  "b@example.org", 3), 0);
	assert_int_equal(l.nr, 3);
	assert_string_equal(l.items[0].subject, "sub: change 699");
	assert_string_equal(l.items[2].subject, "sub: change 693");
	sk_index_list_release(&l);
	sk_index_close(idx);

	/* warm: twenty more, stored row by row; both answer */
	commits(oids, NR, NR + 19, "refs/heads/main");
	idx = open_index("repo.sqlite");
	assert_int_equal(sk_index_update_range(&range, &st, idx, repo, "main",
					       &oids[NR + 19], &oids[9]), 0);
	assert_int_equal(st.walked, 20);
	assert_int_equal(st.parsed, 20);
	/* rows of their own, numbered after the chunks' */
	assert_int_equal(sql_int(idx, "SELECT count(*) FROM commits"), 20);
	assert_int_equal(sql_int(idx, "SELECT min(id) FROM commits"),
			 NR - 10 + 1);
	assert_found(idx, range, oids, NR + 5, NR + 5 - 9);
	assert_found(idx, range, oids, 11, 2);
	assert_int_equal(sk_index_by_email_recent(&l, idx, range,
						  "b@example.org", 2), 0);
	assert_int_equal(l.nr, 2);
	assert_string_equal(l.items[0].subject, "sub: change 717");
	assert_string_equal(l.items[1].subject, "sub: change 714");
	sk_index_list_release(&l);
	assert_int_equal(sk_index_by_email(&l, idx, range, "b@example.org"),
			 0);
	/* 12, 15, ... 717: not 0, 3, 6, 9, below the base */
	assert_int_equal(l.nr, (NR + 20) / 3 - 4);
	for (i = 1; i < (int)l.nr; i++)
		assert_true(l.items[i - 1].pos < l.items[i].pos);
	sk_index_list_release(&l);

	/* another base: walked again, whole; below it is out of the range */
	assert_int_equal(sk_index_update_range(&range, &st, idx, repo, "main",
					       &oids[NR + 19], &oids[499]), 0);
	assert_true(st.rewalked);
	assert_found(idx, range, oids, 500, 1);
	hex(h, &oids[400]);
	assert_int_equal(sk_index_in_range(idx, range, h), 0);

	/* a chunk cut short is an error that says so, not a wrong row */
	assert_int_equal(sqlite3_exec(idx->db, "UPDATE commit_chunks SET"
				      " data = substr(data, 1, 30) WHERE"
				      " id = 33", NULL, NULL, NULL),
			 SQLITE_OK);
	sk_index__chunk_forget(idx);
	/* the walk from the tip numbered the rows: 40 is commit 699 - 39 */
	hex(h, &oids[NR - 1 - 39]);
	h[12] = '\0';
	assert_int_equal(sk_index_by_prefix(&l, idx, 0, h), SK_ERROR);
	assert_non_null(strstr(sk_error_last(), "repo.sqlite': a chunk of "
			       "commit rows is damaged"));
	sk_error_clear();
	sk_index_list_release(&l);
	sk_index_close(idx);
	git_repository_free(repo);
	free(path);
}

/* ---- ancestry from the walked graph ---- */

static void merge(git_oid *out, const char *ref, const git_oid *a,
		  const git_oid *b)
{
	git_signature *sig;
	git_tree *t;
	git_commit *p[2];

	assert_int_equal(git_signature_new(&sig, "A U Thor", "a@example.org",
					   1800000000, 0), 0);
	assert_int_equal(git_tree_lookup(&t, repo, &tree), 0);
	assert_int_equal(git_commit_lookup(&p[0], repo, a), 0);
	assert_int_equal(git_commit_lookup(&p[1], repo, b), 0);
	assert_int_equal(git_commit_create(out, repo, ref, sig, sig, NULL,
					   "Merge side\n", t, 2,
					   (const git_commit **)p), 0);
	git_commit_free(p[0]);
	git_commit_free(p[1]);
	git_tree_free(t);
	git_signature_free(sig);
}

/*
 * Where a commit of test_ancestry is: main at i, side (forked from main
 * 30, merged at 4000) at i, other (forked from main 20) at i.
 */
struct at {
	char line;
	int i;
};

/* What git merge-base --is-ancestor says, from how the history was made. */
static int is_ancestor(struct at a, struct at d)
{
	if (a.line == d.line)
		return a.i <= d.i;
	if (a.line == 'm')
		return a.i <= (d.line == 's' ? 30 : 20);
	return a.line == 's' && d.line == 'm' && d.i >= 4000;
}

/* Longer than the search after which a descendant's ancestors are marked. */
#define LONG 5000

/*
 * main: 0 .. LONG-1, a side branch forked below the base (from 30) and
 * merged at 4000, another branch from 20 never merged; the range is
 * main less 50.  Every answer is git's, whether the walked graph gives it,
 * its edges (the commits where the range's paths leave it) or the
 * repository.
 */
static void test_ancestry(void **state)
{
	static git_oid m[LONG], side[3], other[2];
	struct sk_index_walk_stats st;
	struct sk_index *idx;
	git_treebuilder *tb;
	git_odb_backend *mempack;
	git_reference *ref;
	git_odb *odb;
	const git_oid *edge;
	size_t nr_edge, i, j;
	long long range;
	char *path = path_in("anc"), a[41], d[41];
	git_oid *all[LONG + 5];
	struct at where[LONG + 5];
	size_t nr_all = 0;

	(void)state;
	assert_int_equal(git_repository_init(&repo, path, 1), 0);
	/* thousands of commits in memory, not as loose files */
	assert_int_equal(git_mempack_new(&mempack), 0);
	assert_int_equal(git_repository_odb(&odb, repo), 0);
	assert_int_equal(git_odb_add_backend(odb, mempack, 1000), 0);
	git_odb_free(odb);
	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	assert_int_equal(git_treebuilder_write(&tree, tb), 0);
	git_treebuilder_free(tb);
	/* no ref moved per commit: one write each at the end */
	commits(m, 0, 3999, NULL);
	commit(&side[0], NULL, &m[30], "s@example.org", "s0\n");
	commit(&side[1], NULL, &side[0], "s@example.org", "s1\n");
	commit(&side[2], NULL, &side[1], "s@example.org", "s2\n");
	merge(&m[4000], NULL, &m[3999], &side[2]);
	commits(m, 4001, LONG - 1, NULL);
	commit(&other[0], NULL, &m[20], "o@example.org", "o0\n");
	commit(&other[1], NULL, &other[0], "o@example.org", "o1\n");
	assert_int_equal(git_reference_create(&ref, repo, "refs/heads/main",
					      &m[LONG - 1], 0, NULL), 0);
	git_reference_free(ref);

	idx = open_index("anc.sqlite");
	assert_int_equal(sk_index_update_range(&range, &st, idx, repo, "main",
					       &m[LONG - 1], &m[50]), 0);
	assert_int_equal(sk_index_finish(idx), 0);

	/* a fork point below the base is one of those */
	assert_int_equal(sk_index__graph_is_ancestor(&idx->g, &m[30],
						     &m[LONG - 1], &edge,
						     &nr_edge), 1);
	/* below the base: the graph names where the range leaves it */
	assert_int_equal(sk_index__graph_is_ancestor(&idx->g, &m[10],
						     &m[LONG - 1], &edge,
						     &nr_edge), -2);
	assert_int_equal(nr_edge, 2);
	assert_true((git_oid_equal(&edge[0], &m[50]) &&
		     git_oid_equal(&edge[1], &m[30])) ||
		    (git_oid_equal(&edge[0], &m[30]) &&
		     git_oid_equal(&edge[1], &m[50])));
	/* in the range, far apart: the graph alone */
	assert_int_equal(sk_index__graph_is_ancestor(&idx->g, &m[60],
						     &m[LONG - 1], &edge,
						     &nr_edge), 1);
	assert_int_equal(sk_index__graph_is_ancestor(&idx->g, &m[LONG - 1],
						     &m[60], &edge, &nr_edge),
			 0);
	assert_int_equal(sk_index__graph_is_ancestor(&idx->g, &side[1],
						     &m[3999], &edge, &nr_edge),
			 0);

#define AT(oid, l, n) (where[nr_all] = (struct at){ l, n }, all[nr_all++] = oid)
	for (i = 0; i < LONG; i += 97)
		AT(&m[i], 'm', (int)i);
	AT(&m[LONG - 1], 'm', LONG - 1);
	AT(&m[4000], 'm', 4000);
	AT(&side[0], 's', 0);
	AT(&side[2], 's', 2);
	AT(&other[1], 'o', 1);
#undef AT
	for (i = 0; i < nr_all; i++) {
		for (j = 0; j < nr_all; j += 1 + i % 3) {
			hex(a, all[i]);
			hex(d, all[j]);
			assert_int_equal(sk_index_is_ancestor(idx, repo, a, d),
					 is_ancestor(where[i], where[j]));
		}
	}
	sk_index_close(idx);
	git_repository_free(repo);
	free(path);
}

/* ---- a walk that stores nothing, and the range's references ---- */

struct seen_log {
	git_oid oids[512];
	size_t nr;
};

static void log_read(void *ctx, const git_oid *oid, const char *raw, size_t len)
{
	struct seen_log *l = ctx;

	assert_true(len > 0 && !strncmp(raw, "tree ", 5));
	if (l->nr < 512)
		git_oid_cpy(&l->oids[l->nr++], oid);
}

static size_t position(const git_oid *v, size_t nr, const git_oid *oid)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (git_oid_equal(&v[i], oid))
			return i;
	return nr;
}

/*
 * main 0..199 with a side branch (from 30, merged at 100); tip less main
 * 50: the commits git's walk lists, each after its parents in the range,
 * each shown to the caller once, and nothing stored in the index.
 */
static void test_walk_commits(void **state)
{
	static git_oid m[200], side[3], other;
	struct seen_log seen = { .nr = 0 };
	struct sk_index_list l = { 0 };
	struct sk_index *idx;
	git_treebuilder *tb;
	git_revwalk *w;
	git_oid *order, id;
	size_t nr, i, j, nr_git = 0;
	char *path = path_in("walk"), h[41];

	(void)state;
	assert_int_equal(git_repository_init(&repo, path, 1), 0);
	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	assert_int_equal(git_treebuilder_write(&tree, tb), 0);
	git_treebuilder_free(tb);
	commits(m, 0, 99, NULL);
	commit(&side[0], NULL, &m[30], "s@example.org", "s0\n");
	commit(&side[1], NULL, &side[0], "s@example.org", "s1\n");
	commit(&side[2], NULL, &side[1], "s@example.org", "s2\n");
	merge(&m[100], NULL, &m[99], &side[2]);
	commits(m, 101, 199, NULL);
	commit(&other, NULL, &m[20], "o@example.org", "o\n");

	idx = open_index("walk.sqlite");
	assert_int_equal(sk_index_walk_commits(&order, &nr, idx, repo, &m[199],
					       &m[50], log_read, &seen), 0);
	assert_int_equal(git_revwalk_new(&w, repo), 0);
	assert_int_equal(git_revwalk_push(w, &m[199]), 0);
	assert_int_equal(git_revwalk_hide(w, &m[50]), 0);
	while (!git_revwalk_next(&id, w)) {
		assert_true(position(order, nr, &id) < nr);
		nr_git++;
	}
	git_revwalk_free(w);
	assert_int_equal(nr, nr_git);
	assert_int_equal(nr, 149 + 3);
	for (i = 0; i < nr; i++) {
		git_commit *c;
		unsigned int k;

		assert_int_equal(git_commit_lookup(&c, repo, &order[i]), 0);
		for (k = 0; k < git_commit_parentcount(c); k++) {
			j = position(order, nr, git_commit_parent_id(c, k));
			assert_true(j == nr || j < i);
		}
		git_commit_free(c);
		/* shown once, whatever else the walk read */
		for (j = 0, k = 0; j < seen.nr; j++)
			k += git_oid_equal(&seen.oids[j], &order[i]);
		assert_int_equal(k, 1);
	}
	free(order);
	/* nothing stored: the index does not know them */
	hex(h, &m[150]);
	h[12] = '\0';
	assert_int_equal(sk_index_by_prefix(&l, idx, 0, h), 0);
	assert_int_equal(l.nr, 0);
	/* a base that is not an ancestor */
	assert_int_equal(sk_index_walk_commits(&order, &nr, idx, repo, &m[199],
					       &other, NULL, NULL), SK_EINVALID);
	assert_null(order);
	sk_error_clear();
	sk_index_close(idx);
	git_repository_free(repo);
	free(path);
}

/* The references of the range's commits only, oldest first, as written. */
static void test_range_uprefs(void **state)
{
	static git_oid m[10];
	struct sk_index_walk_stats st;
	struct sk_index_upref *u;
	struct sk_index *idx;
	git_treebuilder *tb;
	size_t nr;
	long long range;
	char *path = path_in("uprefs"), msg[200], up[41];

	(void)state;
	assert_int_equal(git_repository_init(&repo, path, 1), 0);
	assert_int_equal(git_treebuilder_new(&tb, repo, NULL), 0);
	assert_int_equal(git_treebuilder_write(&tree, tb), 0);
	git_treebuilder_free(tb);
	commit(&m[0], NULL, NULL, "a@example.org",
	       "below the base\n\ncommit 1111111111111111111111111111111111111111 upstream.\n");
	commit(&m[1], NULL, &m[0], "a@example.org",
	       "pick\n\ncommit 2222222222222222222222222222222222222222 upstream.\n");
	commit(&m[2], NULL, &m[1], "a@example.org", "plain\n");
	commit(&m[3], NULL, &m[2], "a@example.org",
	       "pick, abbreviated\n\n(cherry picked from commit 333333333333)\n");
	git_oid_tostr(up, sizeof(up), &m[1]);
	snprintf(msg, sizeof(msg), "Revert \"pick\"\n\nThis reverts commit %s.\n", up);
	commit(&m[4], "refs/heads/main", &m[3], "a@example.org", msg);

	idx = open_index("uprefs.sqlite");
	assert_int_equal(sk_index_update_range(&range, &st, idx, repo, "main",
					       &m[4], &m[0]), 0);
	assert_int_equal(sk_index_range_uprefs(&u, &nr, idx, range), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(u[0].upstream, "2222222222222222222222222222222222222222");
	assert_int_equal(u[0].kind, SK_UPREF_COMMIT_UPSTREAM);
	git_oid_tostr(up, sizeof(up), &m[1]);
	assert_string_equal(u[0].oid, up);
	assert_string_equal(u[1].upstream, "333333333333");
	assert_int_equal(u[1].kind, SK_UPREF_CHERRY_PICK);
	assert_int_equal(u[2].kind, SK_UPREF_REVERT);
	assert_true(u[0].pos < u[1].pos && u[1].pos < u[2].pos);
	free(u);
	sk_index_close(idx);
	git_repository_free(repo);
	free(path);
}

/* ---- diffs computed ahead ---- */

/* Commit i changes file i % 5 to "i" (a rename at 10). */
static void file_commits(git_oid *oids, int nr)
{
	git_signature *sig;
	git_tree *parent_tree = NULL;
	int i;

	assert_int_equal(git_signature_new(&sig, "A U Thor", "a@example.org",
					   1700000000, 0), 0);
	for (i = 0; i < nr; i++) {
		git_treebuilder *tb;
		git_commit *p = NULL;
		git_tree *t;
		git_oid blob, tid;
		char name[32], text[64], msg[64];

		snprintf(name, sizeof(name), "f%d.c", i % 5);
		snprintf(text, sizeof(text), "int v%d;\nint w;\n", i);
		snprintf(msg, sizeof(msg), "f: change %d\n", i);
		assert_int_equal(git_treebuilder_new(&tb, repo, parent_tree), 0);
		assert_int_equal(git_blob_create_from_buffer(&blob, repo, text,
							     strlen(text)), 0);
		if (i == 10) {
			/* the content of f0.c under a new name */
			const git_tree_entry *e =
				git_treebuilder_get(tb, "f0.c");

			git_oid_cpy(&blob, git_tree_entry_id(e));
			assert_int_equal(git_treebuilder_remove(tb, "f0.c"), 0);
			snprintf(name, sizeof(name), "g0.c");
		}
		assert_int_equal(git_treebuilder_insert(NULL, tb, name, &blob,
							GIT_FILEMODE_BLOB), 0);
		assert_int_equal(git_treebuilder_write(&tid, tb), 0);
		git_treebuilder_free(tb);
		assert_int_equal(git_tree_lookup(&t, repo, &tid), 0);
		if (i)
			assert_int_equal(git_commit_lookup(&p, repo,
							   &oids[i - 1]), 0);
		assert_int_equal(git_commit_create_v(&oids[i], repo,
						     "refs/heads/main", sig,
						     sig, NULL, msg, t,
						     p ? 1 : 0, p), 0);
		git_commit_free(p);
		git_tree_free(parent_tree);
		parent_tree = t;
	}
	git_tree_free(parent_tree);
	git_signature_free(sig);
}

#define FILES_NR 60

static void test_prefetch(void **state)
{
	static git_oid oids[FILES_NR];
	char hexes[FILES_NR][41], pid[41], want[41];
	const char *list[FILES_NR + 1];
	struct sk_index_walk_stats st;
	struct sk_index *idx;
	unsigned long diffs;
	char *path = path_in("prefetch"), **files;
	size_t nr, i;
	long long range;

	(void)state;
	assert_int_equal(git_repository_init(&repo, path, 1), 0);
	file_commits(oids, FILES_NR);
	idx = open_index("prefetch.sqlite");
	assert_int_equal(sk_index_update_range(&range, &st, idx, repo, "main",
					       &oids[FILES_NR - 1], &oids[0]),
			 0);
	for (i = 1; i < FILES_NR; i++) {
		hex(hexes[i], &oids[i]);
		list[i - 1] = hexes[i];
	}
	/* the first diffed now, the others ahead; an unknown id skipped */
	assert_int_equal(sk_index_patchid(pid, idx, repo, hexes[1]), 0);
	list[FILES_NR - 1] = "0123456789012345678901234567890123456789";
	assert_int_equal(sk_index_lacks(idx, hexes[1], SK_INDEX_PATCHID), 0);
	assert_int_equal(sk_index_lacks(idx, hexes[2], SK_INDEX_PATCHID |
					SK_INDEX_FILES),
			 SK_INDEX_PATCHID | SK_INDEX_FILES);
	diffs = sk_index_diffs(idx);
	assert_int_equal(sk_index_prefetch(idx, repo, list, FILES_NR,
					   SK_INDEX_PATCHID | SK_INDEX_FILES),
			 0);
	/* 58 patch-ids, 59 path lists */
	assert_int_equal(sk_index_diffs(idx) - diffs, 2 * (FILES_NR - 1) - 1);
	diffs = sk_index_diffs(idx);
	for (i = 1; i < FILES_NR; i++) {
		git_commit *c;

		assert_int_equal(git_commit_lookup(&c, repo, &oids[i]), 0);
		assert_int_equal(sk_patchid_commit(want, repo, c), 0);
		git_commit_free(c);
		assert_int_equal(sk_index_patchid(pid, idx, repo, hexes[i]), 0);
		assert_string_equal(pid, want);
		assert_int_equal(sk_index_files(&files, &nr, idx, repo,
						hexes[i]), 0);
		if (i == 10) {
			/* the rename, both paths */
			assert_int_equal(nr, 2);
			assert_string_equal(files[0], "f0.c");
			assert_string_equal(files[1], "g0.c");
		} else {
			assert_int_equal(nr, 1);
		}
		sk_index_files_free(files, nr);
	}
	/* everything was there */
	assert_int_equal(sk_index_diffs(idx), diffs);
	assert_int_equal(sk_index_lacks(idx, hexes[7], SK_INDEX_PATCHID |
					SK_INDEX_FILES), 0);
	sk_index_close(idx);

	/* patch-ids stored from elsewhere; an empty one is not stored */
	idx = open_index("prefetch2.sqlite");
	assert_int_equal(sk_index_update_range(&range, &st, idx, repo, "main",
					       &oids[FILES_NR - 1], &oids[0]),
			 0);
	{
		const char *two[2] = { hexes[3], hexes[4] };
		char pids[2][41] = { "", "" };

		memset(pids[0], 'a', 40);
		assert_int_equal(sk_index_set_patchids(idx, two,
						       (const char (*)[41])pids,
						       2), 0);
	}
	assert_int_equal(sk_index_lacks(idx, hexes[3], SK_INDEX_PATCHID), 0);
	assert_int_equal(sk_index_lacks(idx, hexes[4], SK_INDEX_PATCHID),
			 SK_INDEX_PATCHID);
	diffs = sk_index_diffs(idx);
	assert_int_equal(sk_index_patchid(pid, idx, repo, hexes[3]), 0);
	assert_string_equal(pid, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	assert_int_equal(sk_index_diffs(idx), diffs);
	sk_index_close(idx);
	git_repository_free(repo);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_sort),
		cmocka_unit_test(test_run_sort_shapes),
		cmocka_unit_test(test_run_find_across_chunks),
		cmocka_unit_test(test_runs_drop),
		cmocka_unit_test(test_run_damaged),
		cmocka_unit_test(test_lookups_cold_then_warm),
		cmocka_unit_test(test_ancestry),
		cmocka_unit_test(test_walk_commits),
		cmocka_unit_test(test_range_uprefs),
		cmocka_unit_test(test_prefetch),
	};
	int ret;

	if (!mkdtemp(dir))
		return 1;
	git_libgit2_init();
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	sk_rmrf(dir);
	return ret;
}
