#include "core/treediff.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

struct walk {
	git_repository *repo;
	struct sk_tree_changes *out;
	size_t max;
	struct sk_strbuf path;
	int full;		/* max reached */
};

static int is_tree(const git_tree_entry *e)
{
	return git_tree_entry_type(e) == GIT_OBJECT_TREE;
}

/* git's order of tree entries: a tree's name compares as if it ended in '/'. */
static int entry_cmp(const git_tree_entry *a, const git_tree_entry *b)
{
	const char *x = git_tree_entry_name(a), *y = git_tree_entry_name(b);
	size_t lx = strlen(x), ly = strlen(y), len = lx < ly ? lx : ly;
	int c = memcmp(x, y, len);
	unsigned char cx, cy;

	if (c)
		return c;
	cx = len < lx ? (unsigned char)x[len] : is_tree(a) ? '/' : '\0';
	cy = len < ly ? (unsigned char)y[len] : is_tree(b) ? '/' : '\0';
	return cx < cy ? -1 : cx > cy;
}

/* A file that differs: x the old side's entry, y the new side's, or NULL. */
static void add_change(struct walk *w, const git_tree_entry *x,
		       const git_tree_entry *y)
{
	struct sk_tree_change *c;
	size_t keep = w->path.len;

	if (w->max && w->out->nr >= w->max) {
		w->full = 1;
		return;
	}
	c = SK_ARRAY_PUSH(w->out->items, w->out->nr, w->out->alloc);
	memset(c, 0, sizeof(*c));
	sk_strbuf_adds(&w->path, git_tree_entry_name(x ? x : y));
	c->path = sk_xstrdup(w->path.buf);
	sk_strbuf_setlen(&w->path, keep);
	if (x) {
		git_oid_cpy(&c->old_id, git_tree_entry_id(x));
		c->old_mode = git_tree_entry_filemode(x);
	}
	if (y) {
		git_oid_cpy(&c->new_id, git_tree_entry_id(y));
		c->new_mode = git_tree_entry_filemode(y);
	}
}

static int compare(struct walk *w, const git_tree *a, const git_tree *b);

/* Into the subtree(s) an entry names: one side may be NULL. */
static int descend(struct walk *w, const git_tree_entry *x,
		   const git_tree_entry *y)
{
	const git_tree_entry *e = x ? x : y;
	git_tree *ta = NULL, *tb = NULL;
	size_t keep = w->path.len;
	int ret = 0;

	if ((x && git_tree_lookup(&ta, w->repo, git_tree_entry_id(x))) ||
	    (y && git_tree_lookup(&tb, w->repo, git_tree_entry_id(y))))
		ret = sk_error_git(SK_ERROR, git_tree_entry_name(e));
	if (!ret) {
		sk_strbuf_adds(&w->path, git_tree_entry_name(e));
		sk_strbuf_addch(&w->path, '/');
		ret = compare(w, ta, tb);
		sk_strbuf_setlen(&w->path, keep);
	}
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

/* An entry only one side has: the file, or every file under it. */
static int one_side(struct walk *w, const git_tree_entry *e, int old)
{
	if (!is_tree(e)) {
		add_change(w, old ? e : NULL, old ? NULL : e);
		return 0;
	}
	return old ? descend(w, e, NULL) : descend(w, NULL, e);
}

static int compare(struct walk *w, const git_tree *a, const git_tree *b)
{
	size_t i = 0, j = 0, na = a ? git_tree_entrycount(a) : 0;
	size_t nb = b ? git_tree_entrycount(b) : 0;
	int ret = 0;

	while (!ret && !w->full && (i < na || j < nb)) {
		const git_tree_entry *x = i < na ? git_tree_entry_byindex(a, i) : NULL;
		const git_tree_entry *y = j < nb ? git_tree_entry_byindex(b, j) : NULL;
		int c = !x ? 1 : !y ? -1 : entry_cmp(x, y);

		if (c < 0) {
			ret = one_side(w, x, 1);
			i++;
			continue;
		}
		if (c > 0) {
			ret = one_side(w, y, 0);
			j++;
			continue;
		}
		i++;
		j++;
		if (git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y)) &&
		    git_tree_entry_filemode(x) == git_tree_entry_filemode(y))
			continue;
		if (is_tree(x))
			ret = descend(w, x, y);
		else
			add_change(w, x, y);
	}
	return ret;
}

int sk_tree_changes(struct sk_tree_changes *out, git_repository *repo,
		    const git_tree *old, const git_tree *new, size_t max)
{
	struct walk w = { repo, out, max, SK_STRBUF_INIT, 0 };
	int ret = compare(&w, old, new);

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
