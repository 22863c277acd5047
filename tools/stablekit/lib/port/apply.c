#include "port/apply.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lines {
	const char **v;
	size_t nr, alloc;
};

/* A hunk as the search sees it: its preimage and postimage lines. */
struct hunk {
	const struct sk_diff_hunk *h;
	struct lines pre, post;		/* context and -, context and + */
	size_t lead, trail;		/* context lines before/after the change */
};

static void lines_push(struct lines *l, const char *s)
{
	*SK_ARRAY_PUSH(l->v, l->nr, l->alloc) = s;
}

static void lines_free(struct lines *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Cut text into lines in place (it is the caller's copy). */
static void split_lines(struct lines *out, char *text)
{
	char *p = text;

	while (*p) {
		char *nl = strchr(p, '\n');

		lines_push(out, p);
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

static void make_hunk(struct hunk *out, const struct sk_diff_hunk *h)
{
	size_t i, context_run = 0;
	int seen_change = 0;

	memset(out, 0, sizeof(*out));
	out->h = h;
	for (i = 0; i < h->nr_lines; i++) {
		const struct sk_diff_line *l = &h->lines[i];

		if (l->origin != '+')
			lines_push(&out->pre, l->text);
		if (l->origin != '-')
			lines_push(&out->post, l->text);
		if (l->origin == ' ') {
			context_run++;
			if (!seen_change)
				out->lead++;
		} else {
			seen_change = 1;
			context_run = 0;
		}
	}
	out->trail = seen_change ? context_run : 0;
}

static void free_hunk(struct hunk *h)
{
	lines_free(&h->pre);
	lines_free(&h->post);
}

static int match_at(const struct lines *old, size_t pos, const struct hunk *h,
		    size_t skip_lead, size_t skip_trail)
{
	size_t n = h->pre.nr - skip_lead - skip_trail, i;

	if (pos + n > old->nr)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(old->v[pos + i], h->pre.v[skip_lead + i]))
			return 0;
	return 1;
}

static int is_funcname_line(const char *s)
{
	return isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '$';
}

/* A goto label in column 0 ("retry:", "out:"), which no definition is. */
static int is_label_line(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	if (!n || isdigit((unsigned char)s[0]))
		return 0;
	while (s[n] == ' ' || s[n] == '\t')
		n++;
	if (s[n] != ':' || s[n + 1] == ':')
		return 0;
	for (n++; s[n] == ' ' || s[n] == '\t'; n++)
		;
	return !s[n] || !strncmp(s + n, "/*", 2) || !strncmp(s + n, "//", 2);
}

/*
 * Does the hunk placed at pos sit under the definition its @@ line names?
 * Labels in column 0 are skipped, as git's cpp funcname pattern (the
 * kernel's .gitattributes: diff=cpp) skips them, unless the @@ line names
 * one (diff -p, as quilt refresh runs it, does).
 */
static int in_named_function(const struct lines *old, size_t pos,
			     const struct hunk *h)
{
	size_t i = pos, n;
	int skip_labels;

	if (!h->h->funcname)
		return 1;
	skip_labels = !is_label_line(h->h->funcname);
	n = strlen(h->h->funcname);
	while (n && isspace((unsigned char)h->h->funcname[n - 1]))
		n--;
	while (i-- > 0)
		if (is_funcname_line(old->v[i]) &&
		    !(skip_labels && is_label_line(old->v[i])))
			return !strncmp(old->v[i], h->h->funcname, n);
	return 0;
}

/* Does the definition the @@ line names exist anywhere in the file? */
static int named_exists(const struct lines *old, const struct hunk *h)
{
	size_t i, n;

	if (!h->h->funcname)
		return 0;
	n = strlen(h->h->funcname);
	while (n && isspace((unsigned char)h->h->funcname[n - 1]))
		n--;
	for (i = 0; i < old->nr; i++)
		if (!strncmp(old->v[i], h->h->funcname, n))
			return 1;
	return 0;
}

/*
 * The nearest position at or after min where the hunk matches, searching
 * outward from want (at most the file's length).  Returns -1 when there is
 * none.  A fuzzy match must sit in the definition the @@ line names; so
 * must a moved exact match when that definition is in the file (it may
 * have been renamed).
 */
static long find(const struct lines *old, long want, size_t min,
		 const struct hunk *h, size_t skip_lead, size_t skip_trail,
		 int need_function)
{
	long span = (long)old->nr + 1, d;
	int named = need_function || named_exists(old, h);

	for (d = 0; d <= span; d++) {
		long cand[2] = { want + d, want - d };
		int k;

		for (k = 0; k < (d ? 2 : 1); k++) {
			long c = cand[k];
			size_t top;

			if (c < (long)min || c > (long)old->nr)
				continue;
			if (!match_at(old, (size_t)c, h, skip_lead, skip_trail))
				continue;
			/* where the hunk's first line, dropped by fuzz, would be */
			top = (size_t)c >= skip_lead ? (size_t)c - skip_lead : 0;
			if (named && (need_function || c != want) &&
			    !in_named_function(old, top, h))
				continue;
			return c;
		}
	}
	return -1;
}

static char *code_met(const struct lines *old, long want, size_t n)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	long i;

	if (want < 0)
		want = 0;
	for (i = want; i < (long)old->nr && i < want + (long)n; i++)
		sk_strbuf_addf(&sb, "%s\n", old->v[i]);
	return sk_strbuf_detach(&sb);
}

/* 0-based line where the hunk's preimage starts, by its header. */
static long header_start(const struct sk_diff_hunk *h)
{
	/* "@@ -5,0 +6 @@" (no context) inserts after line 5 */
	if (!h->old_count)
		return h->old_start;
	return h->old_start - 1;
}

static struct sk_hunk_report *report_hunk(struct sk_apply_report *rep,
					  const char *path, size_t i,
					  const struct hunk *h, long want)
{
	struct sk_hunk_report *r = SK_ARRAY_PUSH(rep->hunks, rep->nr, rep->alloc);

	memset(r, 0, sizeof(*r));
	r->path = sk_xstrdup(path);
	r->nr = (int)i + 1;
	r->want_line = want + 1;
	r->header_line = header_start(h->h) + 1;
	r->funcname = h->h->funcname ? sk_xstrdup(h->h->funcname) : NULL;
	return r;
}

/* Place one hunk: the line of its first matched preimage line, or -1. */
static long place(struct sk_hunk_report *r, const struct lines *old,
		  const struct hunk *h, long want, size_t cursor,
		  unsigned int flags, size_t *sl, size_t *st)
{
	long at;

	*sl = *st = 0;
	at = find(old, want, cursor, h, 0, 0, 0);
	if (at < 0 && (flags & SK_APPLY_FUZZ) && (h->lead || h->trail)) {
		*sl = h->lead ? 1 : 0;
		*st = h->trail ? 1 : 0;
		at = find(old, want + (long)*sl, cursor, h, *sl, *st, 1);
		r->fuzz = at >= 0;
	}
	if (at < 0)
		r->met = code_met(old, want, h->pre.nr + 2);
	return at;
}

static int apply_lines(struct lines *out, struct sk_apply_report *rep,
		       const char *path, const struct lines *old,
		       const struct sk_diff_file *f, unsigned int flags)
{
	size_t cursor = 0, i;
	long bias = 0;
	int failed = 0;

	for (i = 0; i < f->nr_hunks; i++) {
		struct hunk h;
		struct sk_hunk_report *r;
		long want = header_start(&f->hunks[i]) + bias, at;
		size_t sl, st, k;

		make_hunk(&h, &f->hunks[i]);
		r = report_hunk(rep, path, i, &h, want);
		/* beyond the end: searched from the end, as git apply does */
		if (want < 0)
			want = 0;
		if (want > (long)old->nr)
			want = (long)old->nr;
		at = place(r, old, &h, want, cursor, flags, &sl, &st);
		if (at < 0) {
			failed = 1;
			free_hunk(&h);
			continue;
		}
		r->applied = 1;
		r->got_line = (at >= (long)sl ? at - (long)sl : 0) + 1;
		bias = r->got_line - 1 - header_start(h.h);
		for (; cursor < (size_t)at; cursor++)
			lines_push(out, old->v[cursor]);
		for (k = sl; k < h.post.nr - st; k++)
			lines_push(out, h.post.v[k]);
		cursor = (size_t)at + h.pre.nr - sl - st;
		free_hunk(&h);
	}
	for (; cursor < old->nr; cursor++)
		lines_push(out, old->v[cursor]);
	return failed ? SK_ECONFLICT : 0;
}

static void join_lines(struct sk_strbuf *out, const struct lines *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		sk_strbuf_adds(out, l->v[i]);
		sk_strbuf_addch(out, '\n');
	}
}

static int apply_file(struct sk_strbuf *out, struct sk_apply_report *rep,
		      const char *path, const char *old_text,
		      const struct sk_diff_file *f, unsigned int flags)
{
	struct lines old = { 0 }, res = { 0 };
	char *copy = sk_xstrdup(old_text ? old_text : "");
	int ret;

	split_lines(&old, copy);
	ret = apply_lines(&res, rep, path, &old, f, flags);
	if (!ret)
		join_lines(out, &res);
	lines_free(&old);
	lines_free(&res);
	free(copy);
	return ret;
}

int sk_apply_text(struct sk_strbuf *out, struct sk_apply_report *rep,
		  const char *path, const char *old, const char *file_diff,
		  unsigned int flags)
{
	struct sk_diff d;
	int ret = sk_diff_parse(&d, file_diff, strlen(file_diff), "the diff", 1, 0);

	if (ret)
		return ret;
	if (d.nr != 1)
		ret = sk_error_set(SK_EINVALID, "expected a diff of one file, got %zu", d.nr);
	else if (d.files[0].flags & SK_DIFF_BINARY)
		ret = sk_error_set(SK_EINVALID, "binary patches are not supported");
	if (!ret)
		ret = apply_file(out, rep, path, old, &d.files[0], flags);
	sk_diff_release(&d);
	return ret;
}

struct pending {
	char *path;		/* to write, or NULL */
	char *remove;		/* to delete, or NULL */
	struct sk_strbuf text;
};

static int check_file(const char *dir, const struct sk_diff_file *f)
{
	const char *name = f->new_path ? f->new_path : f->old_path;
	int ret = 0;

	if (f->flags & SK_DIFF_BINARY)
		return sk_error_set(SK_EINVALID,
				    "'%s': binary patches are not supported", name);
	if (f->flags & SK_DIFF_SYMLINK)
		return sk_error_set(SK_EINVALID,
				    "'%s': symbolic links are not supported", name);
	if (f->old_path)
		ret = sk_diff_check_inside(dir, f->old_path);
	if (!ret && f->new_path)
		ret = sk_diff_check_inside(dir, f->new_path);
	return ret;
}

/* Every hunk of a file the target lacks fails, and says so. */
static void report_absent(struct sk_apply_report *rep, const char *path,
			  const struct sk_diff_file *f)
{
	size_t i;

	for (i = 0; i < f->nr_hunks; i++) {
		struct hunk h;
		struct sk_hunk_report *r;

		make_hunk(&h, &f->hunks[i]);
		r = report_hunk(rep, path, i, &h, header_start(&f->hunks[i]));
		r->absent = 1;
		free_hunk(&h);
	}
}

static int prepare(struct pending *pd, struct sk_apply_report *rep,
		   const char *dir, const struct sk_diff_file *f,
		   unsigned int flags)
{
	struct sk_strbuf old = SK_STRBUF_INIT;
	const char *src = f->flags & SK_DIFF_NEW ? NULL : f->old_path;
	int ret = check_file(dir, f);

	memset(pd, 0, sizeof(*pd));
	sk_strbuf_init(&pd->text);
	if (!ret && src) {
		char *full = sk_path_join(dir, src);

		ret = sk_read_file(&old, full);
		free(full);
		if (ret == SK_ENOTFOUND) {
			report_absent(rep, src, f);
			ret = sk_error_set(SK_ECONFLICT, "'%s' does not exist in the target", src);
		}
	}
	if (!ret)
		ret = apply_file(&pd->text, rep, f->new_path ? f->new_path : f->old_path,
				 old.buf, f, flags);
	if (!ret && !f->new_path) {
		pd->remove = sk_path_join(dir, f->old_path);
	} else if (!ret) {
		pd->path = sk_path_join(dir, f->new_path);
		if ((f->flags & SK_DIFF_RENAME) && strcmp(f->old_path, f->new_path))
			pd->remove = sk_path_join(dir, f->old_path);
	}
	sk_strbuf_release(&old);
	return ret;
}

static int commit_pending(const struct pending *pd)
{
	int ret = 0;

	if (pd->path) {
		char *slash = strrchr(pd->path, '/'), *parent;

		parent = slash ? sk_xstrndup(pd->path, (size_t)(slash - pd->path)) : NULL;
		if (parent)
			ret = sk_mkdir_p(parent, 0755);
		free(parent);
		if (!ret)
			ret = sk_write_file_atomic(pd->path, pd->text.buf, pd->text.len);
	}
	if (!ret && pd->remove && unlink(pd->remove))
		ret = sk_error_errno(pd->remove);
	return ret;
}

int sk_apply_diff(struct sk_apply_report *rep, const char *dir,
		  const struct sk_diff *d, unsigned int flags)
{
	struct pending *pd = sk_xcalloc(d->nr + 1, sizeof(*pd));
	size_t i;
	int ret = 0, failed = 0;

	for (i = 0; i < d->nr; i++) {
		int r = prepare(&pd[i], rep, dir, &d->files[i], flags);

		if (r == SK_ECONFLICT)
			failed = 1;
		else if (r) {
			ret = r;
			break;
		}
	}
	if (!ret && failed)
		ret = SK_ECONFLICT;
	for (i = 0; !ret && !(flags & SK_APPLY_CHECK) && i < d->nr; i++)
		ret = commit_pending(&pd[i]);
	for (i = 0; i < d->nr; i++) {
		free(pd[i].path);
		free(pd[i].remove);
		sk_strbuf_release(&pd[i].text);
	}
	free(pd);
	return ret;
}

int sk_apply_dir(struct sk_apply_report *rep, const char *dir,
		 const char *diff, unsigned int flags)
{
	struct sk_diff d;
	int ret = sk_diff_parse(&d, diff, strlen(diff), "the diff", 1, 0);

	if (ret)
		return ret;
	ret = sk_apply_diff(rep, dir, &d, flags);
	sk_diff_release(&d);
	return ret;
}

void sk_apply_report_release(struct sk_apply_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr; i++) {
		free(rep->hunks[i].path);
		free(rep->hunks[i].funcname);
		free(rep->hunks[i].met);
	}
	free(rep->hunks);
	memset(rep, 0, sizeof(*rep));
}

