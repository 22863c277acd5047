#include "port/defs.h"
#include "port/apply.h"
#include "core/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* Sources a kernel build of x86_64 compiles, or that its code includes. */
static int wanted(const char *path)
{
	static const char *const skip[] = {
		"tools/", "scripts/", "Documentation/", "samples/", "usr/", NULL
	};
	size_t n = strlen(path), i;

	if (n < 3 || (strcmp(path + n - 2, ".c") && strcmp(path + n - 2, ".h")))
		return 0;
	for (i = 0; skip[i]; i++)
		if (has_prefix(path, skip[i]))
			return 0;
	return !has_prefix(path, "arch/") || has_prefix(path, "arch/x86/");
}

struct walk {
	git_repository *repo;
	char *const *under;
	size_t nr_under;
	sk_defs_file_cb cb;
	void *data;
	int ret;
};

/* Is path (a folder when dir) in or above one of the folders asked for? */
static int inside(const struct walk *w, const char *path, int dir)
{
	size_t i;

	if (!w->nr_under)
		return 1;
	for (i = 0; i < w->nr_under; i++)
		if (has_prefix(path, w->under[i]) ||
		    (dir && has_prefix(w->under[i], path)))
			return 1;
	return 0;
}

static int visit(const char *root, const git_tree_entry *e, void *data)
{
	struct walk *w = data;
	char *path;
	git_blob *blob = NULL;
	int skip;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		path = sk_xstrfmt("%s%s/", root, git_tree_entry_name(e));
		skip = (has_prefix(path, "arch/") && strcmp(path, "arch/") &&
			!has_prefix(path, "arch/x86/")) ||
		       !strcmp(path, "tools/") || !strcmp(path, "Documentation/") ||
		       !strcmp(path, "samples/") || !strcmp(path, "scripts/") ||
		       !inside(w, path, 1);
		free(path);
		return skip ? 1 : 0;
	}
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		return 0;
	path = sk_xstrfmt("%s%s", root, git_tree_entry_name(e));
	if (wanted(path) && inside(w, path, 0) && !git_blob_lookup(&blob, w->repo, git_tree_entry_id(e))) {
		w->ret = w->cb(path, git_blob_rawcontent(blob),
			       (size_t)git_blob_rawsize(blob), w->data);
		git_blob_free(blob);
	}
	free(path);
	return w->ret ? -1 : 0;
}

int sk_defs_walk(git_repository *repo, const git_oid *tree_id, char *const *under,
		 size_t nr_under, sk_defs_file_cb cb, void *data)
{
	struct walk w = { repo, under, nr_under, cb, data, 0 };
	git_tree *tree = NULL;
	int ret;

	if (git_tree_lookup(&tree, repo, tree_id))
		return sk_error_git(SK_ERROR, "the target tree");
	ret = git_tree_walk(tree, GIT_TREEWALK_PRE, visit, &w);
	git_tree_free(tree);
	if (w.ret)
		return w.ret;
	return ret < 0 && ret != GIT_EUSER ? sk_error_git(SK_ERROR, "the target tree") : 0;
}

int sk_defs_read(struct sk_strbuf *out, git_repository *repo, const git_oid *tree_id,
		 const char *path)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int ret = 0;

	sk_strbuf_reset(out);
	if (git_tree_lookup(&tree, repo, tree_id))
		return sk_error_git(SK_ERROR, "the target tree");
	if (git_tree_entry_bypath(&e, tree, path) ||
	    git_tree_entry_type(e) != GIT_OBJECT_BLOB)
		ret = sk_error_set(SK_ENOTFOUND, "'%s' is not in the tree", path);
	else if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)))
		ret = sk_error_git(SK_ERROR, path);
	else
		sk_strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	return ret;
}

static void add(struct sk_defs *d, const char *name, size_t n, const char *path,
		long line)
{
	struct sk_defs_entry *e = SK_ARRAY_PUSH(d->v, d->nr, d->alloc);

	e->name = sk_xstrndup(name, n);
	e->path = sk_xstrdup(path);
	e->line = line;
}

