#include "track/content.h"
#include "project/branches.h"
#include "track/track-lines.h"
#include "track/commitfacts.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/interdiff.h"
#include "mail/series.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * Most of the added lines in place, but not every hunk: "another
 * revision" from this share (%) on; below it the patch is partial.
 */
#define REVISION_SHARE 60
/* ... or this share, with two hunks or more in place and none old */
#define REVISION_HUNKS_SHARE 25
/*
 * Added lines shorter than this (trimmed: "}", "break;", "return 0;")
 * are everywhere: they are not counted for or against another revision.
 */
#define SIGNIFICANT 10

static const char *const verdict_names[] = {
	[SK_CONTENT_NONE] = "nothing to compare",
	[SK_CONTENT_LANDED] = "landed by content",
	[SK_CONTENT_LINES] = "landed by content (added lines)",
	[SK_CONTENT_REVISION] = "landed as a later revision",
	[SK_CONTENT_PREIMAGE] = "not landed (pre-image present)",
	[SK_CONTENT_PARTIAL] = "partial",
	[SK_CONTENT_COINCIDENCE] = "not landed (post-image by coincidence)",
	[SK_CONTENT_NEITHER] = "neither image present",
};

static const char *const hunk_names[] = {
	[SK_HUNK_POST] = "post-image",
	[SK_HUNK_ADDED] = "added lines, other context",
	[SK_HUNK_PRE] = "pre-image",
	[SK_HUNK_NEITHER] = "neither",
	[SK_HUNK_NOFILE] = "no such file",
};

const char *sk_content_verdict_name(enum sk_content_verdict v)
{
	return verdict_names[v];
}

const char *sk_hunk_state_name(enum sk_hunk_state s)
{
	return hunk_names[s];
}

int sk_content_landed(enum sk_content_verdict v)
{
	return v == SK_CONTENT_LANDED || v == SK_CONTENT_LINES ||
	       v == SK_CONTENT_REVISION;
}

/* ---- files as lines; every line string lives in the pool ---- */

struct pool {
	char **items;
	size_t nr, alloc;
};

struct cfile {
	char *path;
	int absent;
	const char **lines;
	size_t nr;
};

struct state {
	struct cfile *files;
	size_t nr, alloc;
};

struct ctx {
	git_repository *repo;
	git_tree *tree;
	struct pool pool;
	struct state base;	/* the tree's files, as read */
};

static const char *pool_add(struct pool *p, const char *s, size_t len)
{
	char *d = sk_xstrndup(s, len);

	*SK_ARRAY_PUSH(p->items, p->nr, p->alloc) = d;
	return d;
}

static void split_lines(struct ctx *c, struct cfile *f, const char *buf,
			size_t len)
{
	size_t alloc = 0;
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		*SK_ARRAY_PUSH(f->lines, f->nr, alloc) = pool_add(&c->pool, p, n);
		p += n + (nl != NULL);
	}
}

static struct cfile *state_find(struct state *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->files[i].path, path))
			return &s->files[i];
	return NULL;
}

/* The tree's version of path, read once. */
static const struct cfile *base_file(struct ctx *c, const char *path)
{
	struct cfile *f = state_find(&c->base, path);
	git_tree_entry *e = NULL;
	git_blob *b = NULL;

	if (f)
		return f;
	f = SK_ARRAY_PUSH(c->base.files, c->base.nr, c->base.alloc);
	memset(f, 0, sizeof(*f));
	f->path = sk_xstrdup(path);
	if (git_tree_entry_bypath(&e, c->tree, path) ||
	    git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    git_blob_lookup(&b, c->repo, git_tree_entry_id(e))) {
		f->absent = 1;
	} else {
		split_lines(c, f, git_blob_rawcontent(b),
			    (size_t)git_blob_rawsize(b));
	}
	git_blob_free(b);
	git_tree_entry_free(e);
	return f;
}

/* path in s, else the tree's */
static const struct cfile *file_in(struct ctx *c, struct state *s,
				   const char *path)
{
	struct cfile *f = state_find(s, path);

	return f ? f : base_file(c, path);
}

static void state_put(struct state *s, const char *path, int absent,
		      const char **lines, size_t nr)
{
	struct cfile *f = state_find(s, path);

	if (!f) {
		f = SK_ARRAY_PUSH(s->files, s->nr, s->alloc);
		memset(f, 0, sizeof(*f));
		f->path = sk_xstrdup(path);
	}
	free(f->lines);
	f->lines = lines;
	f->nr = nr;
	f->absent = absent;
}

static void state_copy(struct state *dst, const struct state *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++) {
		const char **l = sk_xcalloc(src->files[i].nr + 1, sizeof(*l));

		if (src->files[i].nr)
			memcpy(l, src->files[i].lines,
			       src->files[i].nr * sizeof(*l));
		state_put(dst, src->files[i].path, src->files[i].absent, l,
			  src->files[i].nr);
	}
}

static void state_release(struct state *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->files[i].path);
		free(s->files[i].lines);
	}
	free(s->files);
	memset(s, 0, sizeof(*s));
}

/* ---- hunks ---- */

