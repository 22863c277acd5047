#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <errno.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_PATH_LEN 4096
#define SHOW(n) (int)((n) > 120 ? 120 : (n))

struct parser {
	struct sk_diff *d;
	const char *text, *end;
	const char *src;
	unsigned int flags;
	size_t line;			/* of the current line */
	struct sk_diff_file *cur;	/* being read, or NULL */
	char *git_a, *git_b;		/* the "diff --git" paths of cur */
	int have_sides;			/* cur had its ---/+++ lines */
	struct sk_diff_hunk *hunk;	/* open hunk, or NULL */
	long old_left, new_left;
};

struct cursor {
	const char *p;			/* the line */
	size_t len;			/* without LF */
	const char *next;		/* the line after */
};

static void next_line(struct cursor *c, const struct parser *ps, const char *p)
{
	const char *nl = memchr(p, '\n', (size_t)(ps->end - p));

	c->p = p;
	c->len = nl ? (size_t)(nl - p) : (size_t)(ps->end - p);
	c->next = nl ? nl + 1 : ps->end;
}

static int starts(const struct cursor *c, const char *prefix)
{
	size_t n = strlen(prefix);

	return c->len >= n && !memcmp(c->p, prefix, n);
}

int sk_diff_path_ok(const char *path, size_t len)
{
	const char *p = path, *end = path + len;

	if (!len || len > MAX_PATH_LEN || *path == '/' || *path == '"' ||
	    path[len - 1] == '/')
		return 0;
	while (p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = slash ? (size_t)(slash - p) : (size_t)(end - p);

		if (n == 0 || (n == 1 && *p == '.') ||
		    (n == 2 && !memcmp(p, "..", 2)) ||
		    (n == 4 && !strncasecmp(p, ".git", 4)))
			return 0;
		p = slash ? slash + 1 : end;
	}
	for (p = path; p < end; p++)
		if ((unsigned char)*p < ' ' || *p == '\\' || *p == 0x7f)
			return 0;
	return 1;
}

static int unsafe(const struct parser *ps, const char *path, size_t len)
{
	return sk_error_set(SK_EINVALID,
			    "%s:%zu: unsafe path '%.*s' in diff (absolute, '..' or '.git')",
			    ps->src, ps->line, SHOW(len), path);
}

/* ---- files ---- */

static void free_hunk(struct sk_diff_hunk *h)
{
	size_t i;

	for (i = 0; i < h->nr_lines; i++)
		free(h->lines[i].text);
	free(h->lines);
	free(h->funcname);
}

static void free_file(struct sk_diff_file *f)
{
	size_t i;

	for (i = 0; i < f->nr_hunks; i++)
		free_hunk(&f->hunks[i]);
	free(f->hunks);
	free(f->old_path);
	free(f->new_path);
}

void sk_diff_release(struct sk_diff *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nr; i++)
		free_file(&d->files[i]);
	free(d->files);
	memset(d, 0, sizeof(*d));
}

static void finish_file(struct parser *ps)
{
	struct sk_diff_file *f = ps->cur;

	if (!f)
		return;
	if ((f->flags & SK_DIFF_GIT) && !ps->have_sides) {
		/* a rename, a mode change or a binary diff: no ---/+++ */
		if (!f->old_path && !(f->flags & SK_DIFF_NEW))
			f->old_path = sk_xstrdup(ps->git_a);
		if (!f->new_path && !(f->flags & SK_DIFF_DELETED))
			f->new_path = sk_xstrdup(ps->git_b);
	}
	free(ps->git_a);
	free(ps->git_b);
	ps->git_a = ps->git_b = NULL;
	ps->cur = NULL;
	ps->have_sides = 0;
}

static void start_file(struct parser *ps, const struct cursor *c)
{
	struct sk_diff *d = ps->d;

	if (d->nr)
		d->files[d->nr - 1].end = (size_t)(c->p - ps->text);
	ps->cur = SK_ARRAY_PUSH(d->files, d->nr, d->alloc);
	memset(ps->cur, 0, sizeof(*ps->cur));
	ps->cur->line = ps->line;
	ps->cur->begin = (size_t)(c->p - ps->text);
}

