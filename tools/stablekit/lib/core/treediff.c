#include "core/treediff.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

struct walk {
	git_repository *repo;
	git_odb *odb;
	struct sk_tree_changes *out;
	size_t max;
	struct sk_strbuf path;
	int full;		/* max reached */
};

/*
 * An entry of a raw tree object, read in place: "<mode> <name>\0<id>".
 * Trees are compared from their raw objects, not parsed into git_tree
 * objects: most of the entries of a large folder are only stepped over.
 */
struct entry {
	const char *name;
	size_t len;
	uint32_t mode;
	const unsigned char *id;
};

struct raw_tree {
	git_odb_object *obj;
	const char *p, *end;
};

static int tree_open(struct raw_tree *t, struct walk *w, const git_oid *id)
{
	memset(t, 0, sizeof(*t));
	if (!id)
		return 0;
	if (git_odb_read(&t->obj, w->odb, id) ||
	    git_odb_object_type(t->obj) != GIT_OBJECT_TREE)
		return sk_error_git(SK_ERROR, "a tree of the commit");
	t->p = git_odb_object_data(t->obj);
	t->end = t->p + git_odb_object_size(t->obj);
	return 0;
}

/* The next entry: 1, 0 at the end, or an error for a tree not well-formed. */
static int tree_next(struct raw_tree *t, struct entry *e)
{
	const char *sp, *nul;
	uint32_t mode = 0;

	if (!t->p || t->p >= t->end)
		return 0;
	sp = memchr(t->p, ' ', (size_t)(t->end - t->p));
	nul = sp ? memchr(sp, '\0', (size_t)(t->end - sp)) : NULL;
	if (!sp || !nul || t->end - nul < 1 + GIT_OID_RAWSZ || sp == t->p)
		return sk_error_set(SK_ERROR, "a tree object is not well-formed");
	for (; t->p < sp; t->p++) {
		if (*t->p < '0' || *t->p > '7')
			return sk_error_set(SK_ERROR, "a tree object is not well-formed");
		mode = mode << 3 | (uint32_t)(*t->p - '0');
	}
	e->mode = mode;
	e->name = sp + 1;
	e->len = (size_t)(nul - e->name);
	e->id = (const unsigned char *)nul + 1;
	t->p = nul + 1 + GIT_OID_RAWSZ;
	return 1;
}

static void tree_close(struct raw_tree *t)
{
	git_odb_object_free(t->obj);
}

static int is_tree(const struct entry *e)
{
	return (e->mode & 0170000) == 0040000;
}

/* git's order of tree entries: a tree's name compares as if it ended in '/'. */
static int entry_cmp(const struct entry *a, const struct entry *b)
{
	size_t len = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, len);
	unsigned char cx, cy;

	if (c)
		return c;
	cx = len < a->len ? (unsigned char)a->name[len] : is_tree(a) ? '/' : '\0';
	cy = len < b->len ? (unsigned char)b->name[len] : is_tree(b) ? '/' : '\0';
	return cx < cy ? -1 : cx > cy;
}

/* A file that differs: x the old side's entry, y the new side's, or NULL. */
static void add_change(struct walk *w, const struct entry *x, const struct entry *y)
{
	const struct entry *e = x ? x : y;
	struct sk_tree_change *c;
	size_t keep = w->path.len;

	if (w->max && w->out->nr >= w->max) {
		w->full = 1;
		return;
	}
	c = SK_ARRAY_PUSH(w->out->items, w->out->nr, w->out->alloc);
	memset(c, 0, sizeof(*c));
	sk_strbuf_add(&w->path, e->name, e->len);
	c->path = sk_xstrdup(w->path.buf);
	sk_strbuf_setlen(&w->path, keep);
	if (x) {
		git_oid_fromraw(&c->old_id, x->id);
		c->old_mode = x->mode;
	}
	if (y) {
		git_oid_fromraw(&c->new_id, y->id);
		c->new_mode = y->mode;
	}
}

static int compare(struct walk *w, const git_oid *a, const git_oid *b);

/* Into the subtree(s) an entry names: one side may be NULL. */
static int descend(struct walk *w, const struct entry *x, const struct entry *y)
{
	const struct entry *e = x ? x : y;
	git_oid ia, ib;
	size_t keep = w->path.len;
	int ret;

	if (x)
		git_oid_fromraw(&ia, x->id);
	if (y)
		git_oid_fromraw(&ib, y->id);
	sk_strbuf_add(&w->path, e->name, e->len);
	sk_strbuf_addch(&w->path, '/');
	ret = compare(w, x ? &ia : NULL, y ? &ib : NULL);
	sk_strbuf_setlen(&w->path, keep);
	return ret;
}