/* The lines of one side of h: the pre-image (side 0) or the post-image. */
static size_t side_lines(const char ***out, const struct sk_diff_hunk *h,
			 int post)
{
	size_t i, n = 0;

	*out = sk_xcalloc(h->nr_lines + 1, sizeof(**out));
	for (i = 0; i < h->nr_lines; i++) {
		char o = h->lines[i].origin;

		if (o == ' ' || o == (post ? '+' : '-'))
			(*out)[n++] = h->lines[i].text;
	}
	return n;
}

static int match_at(const struct cfile *f, size_t pos, const char **l,
		    size_t m)
{
	size_t i;

	if (pos + m > f->nr)
		return 0;
	for (i = 0; i < m; i++)
		if (strcmp(f->lines[pos + i], l[i]))
			return 0;
	return 1;
}

/* The place of l[0..m) in f at or after from, nearest want; -1: none. */
static long find_block(const struct cfile *f, const char **l, size_t m,
		       size_t from, long want)
{
	long best = -1, d, bd = 0;
	size_t pos;

	if (!m)
		return want >= (long)from && want <= (long)f->nr ? want :
		       (long)from;
	for (pos = from; pos + m <= f->nr; pos++) {
		if (strcmp(f->lines[pos], l[0]) || !match_at(f, pos, l, m))
			continue;
		d = (long)pos - want;
		if (d < 0)
			d = -d;
		if (best < 0 || d < bd) {
			best = (long)pos;
			bd = d;
		}
	}
	return best;
}

/* Where the side of h is in f (0-based), searching from from; -1: none. */
static long find_side(const struct cfile *f, const struct sk_diff_hunk *h,
		      int post, size_t from, long shift)
{
	const char **l;
	size_t m = side_lines(&l, h, post);
	long start = (post ? h->new_start : h->old_start) - 1 + shift, at;

	if (start < 0)
		start = 0;
	at = find_block(f, l, m, from, start);
	free(l);
	return at;
}

/*
 * Apply one file's diff to the state, forward or in reverse: 0, or -1
 * when a hunk's lines are not in place (the state is unchanged then).
 */
static int apply_file(struct ctx *c, struct state *s,
		      const struct sk_diff_file *df, int reverse)
{
	const char *path = df->new_path ? df->new_path : df->old_path;
	const struct cfile *f = file_in(c, s, path);
	int creates = reverse ? !!(df->flags & SK_DIFF_DELETED) :
		      !!(df->flags & SK_DIFF_NEW);
	int deletes = reverse ? !!(df->flags & SK_DIFF_NEW) :
		      !!(df->flags & SK_DIFF_DELETED);
	const char **cur;
	size_t nr, k, from = 0;
	long shift = 0;

	if (df->flags & SK_DIFF_BINARY)
		return -1;
	if (creates != !!f->absent)
		return -1;
	nr = f->nr;
	cur = sk_xcalloc(nr + 1, sizeof(*cur));
	if (nr)	/* an absent file has no lines array */
		memcpy(cur, f->lines, nr * sizeof(*cur));
	for (k = 0; k < df->nr_hunks; k++) {
		const struct sk_diff_hunk *h = &df->hunks[k];
		struct cfile tmp = { .lines = cur, .nr = nr };
		const char **to;
		size_t m_from, m_to;
		long at = find_side(&tmp, h, reverse, from, shift);

		if (at < 0) {
			free(cur);
			return -1;
		}
		{
			const char **fl;

			m_from = side_lines(&fl, h, reverse);
			free(fl);
		}
		m_to = side_lines(&to, h, !reverse);
		shift = at - ((reverse ? h->new_start : h->old_start) - 1);
		/* grown before the move, never shrunk under it */
		if (m_to > m_from)
			cur = sk_xrealloc(cur, (nr - m_from + m_to + 1) *
					  sizeof(*cur));
		memmove(cur + at + m_to, cur + at + m_from,
			(nr - (size_t)at - m_from) * sizeof(*cur));
		if (m_to)
			memcpy(cur + at, to, m_to * sizeof(*cur));
		nr = nr - m_from + m_to;
		from = (size_t)at + m_to;
		free(to);
	}
	if (deletes && nr) {
		free(cur);
		return -1;
	}
	state_put(s, path, deletes, cur, nr);
	return 0;
}

/* Apply the diffs of a step, in order (in reverse: backwards). */
static int apply_step(struct ctx *c, struct state *s,
		      const struct sk_diff *d, size_t nr, int reverse)
{
	struct state tmp = { 0 };
	size_t i, j, n;
	int ret = 0;

	state_copy(&tmp, s);
	for (n = 0; n < nr && !ret; n++) {
		i = reverse ? nr - 1 - n : n;
		for (j = 0; j < d[i].nr && !ret; j++) {
			size_t f = reverse ? d[i].nr - 1 - j : j;

			ret = apply_file(c, &tmp, &d[i].files[f], reverse);
		}
	}
	if (!ret) {
		state_release(s);
		*s = tmp;
	} else {
		state_release(&tmp);
	}
	return ret;
}

/* ---- one hunk at a time ---- */

static const char *trim(const char *s, size_t *len)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	*len = n;
	return s;
}