/* "diff --git a/X b/Y": X and Y, split where both halves agree if they can. */
static int git_header(struct parser *ps, const struct cursor *c)
{
	const char *s = c->p + 11, *b;
	size_t len = c->len - 11, n;

	if (len && *s == '"')
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: quoted path in '%.*s' (not supported)",
				    ps->src, ps->line, SHOW(c->len), c->p);
	if (len < 7 || memcmp(s, "a/", 2))
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: malformed 'diff --git' line '%.*s'",
				    ps->src, ps->line, SHOW(c->len), c->p);
	n = (len - 5) / 2;
	if (!((len - 5) & 1) && !memcmp(s + 2 + n, " b/", 3) &&
	    !memcmp(s + 2, s + 5 + n, n))
		b = s + 2 + n;
	else
		b = memmem(s, len, " b/", 3);
	if (!b)
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: malformed 'diff --git' line '%.*s'",
				    ps->src, ps->line, SHOW(c->len), c->p);
	if (!sk_diff_path_ok(s + 2, (size_t)(b - s - 2)))
		return unsafe(ps, s + 2, (size_t)(b - s - 2));
	if (!sk_diff_path_ok(b + 3, (size_t)(s + len - b - 3)))
		return unsafe(ps, b + 3, (size_t)(s + len - b - 3));
	ps->git_a = sk_xstrndup(s + 2, (size_t)(b - s - 2));
	ps->git_b = sk_xstrndup(b + 3, (size_t)(s + len - b - 3));
	ps->cur->flags |= SK_DIFF_GIT;
	return 0;
}

/*
 * One side of "--- X" / "+++ Y": *out is the path below the tree, NULL for
 * /dev/null.  A git diff names "a/<path>" and "b/<path>" as its header
 * does; a quilt-style one any first component, stripped as patch -p1 does.
 */
static int side_path(char **out, struct parser *ps, const struct cursor *c,
		     const char *git_path, char prefix)
{
	const char *s = c->p + 4, *tab, *slash;
	size_t len = c->len - 4;

	*out = NULL;
	tab = memchr(s, '\t', len);
	if (tab)
		len = (size_t)(tab - s);
	if (len == 9 && !memcmp(s, "/dev/null", 9))
		return 0;
	if (!sk_diff_path_ok(s, len))
		return unsafe(ps, s, len);
	slash = memchr(s, '/', len);
	if (!slash)
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: path '%.*s' has no directory to strip (patch -p1)",
				    ps->src, ps->line, SHOW(len), s);
	if (!sk_diff_path_ok(slash + 1, (size_t)(s + len - slash - 1)))
		return unsafe(ps, s, len);
	if (git_path && (s[0] != prefix || slash != s + 1 ||
			 strlen(git_path) != len - 2 ||
			 memcmp(git_path, s + 2, len - 2)))
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: '%.*s' does not match the 'diff --git' line at %zu",
				    ps->src, ps->line, SHOW(c->len), c->p,
				    ps->cur->line);
	*out = sk_xstrndup(slash + 1, (size_t)(s + len - slash - 1));
	return 0;
}

static int sides(struct parser *ps, const struct cursor *minus,
		 const struct cursor *plus)
{
	struct sk_diff_file *f = ps->cur;
	char *old = NULL, *new = NULL;
	int ret = side_path(&old, ps, minus, ps->git_a, 'a');

	ps->line++;
	if (!ret)
		ret = side_path(&new, ps, plus, ps->git_b, 'b');
	if (!ret && !old && !new)
		ret = sk_error_set(SK_EINVALID, "%s:%zu: both sides of the diff are /dev/null",
				   ps->src, ps->line);
	if (ret) {
		free(old);
		return ret;
	}
	free(f->old_path);
	free(f->new_path);
	f->old_path = old;
	f->new_path = new;
	if (!old)
		f->flags |= SK_DIFF_NEW;
	if (!new)
		f->flags |= SK_DIFF_DELETED;
	ps->have_sides = 1;
	return 0;
}

