/*
 * The diffs a run of many patches needs (a patch-id for every commit with
 * a patch's subject, the paths of every recent commit of a busy author),
 * computed together over the machine's cores before the matching asks
 * for them one by one.  The threads only diff; the index is written from
 * the calling thread, in one transaction.
 */
#include "track/index-internal.h"
#include "core/error.h"
#include "core/parallel.h"
#include <stdlib.h>
#include <string.h>

struct want {
	long long id;
	const char *oid;
	unsigned what;		/* SK_INDEX_* the index lacks */
	unsigned got;		/* of which were computed */
	char patchid[41];
	struct sk_strbuf files;
};

/* 1 if the index keeps no value (ST_GET_PATCHID, ST_GET_FILES) for it. */
static int lacks(struct sk_index *idx, enum stmt get, long long id)
{
	sqlite3_stmt *s = sk_index__stmt(idx, get);

	sqlite3_bind_int64(s, 1, id);
	return sqlite3_step(s) != SQLITE_ROW ||
	       sqlite3_column_type(s, 0) == SQLITE_NULL;
}

/* What of `what` the index lacks for the commit; 0 for one it does not know. */
static unsigned lacking(long long *id, struct sk_index *idx, const char *hex,
			unsigned what)
{
	unsigned lack = 0;
	git_oid oid;

	if (strlen(hex) != GIT_OID_HEXSZ || git_oid_fromstr(&oid, hex) ||
	    sk_index__find_id(id, idx, &oid) || !*id) {
		sk_error_clear();
		return 0;
	}
	if ((what & SK_INDEX_PATCHID) && lacks(idx, ST_GET_PATCHID, *id))
		lack |= SK_INDEX_PATCHID;
	if ((what & SK_INDEX_FILES) && lacks(idx, ST_GET_FILES, *id))
		lack |= SK_INDEX_FILES;
	return lack;
}

static int want_cmp(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int compute(void *ctx, git_repository *repo, size_t i)
{
	struct want *w = (struct want *)ctx + i;

	if ((w->what & SK_INDEX_PATCHID) &&
	    !sk_index__patchid_compute(w->patchid, repo, w->oid))
		w->got |= SK_INDEX_PATCHID;
	if ((w->what & SK_INDEX_FILES) &&
	    !sk_index__files_text(&w->files, repo, w->oid))
		w->got |= SK_INDEX_FILES;
	/* the lookup that asks for it again reports the failure */
	sk_error_clear();
	return 0;
}

static int store(struct sk_index *idx, struct want *w)
{
	int ret = 0;

	if (w->got & SK_INDEX_PATCHID) {
		idx->diffs++;
		ret = sk_index__set_extra(idx, ST_SET_PATCHID, w->id, w->oid,
					  w->patchid);
	}
	if (!ret && (w->got & SK_INDEX_FILES)) {
		idx->diffs++;
		ret = sk_index__set_extra(idx, ST_SET_FILES, w->id, w->oid,
					  w->files.buf ? w->files.buf : "");
	}
	return ret;
}

static int store_all(struct sk_index *idx, struct want *w, size_t nr)
{
	size_t i;
	int ret;

	if (sqlite3_exec(idx->db, "SAVEPOINT prefetch", NULL, NULL, NULL))
		return sk_index__db_error(idx, "store diffs");
	for (i = 0, ret = 0; i < nr && !ret; i++)
		ret = store(idx, &w[i]);
	if (sqlite3_exec(idx->db, ret ? "ROLLBACK TO prefetch; RELEASE prefetch"
				      : "RELEASE prefetch", NULL, NULL, NULL) &&
	    !ret)
		ret = sk_index__db_error(idx, "store diffs");
	return ret;
}

/* What the index lacks of what is asked, each commit once. */
static size_t wanted(struct want **out, struct sk_index *idx,
		     const char *const *oids, size_t nr, unsigned what)
{
	struct want *w = NULL, *x;
	size_t n = 0, alloc = 0, i, j;

	for (i = 0; i < nr; i++) {
		long long id;
		unsigned lack = lacking(&id, idx, oids[i], what);

		if (!lack)
			continue;
		x = SK_ARRAY_PUSH(w, n, alloc);
		memset(x, 0, sizeof(*x));
		x->id = id;
		x->oid = oids[i];
		x->what = lack;
	}
	if (n > 1)
		qsort(w, n, sizeof(*w), want_cmp);
	for (i = j = 0; i < n; i++) {
		if (j && w[j - 1].id == w[i].id)
			w[j - 1].what |= w[i].what;
		else
			w[j++] = w[i];
	}
	*out = w;
	return j;
}

int sk_index_prefetch(struct sk_index *idx, git_repository *repo,
		      const char *const *oids, size_t nr, unsigned what)
{
	struct want *w = NULL;
	size_t n, i;
	int ret = sk_index_finish(idx);

	if (ret)
		return ret;
	n = wanted(&w, idx, oids, nr, what);
	if (n)
		ret = sk_parallel_repo_for(repo, n, 0, compute, w);
	if (!ret)
		ret = store_all(idx, w, n);
	for (i = 0; i < n; i++)
		sk_strbuf_release(&w[i].files);
	free(w);
	return ret;
}

unsigned sk_index_lacks(struct sk_index *idx, const char *oid, unsigned what)
{
	long long id;

	if (sk_index_finish(idx)) {
		sk_error_clear();
		return 0;
	}
	return lacking(&id, idx, oid, what);
}

int sk_index_set_patchids(struct sk_index *idx, const char *const *oids,
			  const char (*pids)[41], size_t nr)
{
	struct want *w = sk_xcalloc(nr + 1, sizeof(*w));
	size_t i, n = 0;
	int ret = sk_index_finish(idx);

	for (i = 0; i < nr && !ret; i++) {
		git_oid oid;

		if (!pids[i][0] || git_oid_fromstr(&oid, oids[i]) ||
		    sk_index__find_id(&w[n].id, idx, &oid) || !w[n].id) {
			sk_error_clear();
			continue;
		}
		memcpy(w[n].patchid, pids[i], sizeof(w[n].patchid));
		w[n].oid = oids[i];
		w[n++].got = SK_INDEX_PATCHID;
	}
	if (!ret)
		ret = store_all(idx, w, n);
	free(w);
	return ret;
}