static int line_in(const struct cfile *f, const char *text)
{
	size_t i, n, fn;
	const char *t = trim(text, &n), *ft;

	for (i = 0; i < f->nr; i++) {
		ft = trim(f->lines[i], &fn);
		if (fn == n && !memcmp(ft, t, n))
			return 1;
	}
	return 0;
}

/* Every run of added lines of h in place, each a block of f? */
static int added_in_place(const struct cfile *f, const struct sk_diff_hunk *h,
			  long *where)
{
	size_t i = 0, n;
	int any = 0;

	*where = -1;
	while (i < h->nr_lines) {
		const char **run;
		long at;

		if (h->lines[i].origin != '+') {
			i++;
			continue;
		}
		run = sk_xcalloc(h->nr_lines + 1, sizeof(*run));
		for (n = 0; i < h->nr_lines && h->lines[i].origin == '+'; i++)
			run[n++] = h->lines[i].text;
		at = find_block(f, run, n, 0, h->new_start - 1);
		free(run);
		if (at < 0)
			return 0;
		if (*where < 0)
			*where = at;
		any = 1;
	}
	return any;
}

/*
 * The region of f that stands where h's post-image would: from its
 * leading context to its trailing context, found as blocks; -1 if the
 * context is not there.
 */
static long region(const struct cfile *f, const struct sk_diff_hunk *h,
		   long near, size_t *len)
{
	const char **lead, **tail;
	size_t nl = 0, nt = 0, i, m;
	long a, b;

	lead = sk_xcalloc(h->nr_lines + 1, sizeof(*lead));
	tail = sk_xcalloc(h->nr_lines + 1, sizeof(*tail));
	for (i = 0; i < h->nr_lines && h->lines[i].origin == ' '; i++)
		lead[nl++] = h->lines[i].text;
	for (i = h->nr_lines; i > 0 && h->lines[i - 1].origin == ' '; i--)
		;
	for (; i < h->nr_lines; i++)
		tail[nt++] = h->lines[i].text;
	m = h->nr_lines;
	a = nl ? find_block(f, lead, nl, 0, near) : near;
	if (a < 0 && nl > 1)
		a = find_block(f, lead + nl - 1, 1, 0, near);
	b = -1;
	if (a >= 0)
		b = nt ? find_block(f, tail, nt, (size_t)a + (nl ? 1 : 0),
				    a + (long)m) : a + (long)m;
	if (a >= 0 && (b < 0 || b - a > (long)(4 * m + 40)))
		b = a + (long)m - (long)nt;
	free(lead);
	free(tail);
	if (a < 0)
		return -1;
	if (b < a)
		b = a;
	*len = (size_t)(b - a) + nt;
	if ((size_t)a + *len > f->nr)
		*len = f->nr - (size_t)a;
	return a;
}

static void join(struct sk_strbuf *out, const char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sk_strbuf_adds(out, l[i]);
		sk_strbuf_addch(out, '\n');
	}
}

static int add_line(const git_diff_delta *d, const git_diff_hunk *h,
		    const git_diff_line *l, void *payload)
{
	struct sk_strbuf *out = payload;

	(void)d;
	(void)h;
	/* our own ---/+++ lines name the sides */
	if (l->origin == GIT_DIFF_LINE_FILE_HDR)
		return 0;
	if (l->origin == GIT_DIFF_LINE_CONTEXT ||
	    l->origin == GIT_DIFF_LINE_ADDITION ||
	    l->origin == GIT_DIFF_LINE_DELETION)
		sk_strbuf_addch(out, l->origin);
	sk_strbuf_add(out, l->content, l->content_len);
	return 0;
}

/* The hunk's post-image against the tree's region, as a unified diff. */
static void hunk_interdiff(struct sk_strbuf *out, const struct cfile *f,
			   const struct sk_diff_hunk *h, const char *path,
			   int nr, const char *label)
{
	struct sk_strbuf a = SK_STRBUF_INIT, b = SK_STRBUF_INIT;
	const char **post;
	size_t m = side_lines(&post, h, 1), len = 0;
	long at = region(f, h, h->new_start - 1, &len);
	git_diff_options opts;
	git_patch *patch = NULL;

	join(&a, post, m);
	free(post);
	sk_strbuf_addf(out, "--- %s#%d (stored revision)\n+++ %s (%s)\n", path,
		       nr, path, label);
	if (at < 0) {
		sk_strbuf_adds(out, "@@ its context is not in the tree @@\n");
		goto out;
	}
	join(&b, f->lines + at, len);
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 3;
	if (!git_patch_from_buffers(&patch, a.buf, a.len, NULL, b.buf, b.len,
				    NULL, &opts)) {
		if (git_patch_num_hunks(patch))
			git_patch_print(patch, add_line, out);
		else
			sk_strbuf_adds(out, "@@ identical @@\n");
	}
	git_patch_free(patch);
out:
	sk_strbuf_release(&a);
	sk_strbuf_release(&b);
}