static int mode_value(unsigned int *out, struct parser *ps, const char *s,
		      size_t len, const char *path)
{
	unsigned int m = 0;
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '7' && i < 7; i++)
		m = m * 8 + (unsigned int)(s[i] - '0');
	if (!i || i != len || i > 6)
		return sk_error_set(SK_EINVALID, "%s:%zu: invalid mode '%.*s'",
				    ps->src, ps->line, SHOW(len), s);
	if (m == 0120000) {
		ps->cur->flags |= SK_DIFF_SYMLINK;
		if (!(ps->flags & SK_DIFF_ALLOW_SYMLINK))
			return sk_error_set(SK_EINVALID,
					    "%s:%zu: '%s' is a symbolic link (mode 120000): symlink diffs are refused",
					    ps->src, ps->line, path);
	} else if (m == 0160000) {
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: '%s' is a submodule (mode 160000): not supported",
				    ps->src, ps->line, path);
	} else if (m != 0100644 && m != 0100755 && m != 0100664) {
		return sk_error_set(SK_EINVALID, "%s:%zu: invalid mode '%.*s'",
				    ps->src, ps->line, SHOW(len), s);
	}
	*out = m;
	return 0;
}

/* "rename from P" and the like: P checked, and it must be the header's. */
static int moved_path(char **slot, struct parser *ps, const struct cursor *c,
		      size_t skip, const char *git_path, unsigned int flag)
{
	const char *s = c->p + skip;
	size_t len = c->len - skip;

	if (!sk_diff_path_ok(s, len))
		return unsafe(ps, s, len);
	if (strlen(git_path) != len || memcmp(git_path, s, len))
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: '%.*s' does not match the 'diff --git' line at %zu",
				    ps->src, ps->line, SHOW(c->len), c->p,
				    ps->cur->line);
	free(*slot);
	*slot = sk_xstrndup(s, len);
	ps->cur->flags |= flag;
	return 0;
}

static int mode_line(struct parser *ps, const struct cursor *c, size_t skip,
		     unsigned int *slot, const char *path, unsigned int flag)
{
	ps->cur->flags |= flag;
	return mode_value(slot, ps, c->p + skip, c->len - skip, path);
}

/* Copy len bytes of hex digits (at most 40) into out; else leave it "". */
static void blob_id(char out[41], const char *p, size_t len)
{
	size_t i;

	if (!len || len > 40)
		return;
	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)p[i]))
			return;
	memcpy(out, p, len);
	out[len] = '\0';
}

/* "index 1234abc..5678def 100644": the blob ids, and the mode when there is one. */
static int index_line(struct parser *ps, const struct cursor *c)
{
	const char *sp = memchr(c->p + 6, ' ', c->len - 6);
	const char *end = sp ? sp : c->p + c->len;
	const char *dots = memmem(c->p + 6, (size_t)(end - c->p - 6), "..", 2);
	unsigned int m;

	if (dots) {
		blob_id(ps->cur->old_blob, c->p + 6, (size_t)(dots - c->p - 6));
		blob_id(ps->cur->new_blob, dots + 2, (size_t)(end - dots - 2));
	}
	if (!sp)
		return 0;
	return mode_value(&m, ps, sp + 1, (size_t)(c->p + c->len - sp - 1),
			  ps->git_b);
}

/* The lines between "diff --git" and the first hunk.  1: not one of them. */
static int extended(struct parser *ps, const struct cursor *c)
{
	struct sk_diff_file *f = ps->cur;
	const char *a = ps->git_a, *b = ps->git_b;

	if (starts(c, "old mode "))
		return mode_line(ps, c, 9, &f->old_mode, a, SK_DIFF_MODE);
	if (starts(c, "new mode "))
		return mode_line(ps, c, 9, &f->new_mode, b, SK_DIFF_MODE);
	if (starts(c, "new file mode "))
		return mode_line(ps, c, 14, &f->new_mode, b, SK_DIFF_NEW);
	if (starts(c, "deleted file mode "))
		return mode_line(ps, c, 18, &f->old_mode, a, SK_DIFF_DELETED);
	if (starts(c, "rename from "))
		return moved_path(&f->old_path, ps, c, 12, a, SK_DIFF_RENAME);
	if (starts(c, "rename to "))
		return moved_path(&f->new_path, ps, c, 10, b, SK_DIFF_RENAME);
	if (starts(c, "copy from "))
		return moved_path(&f->old_path, ps, c, 10, a, SK_DIFF_COPY);
	if (starts(c, "copy to "))
		return moved_path(&f->new_path, ps, c, 8, b, SK_DIFF_COPY);
	if (starts(c, "index "))
		return index_line(ps, c);
	if (starts(c, "Binary files ")) {
		f->flags |= SK_DIFF_BINARY;
		return 0;
	}
	return 1;
}

