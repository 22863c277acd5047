#include "apply.h"
#include "error.h"
#include "fsutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lines {
	char **v;
	size_t nr, alloc;
};

struct hunk {
	long old_start;
	char *funcname;
	struct lines pre, post;		/* context and -, context and + */
	size_t lead, trail;		/* context lines before/after the change */
};

struct file_diff {
	char *old_path, *new_path;
	int is_new, is_delete;
	struct hunk *hunks;
	size_t nr, alloc;
};

static void lines_push(struct lines *l, const char *s, size_t len)
{
	*SK_ARRAY_PUSH(l->v, l->nr, l->alloc) = sk_xstrndup(s, len);
}

static void lines_free(struct lines *l)
{
	while (l->nr)
		free(l->v[--l->nr]);
	free(l->v);
	l->v = NULL;
	l->alloc = 0;
}

static void split_lines(struct lines *out, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		lines_push(out, p, len);
		p += len + (nl ? 1 : 0);
	}
}

static char *path_after_prefix(const char *s, size_t len)
{
	const char *tab = memchr(s, '\t', len);

	if (tab)
		len = (size_t)(tab - s);
	if (len >= 2 && (s[0] == 'a' || s[0] == 'b') && s[1] == '/')
		return sk_xstrndup(s + 2, len - 2);
	return sk_xstrndup(s, len);
}

/* Parse one hunk starting at the @@ line; returns the text after it. */
static const char *parse_hunk(struct hunk *h, const char *p)
{
	const char *nl = strchr(p, '\n'), *close;
	long old_count = 1, new_count = 1;
	int seen_change = 0;
	size_t context_run = 0;
	char *end;

	memset(h, 0, sizeof(*h));
	h->old_start = strtol(p + 4, &end, 10);
	if (*end == ',')
		old_count = strtol(end + 1, &end, 10);
	strtol(end + 2, &end, 10);
	if (*end == ',')
		new_count = strtol(end + 1, &end, 10);
	close = strstr(end, "@@");
	if (close && (!nl || close < nl)) {
		const char *f = close + 2;

		while (*f == ' ')
			f++;
		if (f < (nl ? nl : f + strlen(f)))
			h->funcname = sk_xstrndup(f, nl ? (size_t)(nl - f) : strlen(f));
	}
	p = nl ? nl + 1 : p + strlen(p);
	while (*p && (old_count > 0 || new_count > 0)) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char c = len ? p[0] : ' ';
		const char *text = len ? p + 1 : p;
		size_t tlen = len ? len - 1 : 0;

		if (c == ' ') {
			lines_push(&h->pre, text, tlen);
			lines_push(&h->post, text, tlen);
			old_count--;
			new_count--;
			context_run++;
			if (!seen_change)
				h->lead++;
		} else if (c == '-') {
			lines_push(&h->pre, text, tlen);
			old_count--;
			seen_change = 1;
			context_run = 0;
		} else if (c == '+') {
			lines_push(&h->post, text, tlen);
			new_count--;
			seen_change = 1;
			context_run = 0;
		}
		p += len + (e ? 1 : 0);
	}
	h->trail = seen_change ? context_run : 0;
	return p;
}

static void free_file(struct file_diff *f)
{
	size_t i;

	for (i = 0; i < f->nr; i++) {
		free(f->hunks[i].funcname);
		lines_free(&f->hunks[i].pre);
		lines_free(&f->hunks[i].post);
	}
	free(f->hunks);
	free(f->old_path);
	free(f->new_path);
}