static void judge_hunks(struct ctx *c, struct state *s,
			struct sk_content_patch *cp, const struct sk_diff *d,
			size_t nr)
{
	size_t i, j, k, l;

	for (i = 0; i < nr; i++)
		for (j = 0; j < d[i].nr; j++) {
			const struct sk_diff_file *df = &d[i].files[j];
			const char *path = df->new_path ? df->new_path :
					   df->old_path;
			const struct cfile *f = file_in(c, s, path);

			for (k = 0; k < df->nr_hunks; k++) {
				const struct sk_diff_hunk *h = &df->hunks[k];
				struct sk_content_hunk *ch;
				long at = -1;

				ch = SK_ARRAY_PUSH(cp->hunks, cp->nr_hunks,
						   cp->alloc_hunks);
				memset(ch, 0, sizeof(*ch));
				ch->path = sk_xstrdup(path);
				ch->nr = (int)k + 1;
				ch->funcname = h->funcname ?
					sk_xstrdup(h->funcname) : NULL;
				for (l = 0; l < h->nr_lines; l++) {
					size_t n;

					if (h->lines[l].origin != '+')
						continue;
					trim(h->lines[l].text, &n);
					if (n < SIGNIFICANT)
						continue;
					cp->added++;
					if (!f->absent &&
					    line_in(f, h->lines[l].text))
						cp->added_found++;
				}
				if (f->absent) {
					ch->state = SK_HUNK_NOFILE;
					continue;
				}
				if ((at = find_side(f, h, 1, 0, 0)) >= 0)
					ch->state = SK_HUNK_POST;
				else if ((at = find_side(f, h, 0, 0, 0)) >= 0)
					ch->state = SK_HUNK_PRE;
				else if (added_in_place(f, h, &at))
					ch->state = SK_HUNK_ADDED;
				else
					ch->state = SK_HUNK_NEITHER;
				ch->line = at >= 0 ? at + 1 : 0;
			}
		}
}

static void patch_interdiff(struct ctx *c, struct state *s,
			    struct sk_content_patch *cp,
			    const struct sk_diff *d, size_t nr)
{
	struct sk_strbuf out = SK_STRBUF_INIT;
	size_t i, j, k, n = 0;

	for (i = 0; i < nr; i++)
		for (j = 0; j < d[i].nr; j++) {
			const struct sk_diff_file *df = &d[i].files[j];
			const char *path = df->new_path ? df->new_path :
					   df->old_path;
			const struct cfile *f = file_in(c, s, path);

			for (k = 0; k < df->nr_hunks; k++, n++) {
				if (n < cp->nr_hunks &&
				    cp->hunks[n].state == SK_HUNK_POST)
					continue;
				if (f->absent)
					continue;
				hunk_interdiff(&out, f, &df->hunks[k], path,
					       (int)k + 1, "the tree");
			}
		}
	cp->interdiff = out.len ? sk_strbuf_detach(&out) : NULL;
	sk_strbuf_release(&out);
}

static enum sk_content_verdict hunk_verdict(const struct sk_content_patch *cp)
{
	size_t i, post = 0, added = 0, pre = 0;

	for (i = 0; i < cp->nr_hunks; i++) {
		post += cp->hunks[i].state == SK_HUNK_POST;
		added += cp->hunks[i].state == SK_HUNK_ADDED;
		pre += cp->hunks[i].state == SK_HUNK_PRE;
	}
	if (!cp->nr_hunks)
		return SK_CONTENT_NONE;
	if (post == cp->nr_hunks)
		return SK_CONTENT_LANDED;
	if (post + added == cp->nr_hunks)
		return SK_CONTENT_LINES;
	if (pre == cp->nr_hunks)
		return SK_CONTENT_PREIMAGE;
	/*
	 * No hunk's old code left and the new code largely there, or in
	 * several hunks verbatim (three lines of context each side): the
	 * change was made, in another form.
	 */
	if (!pre && cp->added_found >= 2 &&
	    (100 * cp->added_found >= REVISION_SHARE * cp->added ||
	     (post + added >= 2 &&
	      100 * cp->added_found >= REVISION_HUNKS_SHARE * cp->added)))
		return SK_CONTENT_REVISION;
	if (post + added)
		return SK_CONTENT_PARTIAL;
	return SK_CONTENT_NEITHER;
}

/* ---- the series ---- */

static int parse_steps(struct sk_diff **out, char **const *diffs,
		       const size_t *nr_diffs, size_t nr)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++) {
		out[i] = sk_xcalloc(nr_diffs[i] + 1, sizeof(**out));
		for (j = 0; j < nr_diffs[i] && !ret; j++)
			ret = sk_diff_parse(&out[i][j], diffs[i][j],
					    strlen(diffs[i][j]), "the patch",
					    1, 0);
		if (ret)
			memset(&out[i][j - 1], 0, sizeof(out[i][j - 1]));
	}
	return ret;
}

/* Does 1..k reverse-apply, from k down? */
static int reverses(struct ctx *c, struct sk_diff **d, const size_t *nd,
		    size_t k)
{
	struct state s = { 0 };
	size_t i;
	int ok = 1;

	for (i = k; i-- > 0 && ok;)
		ok = !apply_step(c, &s, d[i], nd[i], 1);
	state_release(&s);
	return ok;
}

