#include "port/preimage.h"
#include "port/apply.h"
#include "port/defs.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* How far from where the hunk has it a line may be found (lines). */
#define SLACK 10
/* A line this long says where by itself ("return -EBUSY;" does not). */
#define TELLING 20
/* Files of a folder searched for a file the branch lacks, at most. */
#define MAX_FILES 4000

struct span {
	const char *s;
	size_t n;
};

struct wanted {
	struct span *v;		/* trimmed distinctive preimage lines */
	long *pos;		/* each one's index in the preimage */
	size_t nr;
};

static struct span trim(const char *s)
{
	struct span t = { s, strlen(s) };

	while (t.n && isspace((unsigned char)*t.s)) {
		t.s++;
		t.n--;
	}
	while (t.n && isspace((unsigned char)t.s[t.n - 1]))
		t.n--;
	return t;
}

static int same(struct span a, struct span b)
{
	return a.n == b.n && !memcmp(a.s, b.s, a.n);
}

/* Not blank, not "}" or "*\/" or "return 0;": a line that says where. */
static int distinctive(struct span t)
{
	size_t i, alnum = 0;

	for (i = 0; i < t.n; i++)
		alnum += isalnum((unsigned char)t.s[i]) != 0;
	return t.n >= 8 && alnum >= 5;
}

static void wanted_of(struct wanted *w, const struct sk_diff_hunk *h)
{
	size_t i;
	long pos = 0;

	w->v = sk_xcalloc(h->nr_lines + 1, sizeof(*w->v));
	w->pos = sk_xcalloc(h->nr_lines + 1, sizeof(*w->pos));
	w->nr = 0;
	for (i = 0; i < h->nr_lines; i++) {
		struct span t;

		if (h->lines[i].origin == '+')
			continue;
		t = trim(h->lines[i].text);
		if (distinctive(t)) {
			w->v[w->nr] = t;
			w->pos[w->nr++] = pos;
		}
		pos++;
	}
}

static void wanted_release(struct wanted *w)
{
	free(w->v);
	free(w->pos);
}

struct text {
	const char *const *v;	/* the lines, the caller's or lines */
	struct span *t;		/* each trimmed */
	size_t nr;
	char *buf;		/* a copy the lines were cut from, or NULL */
	char **lines;
};

/* Trim each of the lines v (x borrows them). */
static void text_of_lines(struct text *x, const char *const *v, size_t nr)
{
	size_t i;

	x->nr = nr;
	x->t = sk_xcalloc(nr + 1, sizeof(*x->t));
	for (i = 0; i < nr; i++)
		x->t[i] = trim(v[i]);
}