/* "#define NAME" and "# define NAME(": the macro's name. */
static size_t macro_name(const char *s, const char **name)
{
	size_t n = 0;

	if (*s++ != '#')
		return 0;
	s += strspn(s, " \t");
	if (strncmp(s, "define", 6) || (s[6] != ' ' && s[6] != '\t'))
		return 0;
	s += 6 + strspn(s + 6, " \t");
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	*name = s;
	return n;
}

static int index_file(const char *path, const char *text, size_t len, void *data)
{
	struct sk_defs *d = data;
	const char *s = text, *end = text + len;
	long line = 1;
	char buf[512];

	d->files++;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *name;
		size_t n;

		if (l && (isalpha((unsigned char)*s) || *s == '_' || *s == '#')) {
			if (l >= sizeof(buf))
				l = sizeof(buf) - 1;
			memcpy(buf, s, l);
			buf[l] = '\0';
			n = *buf == '#' ? macro_name(buf, &name) : sk_apply_def_name(buf, &name);
			if (n)
				add(d, name, n, path, line);
		}
		line++;
		s = nl ? nl + 1 : end;
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct sk_defs_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	c = strcmp(x->path, y->path);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

int sk_defs_index(struct sk_defs *out, git_repository *repo, const git_oid *tree,
		  char *const *under, size_t nr_under)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sk_defs_walk(repo, tree, under, nr_under, index_file, out);
	if (!ret)
		qsort(out->v, out->nr, sizeof(*out->v), by_name);
	return ret;
}

void sk_defs_release(struct sk_defs *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		free(d->v[i].name);
		free(d->v[i].path);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static int cmp_name(const char *name, size_t n, const char *e)
{
	int c = strncmp(name, e, n);

	return c ? c : e[n] ? -1 : 0;
}

size_t sk_defs_find(const struct sk_defs *d, const char *name, size_t n, size_t *first)
{
	size_t lo = 0, hi = d->nr, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_name(name, n, d->v[mid].name) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < d->nr && !cmp_name(name, n, d->v[k].name); k++)
		;
	*first = lo;
	return k - lo;
}

static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t *row = sk_xcalloc(lb + 1, sizeof(size_t)), i, j, d;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* The longest '_'-separated part of name (lruvec in lruvec_page_state). */
static void longest_part(const char *name, size_t n, const char **part, size_t *len)
{
	size_t i = 0;

	*part = name;
	*len = 0;
	while (i < n) {
		size_t j = i;

		while (j < n && name[j] != '_')
			j++;
		if (j - i > *len) {
			*part = name + i;
			*len = j - i;
		}
		i = j + 1;
	}
}

struct near {
	size_t idx, score;
};

static int by_score(const void *a, const void *b)
{
	const struct near *x = a, *y = b;

	return (x->score > y->score) - (x->score < y->score);
}

size_t sk_defs_nearest(const struct sk_defs *d, const char *name, size_t n,
		       size_t *out, size_t max)
{
	struct near *c = NULL;
	size_t nr = 0, alloc = 0, i, k, shown = 0;
	const char *part;
	size_t plen;

	longest_part(name, n, &part, &plen);
	for (i = 0; i < d->nr; i++) {
		size_t ln = strlen(d->v[i].name), e;
		int shares = plen >= 5 && memmem(d->v[i].name, ln, part, plen);

		if (i && !strcmp(d->v[i].name, d->v[i - 1].name))
			continue;
		if (!cmp_name(name, n, d->v[i].name))
			continue;
		if ((ln > n ? ln - n : n - ln) * 3 > n && !shares)
			continue;
		e = edit_distance(name, n, d->v[i].name, ln);
		if (e * 3 <= n || (shares && e * 3 <= 2 * n)) {
			struct near *x = SK_ARRAY_PUSH(c, nr, alloc);

			x->idx = i;
			x->score = e * 2 + (shares ? 0 : 1);
		}
	}
	/* qsort's array may not be NULL, even for no element */
	if (nr)
		qsort(c, nr, sizeof(*c), by_score);
	for (k = 0; k < nr && shown < max; k++)
		out[shown++] = c[k].idx;
	free(c);
	return shown;
}