int sk_content_check(struct sk_content_series *out, git_repository *repo,
		     const git_oid *commit, char **const *diffs,
		     const size_t *nr_diffs, size_t nr)
{
	struct ctx c = { 0 };
	struct sk_diff **d = sk_xcalloc(nr + 1, sizeof(*d));
	git_commit *cm = NULL;
	struct state s = { 0 };
	size_t i, k;
	int ret, gap = 0;

	memset(out, 0, sizeof(*out));
	c.repo = repo;
	ret = parse_steps(d, diffs, nr_diffs, nr);
	if (ret)
		goto out;
	if (git_commit_lookup(&cm, repo, commit) ||
	    git_commit_tree(&c.tree, cm)) {
		ret = sk_error_git(SK_ENOTFOUND, "content: the branch's tree");
		goto out;
	}
	out->patches = sk_xcalloc(nr + 1, sizeof(*out->patches));
	out->nr = nr;
	/* a patch with no diff proves nothing: no landing through it */
	for (k = 0; k < nr && nr_diffs[k]; k++)
		;
	for (; k > 0 && !reverses(&c, d, nr_diffs, k); k--)
		;
	out->landed = k;
	/* the table of each, on the tree with the later patches undone */
	for (i = k; i-- > 0;) {
		judge_hunks(&c, &s, &out->patches[i], d[i], nr_diffs[i]);
		out->patches[i].verdict = SK_CONTENT_LANDED;
		apply_step(&c, &s, d[i], nr_diffs[i], 1);
	}
	state_release(&s);
	for (i = k; i < nr; i++) {
		struct sk_content_patch *cp = &out->patches[i];

		if (!nr_diffs[i]) {
			cp->verdict = SK_CONTENT_NONE;
			continue;
		}
		if (!apply_step(&c, &s, d[i], nr_diffs[i], 0)) {
			cp->verdict = SK_CONTENT_PREIMAGE;
			gap = 1;
			continue;
		}
		judge_hunks(&c, &s, cp, d[i], nr_diffs[i]);
		cp->verdict = hunk_verdict(cp);
		if (cp->verdict == SK_CONTENT_LANDED && gap)
			cp->verdict = SK_CONTENT_COINCIDENCE;
		else if (sk_content_landed(cp->verdict))
			patch_interdiff(&c, &s, cp, d[i], nr_diffs[i]);
		if (!sk_content_landed(cp->verdict))
			gap = 1;
	}
out:
	state_release(&s);
	for (i = 0; i < nr; i++) {
		for (k = 0; d[i] && k < nr_diffs[i]; k++)
			sk_diff_release(&d[i][k]);
		free(d[i]);
	}
	free(d);
	state_release(&c.base);
	for (i = 0; i < c.pool.nr; i++)
		free(c.pool.items[i]);
	free(c.pool.items);
	git_tree_free(c.tree);
	git_commit_free(cm);
	if (ret)
		sk_content_series_release(out);
	return ret;
}

void sk_content_series_release(struct sk_content_series *s)
{
	size_t i, j;

	for (i = 0; s->patches && i < s->nr; i++) {
		struct sk_content_patch *p = &s->patches[i];

		for (j = 0; j < p->nr_hunks; j++) {
			free(p->hunks[j].path);
			free(p->hunks[j].funcname);
		}
		free(p->hunks);
		free(p->interdiff);
	}
	free(s->patches);
	memset(s, 0, sizeof(*s));
}

void sk_content_table(struct sk_strbuf *out, const struct sk_content_patch *p)
{
	size_t i;

	for (i = 0; i < p->nr_hunks; i++) {
		const struct sk_content_hunk *h = &p->hunks[i];

		sk_strbuf_addf(out, "%s#%d", h->path, h->nr);
		if (h->funcname)
			sk_strbuf_addf(out, " (%s)", h->funcname);
		if (h->line)
			sk_strbuf_addf(out, " at %ld", h->line);
		sk_strbuf_addf(out, ": %s\n", hunk_names[h->state]);
	}
}

void sk_content_describe(struct sk_strbuf *out,
			 const struct sk_content_patch *p, const char *branch)
{
	size_t i, in = 0, other = 0;

	for (i = 0; i < p->nr_hunks; i++) {
		in += p->hunks[i].state == SK_HUNK_POST ||
		      p->hunks[i].state == SK_HUNK_ADDED;
		other += p->hunks[i].state == SK_HUNK_ADDED;
	}
	switch (p->verdict) {
	case SK_CONTENT_LANDED:
		sk_strbuf_addf(out, "landed by content: the patch reverse-"
			       "applies on %s (the series in order); the "
			       "post-image of %zu of its %zu hunks in place",
			       branch, in - other, p->nr_hunks);
		break;
	case SK_CONTENT_LINES:
		sk_strbuf_addf(out, "landed by content: every added line of "
			       "the patch is in place on %s (%zu of %zu hunks "
			       "with other context)", branch,
			       other, p->nr_hunks);
		break;
	case SK_CONTENT_REVISION:
		sk_strbuf_addf(out, "landed as a later revision: %s has %zu "
			       "of the stored revision's %zu added lines and "
			       "%zu of its %zu hunks; the stored revision "
			       "neither applies nor reverse-applies there",
			       branch, p->added_found, p->added, in,
			       p->nr_hunks);
		break;
	case SK_CONTENT_PREIMAGE:
		sk_strbuf_addf(out, "the patch's pre-image is on %s: it "
			       "applies there (the series in order)", branch);
		break;
	case SK_CONTENT_PARTIAL:
		sk_strbuf_addf(out, "partial: %zu of its %zu hunks and %zu of "
			       "its %zu added lines are in place on %s, the "
			       "patch neither applies nor reverse-applies",
			       in, p->nr_hunks, p->added_found, p->added,
			       branch);
		break;
	case SK_CONTENT_COINCIDENCE:
		sk_strbuf_addf(out, "its post-image is on %s, but an earlier "
			       "patch of the series is not: old code that the "
			       "series changes, not a landing", branch);
		break;
	case SK_CONTENT_NEITHER:
		sk_strbuf_addf(out, "neither its pre-image nor its post-image "
			       "is on %s", branch);
		break;
	case SK_CONTENT_NONE:
		sk_strbuf_adds(out, "no diff to compare with the tree");
		break;
	}
}

