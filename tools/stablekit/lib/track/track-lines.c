#include "track/track-lines.h"
#include "core/strvec.h"
#include "core/error.h"
#include "core/patchid.h"

#include <stdlib.h>
#include <string.h>

static void add(struct sk_lines *l, const char *path, char sign,
		const char *text, size_t len)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	sk_strbuf_addf(&sb, "%s\t%c", path, sign);
	for (i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
		    text[i] != '\r')
			sk_strbuf_addch(&sb, text[i]);
	*SK_ARRAY_PUSH(l->items, l->nr, l->alloc) = sk_strbuf_detach(&sb);
}

static void sort(struct sk_lines *l)
{
	if (l->nr)
		qsort(l->items, l->nr, sizeof(*l->items), sk_str_cmp);
}

/* "@@ -a[,b] +c[,d] @@": the old and new line counts (default 1). */
static void hunk_counts(const char *p, long *old, long *new)
{
	char *e;

	*old = *new = 1;
	p = strchr(p, '-');
	if (!p)
		return;
	strtol(p + 1, &e, 10);
	if (*e == ',')
		*old = strtol(e + 1, &e, 10);
	p = strchr(e, '+');
	if (!p)
		return;
	strtol(p + 1, &e, 10);
	if (*e == ',')
		*new = strtol(e + 1, &e, 10);
}

void sk_lines_from_patch(struct sk_lines *out, const char *diff)
{
	const char *p = diff;
	char *path = NULL;
	long old = 0, new = 0;

	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (old > 0 || new > 0) {
			/* within a hunk, by its counts */
			if (*p == '+' || *p == '-')
				add(out, path, *p, p + 1, len - 1);
			if (*p != '+' && *p != '\\')
				old--;
			if (*p != '-' && *p != '\\')
				new--;
		} else if (!strncmp(p, "diff --git ", 11)) {
			const char *b = memmem(p, len, " b/", 3);

			free(path);
			path = b ? sk_xstrndup(b + 3, len - (b + 3 - p)) :
			       NULL;
		} else if (!strncmp(p, "+++ b/", 6)) {
			free(path);
			path = sk_xstrndup(p + 6, len - 6);
		} else if (!strncmp(p, "@@ -", 4) && path) {
			hunk_counts(p + 3, &old, &new);
		}
		p = eol ? eol + 1 : NULL;
	}
	free(path);
	sort(out);
}

static int line_cb(const git_diff_delta *d, const git_diff_hunk *h,
		   const git_diff_line *l, void *payload)
{
	const char *path = d->new_file.path ? d->new_file.path :
			   d->old_file.path;

	(void)h;
	if (l->origin == GIT_DIFF_LINE_ADDITION ||
	    l->origin == GIT_DIFF_LINE_DELETION)
		add(payload, path, l->origin, l->content, l->content_len);
	return 0;
}

int sk_lines_from_diff(struct sk_lines *out, git_diff *diff)
{
	memset(out, 0, sizeof(*out));
	if (git_diff_foreach(diff, NULL, NULL, NULL, line_cb, out))
		return sk_error_git(SK_ERROR, "lines of a diff");
	sort(out);
	return 0;
}

int sk_lines_from_commit(struct sk_lines *out, git_repository *repo,
			 const char *hex)
{
	git_oid oid;
	git_commit *c = NULL;
	git_diff *diff = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (git_oid_fromstr(&oid, hex) || git_commit_lookup(&c, repo, &oid)) {
		ret = sk_error_git(SK_ERROR, hex);
		goto out;
	}
	if (git_commit_parentcount(c) > 1)
		goto out;
	/* a renamed file's lines are its changes, as git shows them */
	if (sk_patchid_commit_diff(&diff, repo, c) ||
	    sk_lines_from_diff(out, diff))
		ret = sk_error_git(SK_ERROR, hex);
out:
	git_diff_free(diff);
	git_commit_free(c);
	return ret;
}

void sk_lines_release(struct sk_lines *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

size_t sk_lines_common(const struct sk_lines *a, const struct sk_lines *b)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->nr && j < b->nr) {
		int c = strcmp(a->items[i], b->items[j]);

		if (!c) {
			n++;
			i++;
			j++;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
	return n;
}

size_t sk_lines_cover(const struct sk_lines *a, const struct sk_lines *b,
		      unsigned char *mark, int set)
{
	size_t i = 0, j = 0, n = 0;

	while (i < a->nr && j < b->nr) {
		int c = strcmp(a->items[i], b->items[j]);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else if (mark[i]) {
			i++;	/* this copy is covered: b's may be the next */
		} else {
			if (set)
				mark[i] = 1;
			n++;
			i++;
			j++;
		}
	}
	return n;
}

static size_t path_len(const char *item)
{
	return strchr(item, '\t') - item;
}

/* "+N -M only in the <label>", after a comma unless first. */
static void only_one(struct sk_strbuf *out, const char *label,
		     const int count[2])
{
	if (count[0] || count[1])
		sk_strbuf_addf(out, "%s+%d -%d only in the %s",
			       out->len && out->buf[out->len - 1] != ' ' ?
			       ", " : "", count[0], count[1], label);
}

void sk_lines_difference(struct sk_strbuf *out, const struct sk_lines *a,
			 const struct sk_lines *b)
{
	size_t i = 0, j = 0, files = 0;

	sk_strbuf_reset(out);
	while (i < a->nr || j < b->nr) {
		const char *cur = i < a->nr && (j >= b->nr ||
			strncmp(a->items[i], b->items[j],
				path_len(a->items[i]) + 1) <= 0) ?
			a->items[i] : b->items[j];
		size_t pl = path_len(cur);
		int ca[2] = { 0, 0 }, cb[2] = { 0, 0 };

		while (i < a->nr || j < b->nr) {
			int ina = i < a->nr && path_len(a->items[i]) == pl &&
				  !strncmp(a->items[i], cur, pl);
			int inb = j < b->nr && path_len(b->items[j]) == pl &&
				  !strncmp(b->items[j], cur, pl);
			int c;

			if (!ina && !inb)
				break;
			c = ina && inb ? strcmp(a->items[i], b->items[j]) :
			    ina ? -1 : 1;
			if (!c) {
				i++;
				j++;
			} else if (c < 0) {
				ca[a->items[i][pl + 1] == '-']++;
				i++;
			} else {
				cb[b->items[j][pl + 1] == '-']++;
				j++;
			}
		}
		if (!ca[0] && !ca[1] && !cb[0] && !cb[1])
			continue;
		sk_strbuf_addf(out, "%s%.*s: ", files++ ? "; " : "", (int)pl,
			       cur);
		only_one(out, "patch", ca);
		only_one(out, "commit", cb);
	}
	if (!files)
		sk_strbuf_adds(out, "none");
}