static int parse_files(struct file_diff **out, size_t *nr, const char *diff)
{
	const char *p = diff;
	size_t alloc = 0;
	struct file_diff *cur = NULL;

	*out = NULL;
	*nr = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (!strncmp(p, "diff --git ", 11)) {
			cur = SK_ARRAY_PUSH(*out, *nr, alloc);
			memset(cur, 0, sizeof(*cur));
		} else if (cur && !strncmp(p, "new file mode", 13)) {
			cur->is_new = 1;
		} else if (cur && !strncmp(p, "deleted file mode", 17)) {
			cur->is_delete = 1;
		} else if (!strncmp(p, "--- ", 4) && (!cur || cur->nr) &&
			   !strncmp(p + len + (nl ? 1 : 0), "+++ ", 4)) {
			/* a plain unified diff, without git's header */
			cur = SK_ARRAY_PUSH(*out, *nr, alloc);
			memset(cur, 0, sizeof(*cur));
			cur->old_path = path_after_prefix(p + 4, len - 4);
		} else if (cur && !strncmp(p, "--- ", 4)) {
			free(cur->old_path);
			cur->old_path = path_after_prefix(p + 4, len - 4);
		} else if (cur && !strncmp(p, "+++ ", 4)) {
			free(cur->new_path);
			cur->new_path = path_after_prefix(p + 4, len - 4);
		} else if (cur && !strncmp(p, "GIT binary patch", 16)) {
			return sk_error_set(SK_EINVALID, "binary patches are not supported");
		} else if (cur && !strncmp(p, "@@ -", 4)) {
			struct hunk *h = SK_ARRAY_PUSH(cur->hunks, cur->nr, cur->alloc);

			p = parse_hunk(h, p);
			continue;
		}
		p += len + (nl ? 1 : 0);
	}
	return 0;
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

	if (!h->funcname)
		return 1;
	skip_labels = !is_label_line(h->funcname);
	n = strlen(h->funcname);
	while (n && isspace((unsigned char)h->funcname[n - 1]))
		n--;
	while (i-- > 0)
		if (is_funcname_line(old->v[i]) &&
		    !(skip_labels && is_label_line(old->v[i])))
			return !strncmp(old->v[i], h->funcname, n);
	return 0;
}

/* Does the definition the @@ line names exist anywhere in the file? */
static int named_exists(const struct lines *old, const struct hunk *h)
{
	size_t i, n;

	if (!h->funcname)
		return 0;
	n = strlen(h->funcname);
	while (n && isspace((unsigned char)h->funcname[n - 1]))
		n--;
	for (i = 0; i < old->nr; i++)
		if (!strncmp(old->v[i], h->funcname, n))
			return 1;
	return 0;
}

/*
 * The nearest position at or after min where the hunk matches, searching
 * outward from want.  Returns -1 when there is none.  A fuzzy match must
 * sit in the definition the @@ line names; so must a moved exact match
 * when that definition is in the file (it may have been renamed).
 */