int sk_content_no_history(git_repository *repo, const char *commit)
{
	git_commit *c = NULL;
	git_oid oid;
	int none;

	if (git_oid_fromstr(&oid, commit) || git_commit_lookup(&c, repo, &oid))
		return 0;
	none = git_commit_parentcount(c) == 0;
	git_commit_free(c);
	return none;
}

/* ---- the hooks of track.c ---- */

struct cached {
	const struct sk_series *s;
	struct sk_content_series cs;
	int failed;
};

struct branch_cache {
	git_repository *repo;
	int no_history;		/* -1: not looked at yet */
	int from_base;		/* its history starts at its base */
	struct cached *items;
	size_t nr, alloc;
};

struct sk_content_cache {
	const char *top;
	struct sk_content_branch *br;
	struct branch_cache *b;
	size_t nr;
};

struct sk_content_cache *sk_content_cache_new(const char *top,
					      const struct sk_content_branch *b,
					      size_t nr)
{
	struct sk_content_cache *cc = sk_xcalloc(1, sizeof(*cc));
	size_t i;

	cc->top = top;
	cc->nr = nr;
	cc->br = sk_xcalloc(nr + 1, sizeof(*cc->br));
	if (nr)
		memcpy(cc->br, b, nr * sizeof(*b));
	cc->b = sk_xcalloc(nr + 1, sizeof(*cc->b));
	for (i = 0; i < nr; i++) {
		cc->b[i].repo = b[i].repo;
		cc->b[i].no_history = -1;
	}
	return cc;
}

void sk_content_cache_free(struct sk_content_cache *cc)
{
	size_t i, j;

	if (!cc)
		return;
	for (i = 0; i < cc->nr; i++) {
		for (j = 0; j < cc->b[i].nr; j++)
			sk_content_series_release(&cc->b[i].items[j].cs);
		free(cc->b[i].items);
	}
	free(cc->b);
	free(cc->br);
	free(cc);
}

static int no_history(struct sk_content_cache *cc, size_t bi)
{
	struct branch_cache *b = &cc->b[bi];
	const struct sk_content_branch *tb = &cc->br[bi];

	/*
	 * The branch is one root commit, or its base is one (a tree
	 * imported once, a vendor's or a distribution's commits on top):
	 * what came before the import is not there to walk, so a Fixes:
	 * target or a landing from before it can only be told by the code.
	 */
	if (b->no_history < 0) {
		b->no_history = b->repo && tb->tip && tb->tip[0] &&
			sk_content_no_history(b->repo, tb->tip);
		b->from_base = !b->no_history && b->repo && tb->base &&
			tb->base[0] && sk_content_no_history(b->repo, tb->base);
		b->no_history |= b->from_base;
	}
	return b->no_history;
}

/* The step of each patch: its diff, then its fixlets'. */
static void series_steps(char ***diffs, size_t *nd, const struct sk_series *s,
			 const struct sk_revision *rev)
{
	size_t i, j;

	for (i = 0; i < rev->nr_patches; i++) {
		const struct sk_series_patch *p = &rev->patches[i];
		struct sk_strbuf sb = SK_STRBUF_INIT;

		diffs[i] = sk_xcalloc(p->nr_fixlets + 2, sizeof(char *));
		if (sk_series_patch_diff(&sb, s, rev, p->nr)) {
			sk_strbuf_release(&sb);
			continue;
		}
		diffs[i][nd[i]++] = sk_strbuf_detach(&sb);
		for (j = 0; j < p->nr_fixlets; j++) {
			sk_strbuf_init(&sb);
			if (!sk_series_fixlet_diff(&sb, s, rev, p->nr,
						   p->fixlets[j].nr))
				diffs[i][nd[i]++] = sk_strbuf_detach(&sb);
			else
				sk_strbuf_release(&sb);
		}
	}
	sk_error_clear();
}