/* ---- hunks ---- */

/* A decimal number of at most SK_DIFF_MAX_LINE; 0 on success. */
static int number(long *out, const char **p, const char *end)
{
	long v = 0;

	if (*p >= end || **p < '0' || **p > '9')
		return -1;
	while (*p < end && **p >= '0' && **p <= '9') {
		int digit = **p - '0';

		if (v > (SK_DIFF_MAX_LINE - digit) / 10)
			return -2;
		v = v * 10 + digit;
		(*p)++;
	}
	*out = v;
	return 0;
}

static int range(long *start, long *count, const char **p, const char *end)
{
	int ret = number(start, p, end);

	*count = 1;
	if (!ret && *p < end && **p == ',') {
		(*p)++;
		ret = number(count, p, end);
	}
	return ret;
}

static int hunk_header(struct parser *ps, const struct cursor *c)
{
	const char *p = c->p + 4, *end = c->p + c->len;
	struct sk_diff_file *f = ps->cur;
	struct sk_diff_hunk *h;
	long os, oc, ns = 0, nc = 0;
	int r = range(&os, &oc, &p, end);

	if (!r && (end - p < 2 || memcmp(p, " +", 2)))
		r = -1;
	if (!r) {
		p += 2;
		r = range(&ns, &nc, &p, end);
	}
	if (!r && (end - p < 3 || memcmp(p, " @@", 3)))
		r = -1;
	if (r == -2)
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: line number out of range in hunk header '%.*s'",
				    ps->src, ps->line, SHOW(c->len), c->p);
	if (r || (!os && oc) || (!ns && nc) || (!oc && !nc))
		return sk_error_set(SK_EINVALID, "%s:%zu: malformed hunk header '%.*s'",
				    ps->src, ps->line, SHOW(c->len), c->p);
	if (!f || !ps->have_sides)
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: hunk without '---' and '+++' lines before it",
				    ps->src, ps->line);
	if (f->flags & SK_DIFF_BINARY)
		return sk_error_set(SK_EINVALID, "%s:%zu: hunk in a binary diff",
				    ps->src, ps->line);
	h = SK_ARRAY_PUSH(f->hunks, f->nr_hunks, f->alloc_hunks);
	memset(h, 0, sizeof(*h));
	h->old_start = os;
	h->old_count = oc;
	h->new_start = ns;
	h->new_count = nc;
	h->line = ps->line;
	h->begin = (size_t)(c->p - ps->text);
	p += 3;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end)
		h->funcname = sk_xstrndup(p, (size_t)(end - p));
	ps->hunk = h;
	ps->old_left = oc;
	ps->new_left = nc;
	return 0;
}

static int truncated(const struct parser *ps)
{
	return sk_error_set(SK_EINVALID,
			    "%s:%zu: truncated patch: the hunk at line %zu ends early (%ld old and %ld new lines missing)",
			    ps->src, ps->line, ps->hunk->line, ps->old_left,
			    ps->new_left);
}

/* One line of the open hunk. */
static int hunk_line(struct parser *ps, const struct cursor *c)
{
	struct sk_diff_hunk *h = ps->hunk;
	struct sk_diff_line *l;
	char o = c->len ? c->p[0] : ' ';

	if (o == '\\') {
		if (h->nr_lines)
			h->lines[h->nr_lines - 1].no_newline = 1;
		return 0;
	}
	if (o != ' ' && o != '-' && o != '+')
		return truncated(ps);
	if ((o != '+' && !ps->old_left) || (o != '-' && !ps->new_left))
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: corrupt patch: the hunk at line %zu has more lines than its header counts",
				    ps->src, ps->line, h->line);
	if (o != '+')
		ps->old_left--;
	if (o != '-')
		ps->new_left--;
	l = SK_ARRAY_PUSH(h->lines, h->nr_lines, h->alloc_lines);
	l->origin = o;
	l->no_newline = 0;
	l->len = c->len ? c->len - 1 : 0;
	l->text = sk_xstrndup(c->len ? c->p + 1 : c->p, l->len);
	return 0;
}

