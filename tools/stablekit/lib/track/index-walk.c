/*
 * Bringing a range up to date: the commit graph this run has read, git's
 * limited walk by commit date over it, each commit read from the object
 * database once (its new rows stored from that same read, by
 * index-store.c), and the range's members in topological order.  The
 * graph stays for the run, so that ancestry between commits of a walked
 * range is answered without the repository.
 */
#include "track/index-internal.h"
#include "track/commitfacts.h"
#include "core/error.h"

#include <stdlib.h>
#include <string.h>

enum {
	SEEN = 1 << 0,		/* queued once in this walk */
	UNINTERESTING = 1 << 1,	/* reachable from the base or the old tip */
	QUEUED = 1 << 2,	/* in the date queue now */
	IN_RANGE_LIST = 1 << 3,	/* kept for the range */
};

/* Commits read past the last interesting one, for clock skew (git's). */
#define SLOP 5
/* libgit2's default limit for caching commit objects, restored. */
#define GIT_COMMIT_CACHE_LIMIT 4096
/* Range members per INSERT. */
#define MEMBER_BATCH 64
/* (name, base) ranges kept in one index. */
#define RANGES_KEPT 32

/* ---- the commit graph ---- */

/* The ancestry marks go stale: their edge lists freed. */
static void reach_forget(struct graph *g)
{
	unsigned int k;

	for (k = 0; k < g->nr_reach; k++) {
		free(g->reach_edge[k]);
		g->reach_edge[k] = NULL;
		g->nr_reach_edge[k] = 0;
	}
	g->nr_reach = 0;
	g->reach_epoch++;
}

void sk_index__graph_release(struct graph *g)
{
	reach_forget(g);
	sk_index__arena_free(&g->arena);
	free(g->slots);
	free(g->heap);
	memset(g, 0, sizeof(*g));
}

static size_t oid_hash(const git_oid *oid)
{
	size_t h;

	memcpy(&h, oid->id, sizeof(h));
	return h;
}

/*
 * Each slot keeps the first 8 bytes of its commit's id beside the node:
 * a probe compares those and reads the node only when they are equal (a
 * hit), which keeps a lookup to one cache miss in a table of hundreds of
 * thousands of commits.
 */