/* The series judged on branch bi's tree, once per run; NULL if it fails. */
static const struct sk_content_series *judged(struct sk_content_cache *cc,
					      size_t bi,
					      const struct sk_series *s,
					      const struct sk_revision *rev)
{
	struct branch_cache *b = &cc->b[bi];
	struct cached *it;
	char ***diffs;
	size_t *nd, i, j;
	git_oid tip;

	for (i = 0; i < b->nr; i++)
		if (b->items[i].s == s)
			return b->items[i].failed ? NULL : &b->items[i].cs;
	it = SK_ARRAY_PUSH(b->items, b->nr, b->alloc);
	memset(it, 0, sizeof(*it));
	it->s = s;
	it->failed = 1;
	if (!b->repo || !cc->br[bi].tip || git_oid_fromstr(&tip, cc->br[bi].tip))
		return NULL;
	diffs = sk_xcalloc(rev->nr_patches + 1, sizeof(*diffs));
	nd = sk_xcalloc(rev->nr_patches + 1, sizeof(*nd));
	series_steps(diffs, nd, s, rev);
	it->failed = !!sk_content_check(&it->cs, b->repo, &tip,
					(char **const *)diffs, nd,
					rev->nr_patches);
	sk_error_clear();
	for (i = 0; i < rev->nr_patches; i++) {
		for (j = 0; j < nd[i]; j++)
			free(diffs[i][j]);
		free(diffs[i]);
	}
	free(diffs);
	free(nd);
	return it->failed ? NULL : &it->cs;
}

static const struct sk_content_patch *judged_patch(
	struct sk_content_cache *cc, size_t bi, const struct sk_series *s,
	const struct sk_revision *rev, int nr)
{
	const struct sk_content_series *cs = judged(cc, bi, s, rev);
	size_t i;

	for (i = 0; cs && i < rev->nr_patches; i++)
		if (rev->patches[i].nr == nr)
			return &cs->patches[i];
	return NULL;
}

static void say(struct sk_strvec *c, char *text)
{
	*SK_ARRAY_PUSH(c->items, c->nr, c->alloc) = text;
}

static void say_block(struct sk_strvec *c, const char *title,
		      const char *text)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char *p = text;

	sk_strbuf_adds(&sb, title);
	while (p && *p) {
		size_t n = strcspn(p, "\n");

		sk_strbuf_adds(&sb, "\n    ");
		sk_strbuf_add(&sb, p, n);
		p += n + (p[n] == '\n');
	}
	say(c, sk_strbuf_detach(&sb));
}

static void say_patch(struct sk_strvec *c, const struct sk_content_patch *p,
		      const char *branch)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	sk_content_describe(&sb, p, branch);
	say(c, sk_strbuf_detach(&sb));
	if (p->nr_hunks) {
		sk_strbuf_init(&sb);
		sk_content_table(&sb, p);
		say_block(c, "hunks:", sb.buf);
		sk_strbuf_release(&sb);
	}
	if (p->interdiff && p->verdict != SK_CONTENT_LANDED) {
		char *title = sk_xstrfmt("interdiff, the stored revision "
					 "against %s:", branch);

		say_block(c, title, p->interdiff);
		free(title);
	}
}

int sk_content_present(struct sk_content_cache *cc, size_t bi,
		       const struct sk_series *s, const struct sk_revision *rev,
		       int nr, struct sk_strvec *c)
{
	const struct sk_content_patch *p;

	if (!no_history(cc, bi))
		return 0;
	p = judged_patch(cc, bi, s, rev, nr);
	if (!p || !sk_content_landed(p->verdict))
		return 0;
	say_patch(c, p, cc->br[bi].br->name);
	return 1;
}

/*
 * The newest stable branch but bi, newer than bi, whose tree has the
 * patch: its copy is upstream's by proxy.  -1 if none.
 */
static long proxy(struct sk_content_cache *cc, size_t bi,
		  const struct sk_series *s, const struct sk_revision *rev,
		  int nr, const struct sk_content_patch **out)
{
	const struct sk_branch *me = cc->br[bi].br, *best = NULL;
	long pick = -1;
	size_t i;

	for (i = 0; i < cc->nr; i++) {
		const struct sk_branch *br = cc->br[i].br;
		const struct sk_content_patch *p;

		if (i == bi || br->kind != SK_BRANCH_STABLE ||
		    sk_version_cmp(br->major, br->minor, me->major,
				   me->minor) <= 0 ||
		    (best && sk_version_cmp(br->major, br->minor,
					    best->major, best->minor) < 0))
			continue;
		p = judged_patch(cc, i, s, rev, nr);
		if (!p || !sk_content_landed(p->verdict))
			continue;
		best = br;
		pick = (long)i;
		*out = p;
	}
	return pick;
}

/* The diff of the queue entry with the patch's subject, or NULL. */
static char *queue_diff(struct sk_content_cache *cc, size_t bi,
			const char *subject)
{
	const struct sk_content_branch *tb = &cc->br[bi];
	struct sk_strbuf want = SK_STRBUF_INIT, text = SK_STRBUF_INIT,
			 got = SK_STRBUF_INIT;
	char *found = NULL;
	size_t qi;

	sk_subject_norm(&want, subject);
	for (qi = 0; qi < tb->nr_queue && !found; qi++) {
		const char *entry = tb->queue[qi];
		char *path, *subj;
		const char *d;

		path = sk_xstrfmt("%s/stable/%s/%s", cc->top, tb->br->name,
				  entry);
		sk_strbuf_reset(&text);
		if (!sk_read_file(&text, path) &&
		    (subj = strstr(text.buf, "Subject: "))) {
			char *line = sk_xstrndup(subj + 9,
						 strcspn(subj + 9, "\n"));

			sk_subject_norm(&got, line);
			if (!strcmp(got.buf, want.buf) &&
			    (d = sk_diff_find(text.buf)))
				found = sk_xstrdup(d);
			free(line);
		}
		sk_error_clear();
		free(path);
	}
	sk_strbuf_release(&want);
	sk_strbuf_release(&text);
	sk_strbuf_release(&got);
	return found;
}

