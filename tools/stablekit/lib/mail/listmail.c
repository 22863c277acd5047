#include "mail/listmail.h"
#include "mail/patch.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct idnode {
	const char *id;
	size_t node;
};

static int cmp_idnode(const void *a, const void *b)
{
	return strcmp(((const struct idnode *)a)->id,
		      ((const struct idnode *)b)->id);
}

static size_t find_root(size_t *parent, size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

static void join(size_t *parent, size_t a, size_t b)
{
	a = find_root(parent, a);
	b = find_root(parent, b);
	if (a != b)
		parent[a > b ? a : b] = a < b ? a : b;
}

/* Every id the mails name, sorted, each with its node (equal ids: one). */
static size_t collect_ids(struct idnode **out, char ***owned,
			  const struct sk_mbox *mb)
{
	size_t n = 0, alloc = 0, i, j, nodes = 0;
	struct idnode *ids = NULL;
	char **own = sk_xcalloc(mb->nr * 2 + 1, sizeof(*own));

	for (i = 0; i < mb->nr; i++) {
		const struct sk_mail *m = &mb->mails[i];

		own[2 * i] = sk_msgid_strip(m->message_id);
		own[2 * i + 1] = sk_msgid_strip(m->in_reply_to);
		SK_ARRAY_PUSH(ids, n, alloc)->id = own[2 * i];
		if (*own[2 * i + 1])
			SK_ARRAY_PUSH(ids, n, alloc)->id = own[2 * i + 1];
		for (j = 0; j < m->nr_references; j++)
			SK_ARRAY_PUSH(ids, n, alloc)->id = m->references[j];
	}
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_idnode);
	for (i = 0; i < n; i++) {
		if (i && strcmp(ids[i].id, ids[i - 1].id))
			nodes++;
		ids[i].node = nodes;
	}
	*out = ids;
	*owned = own;
	return n;
}

static size_t node_of(const struct idnode *ids, size_t n, const char *id)
{
	struct idnode key = { id, 0 };
	const struct idnode *f = bsearch(&key, ids, n, sizeof(*ids), cmp_idnode);

	return f ? f->node : 0;
}

void sk_threads_build(struct sk_threads *out, const struct sk_mbox *mb)
{
	struct idnode *ids;
	char **own;
	size_t n = collect_ids(&ids, &own, mb), i, j;
	size_t *parent = sk_xcalloc(n + 1, sizeof(*parent));
	size_t *number = sk_xcalloc(n + 1, sizeof(*number));

	for (i = 0; i <= n; i++)
		parent[i] = i;
	out->of = sk_xcalloc(mb->nr + 1, sizeof(*out->of));
	out->nr = 0;
	for (i = 0; i < mb->nr; i++) {
		const struct sk_mail *m = &mb->mails[i];
		size_t self = node_of(ids, n, own[2 * i]);

		if (*own[2 * i + 1])
			join(parent, self, node_of(ids, n, own[2 * i + 1]));
		for (j = 0; j < m->nr_references; j++)
			join(parent, self, node_of(ids, n, m->references[j]));
	}
	/* threads numbered in the order of their first mail */
	for (i = 0; i <= n; i++)
		number[i] = (size_t)-1;
	for (i = 0; i < mb->nr; i++) {
		size_t r = find_root(parent, node_of(ids, n, own[2 * i]));

		if (number[r] == (size_t)-1)
			number[r] = out->nr++;
		out->of[i] = number[r];
	}
	for (i = 0; i < mb->nr * 2; i++)
		free(own[i]);
	free(own);
	free(ids);
	free(parent);
	free(number);
}

void sk_threads_release(struct sk_threads *t)
{
	free(t->of);
	t->of = NULL;
	t->nr = 0;
}

long sk_listmail_find(const struct sk_mbox *mb, const char *msgid)
{
	char *want = sk_msgid_strip(msgid);
	long found = -1;
	size_t i;

	for (i = 0; i < mb->nr && found < 0; i++) {
		char *id = sk_msgid_strip(mb->mails[i].message_id);

		if (*want && !strcmp(id, want))
			found = (long)i;
		free(id);
	}
	free(want);
	return found;
}

/* "6.12", "6.1.y", "5.15.180", "6.x": a stable tree's name. */
static int stable_tree_tag(const char *p, size_t n)
{
	size_t i, dots = 0;

	if (!n || !isdigit((unsigned char)p[0]))
		return 0;
	for (i = 0; i < n; i++) {
		if (p[i] == '.')
			dots++;
		else if (!isdigit((unsigned char)p[i]) &&
			 !(i == n - 1 && (p[i] == 'y' || p[i] == 'x')))
			return 0;
	}
	return dots >= 1 && p[n - 1] != '.';
}