/* The lines of len bytes of text, cut in a copy of their own. */
static void text_of(struct text *x, const char *text, size_t len)
{
	char *p;
	size_t alloc = 0, nr = 0;

	memset(x, 0, sizeof(*x));
	x->buf = sk_xstrndup(text, len);
	for (p = x->buf; *p;) {
		char *nl = strchr(p, '\n');

		*SK_ARRAY_PUSH(x->lines, nr, alloc) = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	text_of_lines(x, (const char *const *)x->lines, nr);
	x->v = (const char *const *)x->lines;
}

static void text_release(struct text *x)
{
	free(x->buf);
	free(x->lines);
	free(x->t);
}

/*
 * The distinctive lines found near where a hunk starting at s has them;
 * 0 unless one of them is a telling one.
 */
static size_t score(const struct text *x, const struct wanted *w, long s)
{
	size_t k, n = 0;
	int telling = 0;

	for (k = 0; k < w->nr; k++) {
		long at = s + w->pos[k], j;
		long lo = at - SLACK > 0 ? at - SLACK : 0;
		long hi = at + SLACK < (long)x->nr ? at + SLACK : (long)x->nr - 1;

		for (j = lo; j <= hi; j++)
			if (same(x->t[j], w->v[k])) {
				n++;
				telling |= w->v[k].n >= TELLING;
				break;
			}
	}
	return telling ? n : 0;
}

/* The column-0 definition enclosing line i (0-based), or -1. */
static long enclosing_def(const struct text *x, size_t i, const char **name,
			  size_t *len)
{
	size_t j = i + 1;

	while (j-- > 0) {
		const char *s = x->v[j];

		if (s[0] == '}' && j != i)
			return -1;
		*len = sk_apply_def_name(s, name);
		if (*len)
			return (long)j;
	}
	return -1;
}

static int found_enough(size_t matched, size_t distinctive)
{
	return matched >= 2 && matched * 4 >= distinctive;
}

/* Best place in x: its score, and *start (0-based, first line found). */
static size_t best_in(const struct text *x, const struct wanted *w,
		      long *start)
{
	size_t i, k, best = 0;

	for (i = 0; i < x->nr; i++)
		for (k = 0; k < w->nr; k++) {
			size_t n;

			if (!same(x->t[i], w->v[k]))
				continue;
			n = score(x, w, (long)i - w->pos[k]);
			if (n > best) {
				best = n;
				*start = (long)i;
			}
			break;
		}
	return best;
}

static void fill(struct sk_preimage_place *out, const struct text *x,
		 const char *path, long start, size_t matched, size_t nr)
{
	const char *name;
	size_t len = 0;
	long d = enclosing_def(x, (size_t)start, &name, &len);

	memset(out, 0, sizeof(*out));
	out->path = sk_xstrdup(path);
	out->line = start + 1;
	out->matched = matched;
	out->distinctive = nr;
	if (d >= 0) {
		out->def = sk_xstrndup(name, len);
		out->def_line = d + 1;
	}
}

static int find_in(struct sk_preimage_place *out, const char *path,
		   const struct text *x, const struct sk_diff_hunk *h)
{
	struct wanted w;
	long start = 0;
	size_t best;

	memset(out, 0, sizeof(*out));
	wanted_of(&w, h);
	best = best_in(x, &w, &start);
	if (found_enough(best, w.nr))
		fill(out, x, path, start, best, w.nr);
	wanted_release(&w);
	return out->path != NULL;
}

int sk_preimage_find_lines(struct sk_preimage_place *out, const char *path,
			   const char *const *v, size_t nr,
			   const struct sk_diff_hunk *h)
{
	struct text x = { 0 };
	int ret;

	x.v = v;
	text_of_lines(&x, v, nr);
	ret = find_in(out, path, &x, h);
	text_release(&x);
	return ret;
}

static int find_in_text(struct sk_preimage_place *out, const char *path,
			const char *text, size_t len,
			const struct sk_diff_hunk *h)
{
	struct text x;
	int ret;

	text_of(&x, text, len);
	ret = find_in(out, path, &x, h);
	text_release(&x);
	return ret;
}

int sk_preimage_find_text(struct sk_preimage_place *out, const char *path,
			  const char *text, const struct sk_diff_hunk *h)
{
	return find_in_text(out, path, text, strlen(text), h);
}

/* Keep the better of *best and p (more lines found; then the first path). */
static void keep_better(struct sk_preimage_place *best,
			struct sk_preimage_place *p)
{
	if (!best->path || p->matched > best->matched ||
	    (p->matched == best->matched && strcmp(p->path, best->path) < 0)) {
		sk_preimage_place_release(best);
		*best = *p;
	} else {
		sk_preimage_place_release(p);
	}
}

static int is_regular(const char *full)
{
	struct stat st;

	return !lstat(full, &st) && S_ISREG(st.st_mode);
}

/* The best place among the files of path's folder with its extension. */
static int find_beside(struct sk_preimage_place *out, const char *dir,
		       const char *path, const struct sk_diff_hunk *h)
{
	const char *slash = strrchr(path, '/'), *ext = strrchr(path, '.');
	char *folder = slash ? sk_xstrndup(path, (size_t)(slash - path)) :
		sk_xstrdup("");
	char *full = sk_path_join(dir, folder);
	DIR *d = opendir(full);
	struct dirent *e;
	size_t files = 0;

	memset(out, 0, sizeof(*out));
	while (d && (e = readdir(d)) && files < MAX_FILES) {
		const char *dot = strrchr(e->d_name, '.');
		char *rel, *abs;
		struct sk_strbuf sb = SK_STRBUF_INIT;
		struct sk_preimage_place p;

		if (e->d_name[0] == '.' || !dot || !ext || strcmp(dot, ext))
			continue;
		rel = *folder ? sk_xstrfmt("%s/%s", folder, e->d_name) :
			sk_xstrdup(e->d_name);
		abs = sk_path_join(dir, rel);
		files++;
		if (is_regular(abs) && !sk_read_file(&sb, abs) &&
		    find_in_text(&p, rel, sb.buf, sb.len, h))
			keep_better(out, &p);
		sk_error_clear();
		sk_strbuf_release(&sb);
		free(abs);
		free(rel);
	}
	if (d)
		closedir(d);
	free(full);
	free(folder);
	return out->path != NULL;
}

int sk_preimage_find(struct sk_preimage_place *out, const char *dir,
		     const char *path, const struct sk_diff_hunk *h)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *full = sk_path_join(dir, path);
	int ret;

	memset(out, 0, sizeof(*out));
	if (is_regular(full) && !sk_read_file(&sb, full))
		ret = find_in_text(out, path, sb.buf, sb.len, h);
	else
		ret = find_beside(out, dir, path, h);
	sk_error_clear();
	sk_strbuf_release(&sb);
	free(full);
	return ret;
}

struct tree_search {
	struct sk_preimage_place *best;
	const char *ext;
	const struct sk_diff_hunk *h;
};

static int search_file(const char *path, const char *text, size_t len,
		       void *data)
{
	struct tree_search *ts = data;
	const char *dot = strrchr(path, '.');
	struct sk_preimage_place p;

	if (dot && ts->ext && !strcmp(dot, ts->ext) &&
	    find_in_text(&p, path, text, len, ts->h))
		keep_better(ts->best, &p);
	return 0;
}

int sk_preimage_find_tree(struct sk_preimage_place *out, git_repository *repo,
			  const git_oid *tree, const char *path,
			  const struct sk_diff_hunk *h)
{
	const char *slash = strrchr(path, '/');
	char *folder = sk_xstrndup(path, slash ? (size_t)(slash - path) + 1 : 0);
	struct tree_search ts = { out, strrchr(path, '.'), h };
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sk_defs_walk(repo, tree, &folder, *folder ? 1 : 0, search_file, &ts);
	free(folder);
	if (ret < 0) {
		sk_preimage_place_release(out);
		return ret;
	}
	return out->path != NULL;
}

long sk_preimage_def_line(const char *const *v, size_t nr, const char *name,
			  size_t n)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const char *d;

		if (sk_apply_def_name(v[i], &d) == n && !strncmp(d, name, n))
			return (long)i;
	}
	return -1;
}

int sk_preimage_defines(const char *dir, const char *path, const char *name)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *full = sk_path_join(dir, path);
	struct text x;
	int found = 0;

	if (is_regular(full) && !sk_read_file(&sb, full)) {
		text_of(&x, sb.buf, sb.len);
		found = sk_preimage_def_line(x.v, x.nr, name, strlen(name)) >= 0;
		text_release(&x);
	}
	sk_error_clear();
	sk_strbuf_release(&sb);
	free(full);
	return found;
}

void sk_preimage_place_release(struct sk_preimage_place *p)
{
	if (!p)
		return;
	free(p->path);
	free(p->def);
	memset(p, 0, sizeof(*p));
}