/* ---- the whole ---- */

/* "--- X" then "+++ Y": a file's sides. */
static int is_sides(const struct cursor *c, const struct parser *ps)
{
	return starts(c, "--- ") && ps->end - c->next >= 4 &&
	       !memcmp(c->next, "+++ ", 4);
}

static const char *skip_binary(struct parser *ps, const char *p)
{
	struct cursor c;

	ps->cur->flags |= SK_DIFF_BINARY;
	for (; p < ps->end; p = c.next, ps->line++) {
		next_line(&c, ps, p);
		if (starts(&c, "diff --git "))
			break;
	}
	return p;
}

/*
 * A line outside any file that another reader could still take for a
 * path ("--- X" without its "+++", "rename to X" without "diff --git"):
 * its path is checked all the same.
 */
static int stray(struct parser *ps, const struct cursor *c)
{
	static const char *const heads[] = {
		"--- ", "+++ ", "rename from ", "rename to ", "copy from ",
		"copy to ", NULL
	};
	const char *s, *tab;
	size_t i, len;

	for (i = 0; heads[i] && !starts(c, heads[i]); i++)
		;
	if (!heads[i])
		return 0;
	s = c->p + strlen(heads[i]);
	len = c->len - strlen(heads[i]);
	tab = i < 2 ? memchr(s, '\t', len) : NULL;
	if (tab)
		len = (size_t)(tab - s);
	if (i < 2 && len == 9 && !memcmp(s, "/dev/null", 9))
		return 0;
	return sk_diff_path_ok(s, len) ? 0 : unsafe(ps, s, len);
}

static int parse_line(struct parser *ps, struct cursor *c)
{
	int ret;

	if (ps->hunk) {
		ret = hunk_line(ps, c);
		if (!ret && !ps->old_left && !ps->new_left) {
			struct cursor n;

			if (c->next < ps->end) {
				next_line(&n, ps, c->next);
				if (n.len && n.p[0] == '\\') {
					ps->line++;
					ret = hunk_line(ps, &n);
					c->next = n.next;
				}
			}
			ps->hunk->end = (size_t)(c->next - ps->text);
			ps->hunk = NULL;
		}
		return ret;
	}
	if (starts(c, "diff --git ")) {
		finish_file(ps);
		start_file(ps, c);
		return git_header(ps, c);
	}
	if (is_sides(c, ps)) {
		struct cursor plus;

		if (!ps->cur || ps->have_sides || ps->cur->nr_hunks ||
		    !(ps->cur->flags & SK_DIFF_GIT)) {
			finish_file(ps);
			start_file(ps, c);
		}
		next_line(&plus, ps, c->next);
		ret = sides(ps, c, &plus);
		c->next = plus.next;
		return ret;
	}
	if (starts(c, "@@ -"))
		return hunk_header(ps, c);
	if (ps->cur && (ps->cur->flags & SK_DIFF_GIT) && !ps->cur->nr_hunks) {
		if (starts(c, "GIT binary patch")) {
			c->next = skip_binary(ps, c->next);
			return 0;
		}
		ret = extended(ps, c);
		if (ret <= 0)
			return ret;
	}
	return stray(ps, c);
}

int sk_diff_parse(struct sk_diff *out, const char *text, size_t len,
		  const char *source, size_t first_line, unsigned int flags)
{
	struct parser ps = { 0 };
	const char *p = text, *nul = memchr(text, '\0', len);
	int ret = 0;

	memset(out, 0, sizeof(*out));
	ps.d = out;
	ps.text = text;
	ps.end = text + len;
	ps.src = source;
	ps.flags = flags;
	ps.line = first_line;
	if (nul) {
		ps.end = nul;
		for (; p < nul; p++)
			ps.line += *p == '\n';
		ret = sk_error_set(SK_EINVALID, "%s:%zu: NUL byte in diff",
				   source, ps.line);
		goto out;
	}
	while (!ret && p < ps.end) {
		struct cursor c;

		next_line(&c, &ps, p);
		ret = parse_line(&ps, &c);
		p = c.next;
		ps.line++;
	}
	if (!ret && ps.hunk)
		ret = truncated(&ps);
	if (!ret) {
		finish_file(&ps);
		if (out->nr)
			out->files[out->nr - 1].end = len;
	}
out:
	free(ps.git_a);
	free(ps.git_b);
	if (ret)
		sk_diff_release(out);
	return ret;
}

