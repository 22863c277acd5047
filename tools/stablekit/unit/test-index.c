/* Unit tests for the tracking index: sorted runs (records spanning chunks,
 * sorting, dropping), and the lookups of a cold fill (runs) answered as
 * those of rows added later (tables), in one repository built here. */
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

/* Records per chunk in index-run.c: runs here span several. */
#define CHUNK 250

static char dir[] = "/tmp/sk-test-index-XXXXXX";

static char *path_in(const char *name)
{
	return sk_xstrfmt("%s/%s", dir, name);
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
	sk_index_close(idx);
	git_repository_free(repo);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_sort),
		cmocka_unit_test(test_run_find_across_chunks),
		cmocka_unit_test(test_runs_drop),
		cmocka_unit_test(test_run_damaged),
		cmocka_unit_test(test_lookups_cold_then_warm),
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