long sk_apply_max_offset(const struct sk_apply_report *rep)
{
	long max = 0;
	size_t i;

	for (i = 0; i < rep->nr; i++) {
		long off = rep->hunks[i].applied ?
			   rep->hunks[i].got_line - rep->hunks[i].want_line : 0;

		if (labs(off) > labs(max))
			max = off;
	}
	return max;
}

int sk_apply_max_fuzz(const struct sk_apply_report *rep)
{
	int max = 0;
	size_t i;

	for (i = 0; i < rep->nr; i++)
		if (rep->hunks[i].fuzz > max)
			max = rep->hunks[i].fuzz;
	return max;
}

void sk_apply_describe(struct sk_strbuf *out, const struct sk_apply_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr; i++) {
		const struct sk_hunk_report *h = &rep->hunks[i];
		long off = h->got_line - h->want_line;

		if (!h->applied || (!off && !h->fuzz))
			continue;
		if (out->len)
			sk_strbuf_adds(out, "; ");
		if (off)
			sk_strbuf_addf(out, "offset %+ld", off);
		if (h->fuzz)
			sk_strbuf_addf(out, "%sfuzz %d", off ? ", " : "", h->fuzz);
		sk_strbuf_addf(out, " in %s hunk %d", h->path, h->nr);
	}
}