/* An entry only one side has: the file, or every file under it. */
static int one_side(struct walk *w, const struct entry *e, int old)
{
	if (!is_tree(e)) {
		add_change(w, old ? e : NULL, old ? NULL : e);
		return 0;
	}
	return old ? descend(w, e, NULL) : descend(w, NULL, e);
}

static int compare(struct walk *w, const git_oid *a, const git_oid *b)
{
	struct raw_tree ta, tb;
	struct entry x, y;
	int ret = tree_open(&ta, w, a), hx, hy;

	if (!ret)
		ret = tree_open(&tb, w, b);
	else
		memset(&tb, 0, sizeof(tb));
	hx = ret ? 0 : tree_next(&ta, &x);
	hy = ret ? 0 : tree_next(&tb, &y);
	while (!ret && !w->full && (hx > 0 || hy > 0)) {
		int c = hx <= 0 ? 1 : hy <= 0 ? -1 : entry_cmp(&x, &y);

		if (c < 0) {
			ret = one_side(w, &x, 1);
			hx = tree_next(&ta, &x);
		} else if (c > 0) {
			ret = one_side(w, &y, 0);
			hy = tree_next(&tb, &y);
		} else {
			if (memcmp(x.id, y.id, GIT_OID_RAWSZ) || x.mode != y.mode)
				ret = is_tree(&x) ? descend(w, &x, &y) :
				      (add_change(w, &x, &y), 0);
			hx = tree_next(&ta, &x);
			hy = tree_next(&tb, &y);
		}
		if (!ret && (hx < 0 || hy < 0))
			ret = hx < 0 ? hx : hy;
	}
	if (!ret && (hx < 0 || hy < 0))
		ret = hx < 0 ? hx : hy;
	tree_close(&ta);
	tree_close(&tb);
	return ret;
}

int sk_tree_changes(struct sk_tree_changes *out, git_repository *repo,
		    const git_tree *old, const git_tree *new, size_t max)
{
	return sk_tree_changes_by_id(out, repo, old ? git_tree_id(old) : NULL,
				     new ? git_tree_id(new) : NULL, max);
}

int sk_tree_changes_by_id(struct sk_tree_changes *out, git_repository *repo,
			  const git_oid *old, const git_oid *new, size_t max)
{
	struct walk w = { repo, NULL, out, max, SK_STRBUF_INIT, 0 };
	int ret;

	if (git_repository_odb(&w.odb, repo))
		return sk_error_git(SK_ERROR, "the object database");
	ret = compare(&w, old, new);
	git_odb_free(w.odb);
	sk_strbuf_release(&w.path);
	if (ret)
		return ret;
	return w.full;
}

void sk_tree_changes_release(struct sk_tree_changes *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		free(c->items[i].path);
	free(c->items);
	memset(c, 0, sizeof(*c));
}

int sk_tree_diff(git_diff **out, git_repository *repo, const git_tree *old,
		 const git_tree *new, const git_diff_options *o)
{
	struct sk_tree_changes c = { 0 };
	git_diff_options opts;
	char **paths = NULL;
	size_t i;
	int ret = sk_tree_changes(&c, repo, old, new, TREE_DIFF_PATHS);

	*out = NULL;
	if (ret < 0) {
		sk_tree_changes_release(&c);
		return ret;
	}
	if (!ret && !c.nr) {
		/* nothing differs: libgit2 would read both trees whole to say so */
		sk_tree_changes_release(&c);
		return git_diff_from_buffer(out, "", 0) ?
		       sk_error_git(SK_ERROR, "diff") : 0;
	}
	if (o)
		opts = *o;
	else
		git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (!ret) {
		paths = sk_xcalloc(c.nr + 1, sizeof(char *));
		for (i = 0; i < c.nr; i++)
			paths[i] = c.items[i].path;
		opts.pathspec.strings = paths;
		opts.pathspec.count = c.nr;
		opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	}
	ret = git_diff_tree_to_tree(out, repo, (git_tree *)old, (git_tree *)new,
				    &opts) ? sk_error_git(SK_ERROR, "diff") : 0;
	free(paths);
	sk_tree_changes_release(&c);
	return ret;
}