/* Same changed lines, in the same order? */
static int same_code(const char *a, const char *b)
{
	struct sk_lines la = { 0 }, lb = { 0 };
	size_t i;
	int same;

	sk_lines_from_patch(&la, a);
	sk_lines_from_patch(&lb, b);
	same = la.nr == lb.nr;
	for (i = 0; same && i < la.nr; i++)
		same = !strcmp(la.items[i], lb.items[i]);
	sk_lines_release(&la);
	sk_lines_release(&lb);
	return same;
}

static void compare_queue(struct sk_content_cache *cc, size_t bi,
			  const struct sk_series *s,
			  const struct sk_revision *rev, int nr,
			  struct sk_strvec *c, int *differs, size_t ref,
			  const struct sk_content_patch *rp)
{
	const char *rname = cc->br[ref].br->name;
	struct sk_strbuf stored = SK_STRBUF_INIT, a = SK_STRBUF_INIT,
			 b = SK_STRBUF_INIT, id = SK_STRBUF_INIT;
	const struct sk_series_patch *sp = NULL;
	char *queued, *title;
	size_t i;

	for (i = 0; i < rev->nr_patches; i++)
		if (rev->patches[i].nr == nr)
			sp = &rev->patches[i];
	if (!sp || !(queued = queue_diff(cc, bi, sp->subject)))
		return;
	if (rp->verdict != SK_CONTENT_LANDED) {
		*differs = 1;
		say(c, sk_xstrfmt("differs from what landed upstream: %s, "
				  "upstream by proxy, has a later revision "
				  "than the stored v%d this queue was ported "
				  "from; a downstream queue should follow the "
				  "landed version", rname, rev->version));
		if (rp->interdiff) {
			title = sk_xstrfmt("interdiff, the stored v%d against "
					   "%s:", rev->version, rname);
			say_block(c, title, rp->interdiff);
			free(title);
		}
		goto out;
	}
	if (sk_series_patch_diff(&stored, s, rev, nr)) {
		sk_error_clear();
		goto out;
	}
	if (same_code(stored.buf, queued)) {
		say(c, sk_xstrfmt("the queued code is identical to %s's copy "
				  "(the reference backport)", rname));
		goto out;
	}
	*differs = 1;
	sk_interdiff_normalise(&a, stored.buf);
	sk_interdiff_normalise(&b, queued);
	sk_interdiff_text(&id, a.buf, b.buf, rname, "queue");
	sk_error_clear();
	title = sk_xstrfmt("the queued code differs from %s's copy (the "
			   "reference backport); interdiff:", rname);
	say_block(c, title, id.buf);
	free(title);
out:
	free(queued);
	sk_strbuf_release(&stored);
	sk_strbuf_release(&a);
	sk_strbuf_release(&b);
	sk_strbuf_release(&id);
}

void sk_content_facts(struct sk_content_cache *cc, size_t bi,
		      const struct sk_series *s, const struct sk_revision *rev,
		      int nr, struct sk_content_facts *f)
{
	const char *name = cc->br[bi].br->name;
	const struct sk_content_patch *p, *rp = NULL;
	struct sk_strvec *c = &f->evidence;
	const char *hist;
	long ref;

	if (!no_history(cc, bi))
		return;
	ref = proxy(cc, bi, s, rev, nr, &rp);
	if (ref >= 0)
		f->proxy = cc->br[ref].br->name;
	if (ref >= 0)
		say(c, sk_xstrfmt("upstream by proxy: %s, a newer stable tree, "
				  "has it (%s); stable trees take only mainline "
				  "commits, so no upstream commit is known to "
				  "name", cc->br[ref].br->name,
				  sk_content_verdict_name(rp->verdict)));
	if (f->queued && ref >= 0)
		compare_queue(cc, bi, s, rev, nr, c, &f->differs, (size_t)ref,
			      rp);
	if (f->queued || !f->has_fixes || f->fixes_in_branch)
		return;
	/* a target the repository has: its ancestry answers, not the code */
	if (cc->b[bi].from_base && f->fixes_resolved)
		return;
	p = judged_patch(cc, bi, s, rev, nr);
	if (!p || p->verdict == SK_CONTENT_NONE)
		return;
	f->fixes_by_code = 1;
	hist = cc->b[bi].from_base ? "no history before its base (a root "
	       "commit)" : "no history";
	if (p->verdict == SK_CONTENT_PREIMAGE) {
		f->fixes_in_branch = 1;
		say(c, sk_xstrfmt("the fixed code is there: %s has %s to hold "
				  "the Fixes: target, and the patch's "
				  "pre-image applies on it (the series in "
				  "order)", name, hist));
		return;
	}
	say(c, sk_xstrfmt("the fixed code is not there: %s has %s to hold "
			  "the Fixes: target, and the patch's "
			  "pre-image does not apply on it (the series in "
			  "order)", name, hist));
	say_patch(c, p, name);
}