/* ---- helpers for callers ---- */

const char *sk_diff_find(const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *n1 = strchr(p, '\n'), *n2;

		if (!strncmp(p, "diff --git ", 11))
			return p;
		if (n1 && !strncmp(p, "--- ", 4) && !strncmp(n1 + 1, "+++ ", 4)) {
			n2 = strchr(n1 + 1, '\n');
			if (n2 && !strncmp(n2 + 1, "@@ -", 4))
				return p;
		}
		p = n1 ? n1 + 1 : NULL;
	}
	return NULL;
}

static void add_path(char ***paths, size_t *nr, size_t *alloc, const char *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < *nr; i++)
		if (!strcmp((*paths)[i], p))
			return;
	*SK_ARRAY_PUSH(*paths, *nr, *alloc) = sk_xstrdup(p);
}

void sk_diff_paths(char ***paths, size_t *nr, size_t *alloc,
		   const struct sk_diff *d, unsigned int flags)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		add_path(paths, nr, alloc, d->files[i].new_path);
		if (flags & SK_DIFF_PATHS_OLD)
			add_path(paths, nr, alloc, d->files[i].old_path);
	}
}

int sk_diff_has_quilt(const struct sk_diff *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (!(d->files[i].flags & SK_DIFF_GIT))
			return 1;
	return 0;
}

static void quilt_to_git(struct sk_strbuf *out, const char *text,
			 const struct sk_diff_file *f)
{
	const char *a = f->old_path ? f->old_path : f->new_path;
	const char *b = f->new_path ? f->new_path : f->old_path;
	size_t i;

	/*
	 * Placeholder blob ids: without an index line libgit2's patch-id is
	 * not git's (git patch-id --stable gives the same for both forms).
	 */
	sk_strbuf_addf(out, "diff --git a/%s b/%s\n", a, b);
	if (f->flags & SK_DIFF_NEW)
		sk_strbuf_adds(out, "new file mode 100644\nindex 0000000..1111111\n");
	else if (f->flags & SK_DIFF_DELETED)
		sk_strbuf_adds(out, "deleted file mode 100644\nindex 1111111..0000000\n");
	else
		sk_strbuf_adds(out, "index 1111111..2222222 100644\n");
	if (f->old_path)
		sk_strbuf_addf(out, "--- a/%s\n", f->old_path);
	else
		sk_strbuf_adds(out, "--- /dev/null\n");
	if (f->new_path)
		sk_strbuf_addf(out, "+++ b/%s\n", f->new_path);
	else
		sk_strbuf_adds(out, "+++ /dev/null\n");
	for (i = 0; i < f->nr_hunks; i++) {
		const struct sk_diff_hunk *h = &f->hunks[i];

		sk_strbuf_add(out, text + h->begin, h->end - h->begin);
	}
}

void sk_diff_to_git(struct sk_strbuf *out, const char *text,
		    const struct sk_diff *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++) {
		const struct sk_diff_file *f = &d->files[i];

		if (f->flags & SK_DIFF_GIT)
			sk_strbuf_add(out, text + f->begin, f->end - f->begin);
		else
			quilt_to_git(out, text, f);
	}
}

int sk_diff_check_inside(const char *dir, const char *path)
{
	char *full = sk_path_join(dir, path);
	size_t base = strlen(full) - strlen(path), i;
	int ret = 0;

	for (i = base; !ret && full[i]; i++) {
		struct stat st;
		char save;

		if (full[i + 1] != '/' && full[i + 1] != '\0')
			continue;
		save = full[i + 1];
		full[i + 1] = '\0';
		if (lstat(full, &st)) {
			full[i + 1] = save;
			break;
		}
		if (S_ISLNK(st.st_mode))
			ret = sk_error_set(SK_EINVALID,
					   "'%s' leads through the symbolic link '%s'",
					   path, full + base);
		full[i + 1] = save;
	}
	free(full);
	return ret;
}