static void graph_grow(struct graph *g)
{
	size_t size = g->slots ? 2 * (g->mask + 1) : 1 << 16, i, j;
	/*
	 * Written before it is read: a calloc'd table is the zero page until
	 * a probe's first write, a copy-on-write fault and a TLB flush on
	 * every core the walk's threads run on.
	 */
	struct slot *slots = memset(sk_xmalloc(size * sizeof(struct slot)), 0,
				    size * sizeof(struct slot));

	for (i = 0; g->slots && i <= g->mask; i++) {
		if (!g->slots[i].n)
			continue;
		for (j = g->slots[i].tag & (size - 1); slots[j].n;
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
	size_t h = oid_hash(oid), i;
	struct node *n;

	if (!g->slots) {
		if (!create)
			return NULL;
		graph_grow(g);
	}
	for (i = h & g->mask; g->slots[i].n; i = (i + 1) & g->mask)
		if (g->slots[i].tag == h &&
		    git_oid_equal(&g->slots[i].n->oid, oid))
			return g->slots[i].n;
	if (!create)
		return NULL;
	if (2 * (g->nr + 1) > g->mask + 1) {
		graph_grow(g);
		for (i = h & g->mask; g->slots[i].n; i = (i + 1) & g->mask)
			;
	}
	n = sk_index__arena_alloc(&g->arena, sizeof(*n));
	memset(n, 0, sizeof(*n));
	git_oid_cpy(&n->oid, oid);
	g->slots[i].tag = h;
	g->slots[i].n = n;
	g->nr++;
	return n;
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
	const char *data;
	size_t i, len;
	int ret = 0;

	if (idx->no_rows) {
		if (n->parsed)
			return 0;
		want_row = 0;
	}
	if (want_row && !n->id && !idx->bulk) {
		ret = sk_index__find_id(&n->id, idx, &n->oid);
		if (ret)
			return ret;
	}
	if (n->parsed && (!want_row || n->id))
		return 0;
	if (!sk_index__packs_read_commit(&data, &len, g->packs, &n->oid)) {
		if (git_odb_read(&obj, g->odb, &n->oid)) {
			git_oid_tostr(hex, sizeof(hex), &n->oid);
			return sk_error_git(SK_ERROR, hex);
		}
		data = git_odb_object_type(obj) == GIT_OBJECT_COMMIT ?
			git_odb_object_data(obj) : NULL;
		len = git_odb_object_size(obj);
	}
	if (!data || sk_commit_raw_parse(&raw, data, len)) {
		git_oid_tostr(hex, sizeof(hex), &n->oid);
		ret = sk_error_set(SK_ERROR, "%s: not a well-formed commit",
				   hex);
		goto out;
	}
	if (idx->on_read && !(n->flags & UNINTERESTING))
		idx->on_read(idx->on_read_ctx, &n->oid, data, len);
	if (!n->parsed) {
		n->time = raw.time;
		n->parents = sk_index__arena_alloc(&g->arena,
				(raw.nr_parents ? raw.nr_parents : 1) *
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
			if (!n->parents[i]->parsed)
				sk_index__packs_prefetch(g->packs, &p);
		}
		n->nr_parents = raw.nr_parents;
		n->parsed = 1;
	}
	if (want_row && !n->id && idx->store) {
		n->id = ++idx->last_id;
		sk_index__store_push(idx, n, &raw);
		(*added)++;
	} else if (want_row && !n->id) {
		ret = sk_index__store_commit(idx, n, &raw);
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

/*
 * libgit2 settings for the walk: no caching of commits.  (Objects are
 * not hashed again on read in the whole program: stablekit.c.)
 */
static int walk_settings(int walking)
{
	if (git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT,
			     (size_t)(walking ? 0 : GIT_COMMIT_CACHE_LIMIT)))
		return sk_error_git(SK_ERROR, "libgit2 options");
	return 0;
}

/*
 * The members of a range walked whole, order[] newest first, the oldest
 * at position first: a sorted run, written at once.
 */
static int members_run(struct sk_index *idx, long long range, long long first,
		       struct node **order, size_t nr)
{
	struct sk_run_recs rs = { 0 };
	size_t j;
	int ret = 0;

	for (j = 0; j < nr && !ret; j++) {
		struct node *n = order[nr - 1 - j];

		if (!n->member)
			n->member = idx->g.walks;
		ret = sk_index__run_push(&rs, (uint64_t)n->id, n->id,
					 first + (long long)j);
	}
	if (!ret && nr) {
		sk_index__run_sort(&rs);
		ret = sk_index__run_write(idx, RUN_MEMBERS, range, &rs);
	}
	sk_index__run_recs_release(&rs);
	return ret;
}

/*
 * The commits a walk from the old tip added: a row each, oldest first, so
 * that positions grow along the table's key; in batches.
 */
static int insert_members(struct sk_index *idx, long long range,
			  long long first, struct node **order, size_t nr)
{
	sqlite3_stmt *many = NULL, *s;
	struct sk_strbuf sql = SK_STRBUF_INIT;
	size_t i, j, k;
	int ret = 0;

	sk_index__members_forget(idx);
	if (nr >= MEMBER_BATCH) {
		sk_strbuf_adds(&sql, "INSERT OR IGNORE INTO range_commits"
			       " (range_id, commit_id, pos) VALUES");
		for (k = 0; k < MEMBER_BATCH; k++)
			sk_strbuf_adds(&sql, k ? ", (?, ?, ?)" : " (?, ?, ?)");
		if (sqlite3_prepare_v2(idx->db, sql.buf, -1, &many,
				       NULL) != SQLITE_OK)
			ret = sk_index__db_error(idx, "range members");
		sk_strbuf_release(&sql);
	}
	for (j = 0; j < nr && !ret; j++) {
		int batch = nr - j + j % MEMBER_BATCH >= MEMBER_BATCH;

		i = nr - 1 - j;
		k = batch ? j % MEMBER_BATCH : 0;
		s = batch ? many : sk_index__stmt(idx, ST_INSERT_MEMBER);
		if (!order[i]->member)
			order[i]->member = idx->g.walks;
		sqlite3_bind_int64(s, 3 * k + 1, range);
		sqlite3_bind_int64(s, 3 * k + 2, order[i]->id);
		sqlite3_bind_int64(s, 3 * k + 3, first + (long long)j);
		if (!batch || k == MEMBER_BATCH - 1) {
			ret = sk_index__step_done(idx, s, "range member");
			sqlite3_reset(s);
		}
	}
	sqlite3_finalize(many);
	return ret;
}

/*
 * Is base an ancestor of tip?  Then it is tip, or a parent of a commit of
 * the range (the commit on the path from tip just before it): a walk
 * whole tells without another walk.  A walk from an old tip that tip
 * descends from keeps the answer of the first.
 */
static int base_reached(struct node **order, size_t nr, const git_oid *tip,
			const git_oid *base)
{
	size_t i;
	unsigned int j;

	if (git_oid_equal(tip, base))
		return 1;
	for (i = 0; i < nr; i++)
		for (j = 0; j < order[i]->nr_parents; j++)
			if (git_oid_equal(&order[i]->parents[j]->oid, base))
				return 1;
	return 0;
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
	idx->g.packs = sk_index__packs_open(repo);
	ret = walk_settings(1);
	if (!ret && idx->bulk) {
		sk_index__packs_read_ahead(idx->g.packs);
		ret = sk_index__store_start(idx);
	}
	if (!ret)
		ret = walk(&order, &nr, idx, tip, base, old_tip, &added);
	sk_index__packs_stop_ahead(idx->g.packs);
	ret2 = sk_index__store_stop(idx);
	if (!ret)
		ret = ret2;
	ret2 = walk_settings(0);
	git_odb_free(idx->g.odb);
	idx->g.odb = NULL;
	sk_index__packs_close(idx->g.packs);
	idx->g.packs = NULL;
	if (!ret)
		ret = ret2;
	if (!ret && !old_tip && base && !base_reached(order, nr, tip, base))
		ret = sk_error_set(SK_EINVALID, "the base is not an ancestor "
				   "of the ref");
	if (!ret && old_tip)
		ret = insert_members(idx, range, *next_pos, order, nr);
	else if (!ret)
		ret = members_run(idx, range, *next_pos, order, nr);
	*next_pos += nr;
	st->walked += nr;
	st->parsed += added;
	free(order);
	return ret;
}

int sk_index_walk_commits(git_oid **out, size_t *nr, struct sk_index *idx,
			  git_repository *repo, const git_oid *tip,
			  const git_oid *base, sk_index_read_fn fn, void *ctx)
{
	struct node **order = NULL;
	unsigned long added = 0;
	size_t n = 0, i;
	int ret, ret2;

	*out = NULL;
	*nr = 0;
	if (git_repository_odb(&idx->g.odb, repo))
		return sk_error_git(SK_ERROR, "cannot read the repository");
	idx->g.packs = sk_index__packs_open(repo);
	ret = walk_settings(1);
	if (!ret)
		sk_index__packs_read_ahead(idx->g.packs);
	idx->no_rows = 1;
	idx->on_read = fn;
	idx->on_read_ctx = ctx;
	if (!ret)
		ret = walk(&order, &n, idx, tip, base, NULL, &added);
	idx->no_rows = 0;
	idx->on_read = NULL;
	idx->on_read_ctx = NULL;
	ret2 = walk_settings(0);
	if (!ret)
		ret = ret2;
	git_odb_free(idx->g.odb);
	idx->g.odb = NULL;
	sk_index__packs_close(idx->g.packs);
	idx->g.packs = NULL;
	if (!ret && base && !base_reached(order, n, tip, base))
		ret = sk_error_set(SK_EINVALID, "the base is not an ancestor "
				   "of the tip");
	if (!ret) {
		*out = sk_xcalloc(n ? n : 1, sizeof(git_oid));
		for (i = 0; i < n; i++)
			git_oid_cpy(&(*out)[i], &order[n - 1 - i]->oid);
		*nr = n;
	}
	free(order);
	return ret;
}

static int reach_index(struct graph *g, const struct node *d)
{
	unsigned int k;

	if (g->reach_walks != g->walks) {
		/* a walk since may have made new members */
		g->reach_walks = g->walks;
		reach_forget(g);
	}
	for (k = 0; k < g->nr_reach; k++)
		if (g->reach_from[k] == d)
			return (int)k;
	return -1;
}

static int reached(const struct graph *g, const struct node *n,
		   unsigned int k)
{
	return n->reach_epoch == g->reach_epoch && (n->reach & (1u << k));
}

static void reach_set(struct graph *g, struct node *n, unsigned int k)
{
	if (n->reach_epoch != g->reach_epoch) {
		n->reach_epoch = g->reach_epoch;
		n->reach = 0;
	}
	n->reach |= 1u << k;
}

/*
 * Marks every member reachable from d through members, d included, and
 * the parents outside the walked ranges where those paths leave them:
 * every other ancestor of d is an ancestor of one of those.
 */
static int reach_fill(struct graph *g, struct node *d)
{
	struct node **stack = NULL;
	size_t nr = 0, alloc = 0, edge_alloc = 0;
	unsigned int i, k = g->nr_reach++;

	g->reach_from[k] = d;
	reach_set(g, d, k);
	*SK_ARRAY_PUSH(stack, nr, alloc) = d;
	while (nr) {
		struct node *x = stack[--nr];

		for (i = 0; i < x->nr_parents; i++) {
			struct node *p = x->parents[i];

			if (reached(g, p, k))
				continue;
			reach_set(g, p, k);
			if (p->member)
				*SK_ARRAY_PUSH(stack, nr, alloc) = p;
			else
				*SK_ARRAY_PUSH(g->reach_edge[k],
					       g->nr_reach_edge[k],
					       edge_alloc) = p->oid;
		}
	}
	free(stack);
	return (int)k;
}

/* 1 if found, 0 if not, -1 if it gave up after limit commits. */
static int search(struct graph *g, struct node *a, struct node *d,
		  size_t limit)
{
	struct node **stack = NULL;
	size_t nr = 0, alloc = 0, visited = 0;
	unsigned int i;
	int yes = 0;

	g->marks++;
	d->mark = g->marks;
	*SK_ARRAY_PUSH(stack, nr, alloc) = d;
	while (nr && !yes) {
		struct node *x = stack[--nr];

		if (x == a) {
			yes = 1;
			break;
		}
		if (limit && ++visited > limit) {
			yes = -1;
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

/*
 * A search that visits more commits than this marks, for its commit,
 * every ancestor in the walked ranges, so that the next question about
 * the same descendant (every Fixes: target against one branch's base) is
 * a bit test: one long search per descendant, not one per question.
 */
#define REACH_AFTER 4096

/*
 * Is anc an ancestor of desc, from the graph read in this run.  When both
 * were found in one range walk, every commit between them is in that
 * range (a descendant of anc is not reachable from the range's base), so
 * a search through the commits of the walked ranges decides.  Otherwise
 * anc is an ancestor of desc if desc reaches it through the walked
 * ranges, or if it is an ancestor of a commit where those paths leave
 * them: that much the repository is asked, never the whole range again.
 */
int sk_index__graph_is_ancestor(struct graph *g, const git_oid *anc,
				const git_oid *desc, const git_oid **edge,
				size_t *nr_edge)
{
	struct node *a = node_get(g, anc, 0), *d = node_get(g, desc, 0);
	int k, yes;

	*edge = NULL;
	*nr_edge = 0;
	if (!d || !d->member)
		return -1;
	k = reach_index(g, d);
	if (a && a->member && a->member == d->member) {
		if (k >= 0)
			return reached(g, a, (unsigned int)k);
		if (g->nr_reach == GRAPH_REACH_MAX)
			return search(g, a, d, 0);
		yes = search(g, a, d, REACH_AFTER);
		if (yes >= 0)
			return yes;
		k = reach_fill(g, d);
		return reached(g, a, (unsigned int)k);
	}
	if (k < 0 && g->nr_reach == GRAPH_REACH_MAX)
		return -1;
	if (k < 0)
		k = reach_fill(g, d);
	if (a && reached(g, a, (unsigned int)k))
		return 1;
	*edge = g->reach_edge[k];
	*nr_edge = g->nr_reach_edge[k];
	return -2;
}

/*
 * Ranges are kept for RANGES_KEPT (name, base) pairs, the least recently
 * used dropped first: projects that share a repository with other bases
 * each keep theirs.
 */
static int drop_old_ranges(struct sk_index *idx)
{
	sqlite3_stmt *s = sk_index__stmt(idx, ST_OLD_RANGES);
	long long *ids = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	sqlite3_bind_int(s, 1, RANGES_KEPT);
	while (sqlite3_step(s) == SQLITE_ROW)
		*SK_ARRAY_PUSH(ids, nr, alloc) = sqlite3_column_int64(s, 0);
	for (i = 0; i < nr && !ret; i++) {
		sqlite3_stmt *d;

		s = sk_index__stmt(idx, ST_CLEAR_RANGE);
		sqlite3_bind_int64(s, 1, ids[i]);
		ret = sk_index__step_done(idx, s, "drop range");
		if (!ret)
			ret = sk_index__runs_drop(idx, ids[i]);
		if (ret)
			break;
		if (sqlite3_prepare_v2(idx->db, "DELETE FROM ranges WHERE id = ?1",
				       -1, &d, NULL) != SQLITE_OK) {
			ret = sk_index__db_error(idx, "drop range");
			break;
		}
		sqlite3_bind_int64(d, 1, ids[i]);
		ret = sk_index__step_done(idx, d, "drop range");
		sqlite3_finalize(d);
	}
	free(ids);
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
	s = sk_index__stmt(idx, ST_GET_RANGE);
	sk_index__bind_text(s, 1, name);
	if (sqlite3_step(s) == SQLITE_ROW) {
		*range_id = sqlite3_column_int64(s, 0);
		old_base = (const char *)sqlite3_column_text(s, 1);
		old_tip_hex = (const char *)sqlite3_column_text(s, 2);
		next_pos = sqlite3_column_int64(s, 3);
		if (old_base && !strcmp(old_base, base_hex) && old_tip_hex &&
		    !git_oid_fromstr(&old_tip, old_tip_hex))
			have_old = 1;
		s = sk_index__stmt(idx, ST_TOUCH_RANGE);
		sqlite3_bind_int64(s, 1, *range_id);
		ret = sk_index__step_done(idx, s, "use range");
		if (ret)
			return ret;
	} else {
		s = sk_index__stmt(idx, ST_INSERT_RANGE);
		sk_index__bind_text(s, 1, name);
		ret = sk_index__step_done(idx, s, "insert range");
		if (ret)
			return ret;
		*range_id = sqlite3_last_insert_rowid(idx->db);
		ret = drop_old_ranges(idx);
		if (ret)
			return ret;
	}
	if (have_old && git_oid_equal(&old_tip, tip))
		return 0;
	if (have_old && git_graph_descendant_of(repo, tip, &old_tip) != 1)
		have_old = 0;
	if (!have_old) {
		s = sk_index__stmt(idx, ST_CLEAR_RANGE);
		sqlite3_bind_int64(s, 1, *range_id);
		ret = sk_index__step_done(idx, s, "clear range");
		if (!ret)
			ret = sk_index__runs_drop(idx, *range_id);
		if (ret)
			return ret;
		next_pos = 1;
		st->rewalked = 1;
	}
	ret = walk_range(idx, repo, *range_id, &next_pos, tip, base,
			 have_old ? &old_tip : NULL, st);
	if (ret) {
		/* its members were dropped: no tip, so that it is walked again */
		s = sk_index__stmt(idx, ST_UPDATE_RANGE);
		sqlite3_bind_int64(s, 1, *range_id);
		sk_index__bind_text(s, 2, "");
		sk_index__bind_text(s, 3, "");
		sqlite3_bind_int64(s, 4, 1);
		sqlite3_step(s);
		return ret;
	}
	s = sk_index__stmt(idx, ST_UPDATE_RANGE);
	sqlite3_bind_int64(s, 1, *range_id);
	sk_index__bind_text(s, 2, base_hex);
	sk_index__bind_text(s, 3, tip_hex);
	sqlite3_bind_int64(s, 4, next_pos);
	return sk_index__step_done(idx, s, "update range");
}