/* Which of the tags in the first [..] groups: AUTOSEL, a stable tree. */
static void tags_of(const char *subject, int *autosel, int *tree)
{
	const char *p = subject;

	*autosel = *tree = 0;
	while (*p == ' ')
		p++;
	while (*p == '[') {
		const char *close = strchr(p, ']');

		if (!close)
			return;
		for (p++; p < close;) {
			size_t n = 0;

			while (p < close && (*p == ' ' || *p == ','))
				p++;
			while (p + n < close && p[n] != ' ' && p[n] != ',')
				n++;
			if (n == 7 && !strncasecmp(p, "AUTOSEL", 7))
				*autosel = 1;
			else if (stable_tree_tag(p, n))
				*tree = 1;
			p += n;
		}
		p = close + 1;
		while (*p == ' ')
			p++;
	}
}

char *sk_failed_subject(const char *subject)
{
	const char *p = subject, *q;

	while (*p == ' ')
		p++;
	/* Greg writes "patch", Sasha "Patch" */
	if (strncmp(p, "FAILED: ", 8) || strncasecmp(p + 8, "patch \"", 7))
		return NULL;
	p += 15;
	q = strstr(p, "\" failed to apply to ");
	if (!q || q == p)
		return NULL;
	return sk_xstrndup(p, (size_t)(q - p));
}

char *sk_failed_tree(const char *subject)
{
	char *patch = sk_failed_subject(subject);
	const char *p, *end;

	if (!patch)
		return NULL;
	free(patch);
	p = strstr(subject, "\" failed to apply to ") + 21;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if (end - p > 5 && !strncmp(end - 5, " tree", 5))
		end -= 5;
	return end > p ? sk_xstrndup(p, (size_t)(end - p)) : NULL;
}

static int hex_run(const char *p, size_t *len)
{
	size_t n = 0;

	while (isxdigit((unsigned char)p[n]) && !isupper((unsigned char)p[n]))
		n++;
	*len = n;
	return n >= 12 && n <= 40;
}

/* The commit after prefix at the start of a line, if followed by suffix. */
static char *line_commit(const char *line, const char *prefix,
			 const char *suffix)
{
	size_t n = strlen(prefix), len;

	if (strncmp(line, prefix, n) || !hex_run(line + n, &len))
		return NULL;
	if (strncmp(line + n + len, suffix, strlen(suffix)))
		return NULL;
	return sk_xstrndup(line + n, len);
}

char *sk_mail_upstream(const char *body)
{
	const char *p = body;
	char *c = NULL;

	while (p && *p && !c) {
		c = line_commit(p, "commit ", " upstream");
		if (!c)
			c = line_commit(p, "[ Upstream commit ", " ]");
		if (!c)
			c = line_commit(p, "[ upstream commit ", " ]");
		if (!c)
			c = line_commit(p, "git cherry-pick -x ", "\n");
		if (!c)	/* the original commit pasted in a FAILED mail */
			c = line_commit(p, "From ", " Mon Sep 17 00:00:00 2001\n");
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return c;
}

const char *sk_stable_review_body(const char *body)
{
	const char *p = body, *dashes;
	int lines;

	if (!strstr(body, "-stable review patch.") ||
	    strstr(body, "-stable review patch.") - body > 200)
		return body;
	for (lines = 0; p && *p && lines < 6; lines++) {
		dashes = p;
		p = strchr(p, '\n');
		if (p)
			p++;
		if (!strncmp(dashes, "------------------\n", 19)) {
			while (p && *p == '\n')
				p++;
			return p ? p : body;
		}
	}
	return body;
}

enum sk_mail_kind sk_mail_kind(const struct sk_mail *m)
{
	struct sk_subject s;
	enum sk_mail_kind k = SK_MAIL_NONE;
	char *failed = sk_failed_subject(m->subject);
	int autosel, tree;

	if (failed) {
		free(failed);
		return SK_MAIL_FAILED;
	}
	sk_subject_parse(&s, m->subject);
	if (!(s.flags & SK_SUBJ_REPLY) && (s.flags & (SK_SUBJ_PATCH | SK_SUBJ_RFC)) &&
	    !sk_subject_is_cover(&s))
		k = SK_MAIL_PATCH;
	sk_subject_release(&s);
	if (k != SK_MAIL_PATCH)
		return k;
	tags_of(m->subject, &autosel, &tree);
	if (autosel)
		return SK_MAIL_AUTOSEL;
	if (tree) {
		char *up = sk_mail_upstream(m->body);

		if (up)
			k = SK_MAIL_STABLE_REVIEW;
		free(up);
	}
	return k;
}

const char *sk_mail_kind_name(enum sk_mail_kind k)
{
	switch (k) {
	case SK_MAIL_PATCH:
		return "series";
	case SK_MAIL_STABLE_REVIEW:
		return "stable-review";
	case SK_MAIL_AUTOSEL:
		return "autosel";
	case SK_MAIL_FAILED:
		return "failed";
	default:
		return NULL;
	}
}