static long find(const struct lines *old, long want, size_t min,
		 const struct hunk *h, size_t skip_lead, size_t skip_trail,
		 int need_function)
{
	long span = (want > (long)old->nr ? want : (long)old->nr) + 1, d;
	int named = need_function || named_exists(old, h);

	for (d = 0; d <= span; d++) {
		long cand[2] = { want + d, want - d };
		int k;

		for (k = 0; k < (d ? 2 : 1); k++) {
			long c = cand[k];

			if (c < (long)min || c > (long)old->nr)
				continue;
			if (!match_at(old, (size_t)c, h, skip_lead, skip_trail))
				continue;
			if (named && (need_function || c != want) &&
			    !in_named_function(old, (size_t)c - skip_lead, h))
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

static int apply_lines(struct lines *out, struct sk_apply_report *rep,
		       const char *path, const struct lines *old,
		       const struct file_diff *f, unsigned int flags)
{
	size_t cursor = 0, i;
	long bias = 0;
	int failed = 0;

	for (i = 0; i < f->nr; i++) {
		const struct hunk *h = &f->hunks[i];
		struct sk_hunk_report *r = SK_ARRAY_PUSH(rep->hunks, rep->nr, rep->alloc);
		long want = (h->old_start ? h->old_start - 1 : 0) + bias, at;
		size_t sl = 0, st = 0, k;

		memset(r, 0, sizeof(*r));
		r->path = sk_xstrdup(path);
		r->nr = (int)i + 1;
		r->want_line = want + 1;
		r->funcname = h->funcname ? sk_xstrdup(h->funcname) : NULL;
		at = find(old, want, cursor, h, 0, 0, 0);
		if (at < 0 && (flags & SK_APPLY_FUZZ) && (h->lead || h->trail)) {
			sl = h->lead ? 1 : 0;
			st = h->trail ? 1 : 0;
			at = find(old, want + (long)sl, cursor, h, sl, st, 1);
			r->fuzz = at >= 0;
		}
		if (at < 0) {
			r->met = code_met(old, want, h->pre.nr + 2);
			failed = 1;
			continue;
		}
		r->applied = 1;
		r->got_line = at - (long)sl + 1;
		bias = at - (long)sl - (h->old_start ? h->old_start - 1 : 0);
		for (; cursor < (size_t)at; cursor++)
			lines_push(out, old->v[cursor], strlen(old->v[cursor]));
		for (k = sl; k < h->post.nr - st; k++)
			lines_push(out, h->post.v[k], strlen(h->post.v[k]));
		cursor = (size_t)at + h->pre.nr - sl - st;
	}
	for (; cursor < old->nr; cursor++)
		lines_push(out, old->v[cursor], strlen(old->v[cursor]));
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
		      const struct file_diff *f, unsigned int flags)
{
	struct lines old = { 0 }, res = { 0 };
	int ret;

	split_lines(&old, old_text);
	ret = apply_lines(&res, rep, path, &old, f, flags);
	if (!ret)
		join_lines(out, &res);
	lines_free(&old);
	lines_free(&res);
	return ret;
}

int sk_apply_text(struct sk_strbuf *out, struct sk_apply_report *rep,
		  const char *path, const char *old, const char *file_diff,
		  unsigned int flags)
{
	struct file_diff *files;
	size_t nr, i;
	int ret = parse_files(&files, &nr, file_diff);

	if (!ret && nr != 1)
		ret = sk_error_set(SK_EINVALID, "expected a diff of one file, got %zu", nr);
	if (!ret)
		ret = apply_file(out, rep, path, old, &files[0], flags);
	for (i = 0; i < nr; i++)
		free_file(&files[i]);
	free(files);
	return ret;
}

struct pending {
	char *path;		/* to write, or NULL */
	char *remove;		/* to delete, or NULL */
	struct sk_strbuf text;
};

static int prepare(struct pending *pd, struct sk_apply_report *rep,
		   const char *dir, const struct file_diff *f, unsigned int flags)
{
	struct sk_strbuf old = SK_STRBUF_INIT;
	const char *src = f->is_new ? NULL : f->old_path;
	char *full = NULL;
	int ret = 0;

	memset(pd, 0, sizeof(*pd));
	sk_strbuf_init(&pd->text);
	if (!f->new_path || !f->old_path)
		return sk_error_set(SK_EINVALID, "diff without ---/+++ lines");
	if (src) {
		full = sk_path_join(dir, src);
		ret = sk_read_file(&old, full);
		free(full);
		if (ret == SK_ENOTFOUND)
			ret = sk_error_set(SK_ECONFLICT, "'%s' does not exist in the target", src);
	}
	if (!ret)
		ret = apply_file(&pd->text, rep, f->is_delete ? f->old_path : f->new_path,
				 old.buf, f, flags);
	if (!ret && f->is_delete)
		pd->remove = sk_path_join(dir, f->old_path);
	else if (!ret) {
		pd->path = sk_path_join(dir, f->new_path);
		if (strcmp(f->old_path, f->new_path) && !f->is_new &&
		    strcmp(f->old_path, "/dev/null"))
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

int sk_apply_dir(struct sk_apply_report *rep, const char *dir,
		 const char *diff, unsigned int flags)
{
	struct file_diff *files;
	struct pending *pd;
	size_t nr, i;
	int ret = parse_files(&files, &nr, diff), failed = 0;

	if (ret)
		return ret;
	pd = sk_xcalloc(nr + 1, sizeof(*pd));
	for (i = 0; i < nr; i++) {
		int r = prepare(&pd[i], rep, dir, &files[i], flags);

		if (r == SK_ECONFLICT)
			failed = 1;
		else if (r) {
			ret = r;
			break;
		}
	}
	if (!ret && failed)
		ret = SK_ECONFLICT;
	for (i = 0; !ret && !(flags & SK_APPLY_CHECK) && i < nr; i++)
		ret = commit_pending(&pd[i]);
	for (i = 0; i < nr; i++) {
		free(pd[i].path);
		free(pd[i].remove);
		sk_strbuf_release(&pd[i].text);
		free_file(&files[i]);
	}
	free(pd);
	free(files);
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
