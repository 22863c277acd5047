#include "track/commitfacts.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
	[SK_UPREF_COMMIT_UPSTREAM] = "commit <sha> upstream.",
	[SK_UPREF_UPSTREAM_COMMIT] = "[ Upstream commit <sha> ]",
	[SK_UPREF_CHERRY_PICK] = "(cherry picked from commit <sha>)",
	[SK_UPREF_REVERT] = "This reverts commit <sha>.",
};

const char *sk_upref_kind_name(enum sk_upref_kind kind)
{
	return kind_names[kind];
}

static size_t hex_run(const char *p)
{
	size_t n = 0;

	while (isxdigit((unsigned char)p[n]))
		n++;
	return n;
}

static int starts_ci(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

static void add_upref(struct sk_commit_facts *f, const char *sha, size_t len,
		      enum sk_upref_kind kind)
{
	struct sk_upref *u;
	size_t i;

	if (len < 12 || len > 40)
		return;
	u = SK_ARRAY_PUSH(f->uprefs, f->nr_uprefs, f->alloc_uprefs);
	for (i = 0; i < len; i++)
		u->sha[i] = tolower((unsigned char)sha[i]);
	u->sha[len] = '\0';
	u->kind = kind;
}

static void add_msgid(struct sk_commit_facts *f, const char *s, size_t len)
{
	while (len && (*s == '<' || *s == ' ')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == '>' || s[len - 1] == ' ' ||
		       s[len - 1] == '/'))
		len--;
	if (len && memchr(s, '@', len))
		*SK_ARRAY_PUSH(f->msgids, f->nr_msgids, f->alloc_msgids) =
			sk_xstrndup(s, len);
}

/* Link: https://lore.kernel.org/r/<id>, .../all/<id>/, patch.msgid.link/<id> */
static void parse_link(struct sk_commit_facts *f, const char *v, size_t len)
{
	static const char *const marks[] = { "/r/", "/all/",
					     "patch.msgid.link/", NULL };
	const char *end = v + len;
	int i;

	for (i = 0; marks[i]; i++) {
		const char *p = memmem(v, len, marks[i], strlen(marks[i]));
		const char *e;

		if (!p)
			continue;
		p += strlen(marks[i]);
		e = p;
		while (e < end && *e != '/' && *e != ' ' && *e != '>')
			e++;
		add_msgid(f, p, e - p);
		return;
	}
}

static void parse_fixes(struct sk_commit_facts *f, const char *v, size_t len)
{
	const char *end = v + len, *q;
	struct sk_commit_fix *fx;
	size_t n = hex_run(v), i;

	if (n < 8 || n > 40)
		return;
	fx = SK_ARRAY_PUSH(f->fixes, f->nr_fixes, f->alloc_fixes);
	for (i = 0; i < n; i++)
		fx->sha[i] = tolower((unsigned char)v[i]);
	fx->sha[n] = '\0';
	fx->subject = NULL;
	q = memchr(v + n, '"', end - v - n);
	if (q) {
		const char *e = end;

		q++;
		while (e > q && e[-1] != '"')
			e--;
		if (e > q)
			fx->subject = sk_xstrndup(q, e - 1 - q);
	}
}

static void parse_line(struct sk_commit_facts *f, const char *l, size_t len)
{
	const char *end = l + len, *p;
	size_t n;

	while (l < end && (*l == ' ' || *l == '\t'))
		l++;
	len = end - l;
	/* the first letters of what is looked for: most lines are not */
	if (!len || !strchr("cC[(tTlLmMfF", *l))
		return;
	if (starts_ci(l, "commit ") && (n = hex_run(l + 7)) >= 12 &&
	    !strncmp(l + 7 + n, " upstream", 9)) {
		add_upref(f, l + 7, n, SK_UPREF_COMMIT_UPSTREAM);
	} else if (*l == '[' && (p = l + 1 + strspn(l + 1, " ")) &&
		   starts_ci(p, "upstream commit ")) {
		p += 16;
		add_upref(f, p, hex_run(p), SK_UPREF_UPSTREAM_COMMIT);
	} else if (starts_ci(l, "(cherry picked from commit ")) {
		p = l + 27;
		add_upref(f, p, hex_run(p), SK_UPREF_CHERRY_PICK);
	} else if (starts_ci(l, "This reverts commit ")) {
		p = l + 20;
		add_upref(f, p, hex_run(p), SK_UPREF_REVERT);
	} else if (starts_ci(l, "Link:")) {
		parse_link(f, l + 5, len - 5);
	} else if (starts_ci(l, "Message-Id:")) {
		add_msgid(f, l + 11, len - 11);
	} else if (starts_ci(l, "Fixes:")) {
		p = l + 6;
		while (p < end && *p == ' ')
			p++;
		parse_fixes(f, p, end - p);
	}
}

int sk_commit_facts_parse(struct sk_commit_facts *out, const char *msg)
{
	const char *p = msg;

	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > 5)
			parse_line(out, p, len);
		p = eol ? eol + 1 : NULL;
	}
	return 0;
}

static int is_hex40(const char *p)
{
	int i;

	for (i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

static int line_is(const char *line, const char *eol, const char *key)
{
	size_t n = strlen(key);

	return (size_t)(eol - line) >= n && !memcmp(line, key, n);
}

int sk_commit_raw_parse(struct sk_commit_raw *out, const char *data,
			size_t len)
{
	const char *p = data, *end = data + len;
	int author = 0, committer = 0;

	memset(out, 0, sizeof(*out));
	out->message = end;
	/* tree, parents, then the other headers up to a blank line */
	if (len < 46 || memcmp(p, "tree ", 5) || !is_hex40(p + 5) ||
	    p[45] != '\n')
		return -1;
	p += 46;
	out->parents = p + 7;
	while (end - p >= SK_COMMIT_RAW_PARENT_STRIDE &&
	       !memcmp(p, "parent ", 7)) {
		if (!is_hex40(p + 7) || p[47] != '\n')
			return -1;
		out->nr_parents++;
		p += SK_COMMIT_RAW_PARENT_STRIDE;
	}
	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);

		if (!eol)
			eol = end;
		if (eol == p) {
			out->message = p + 1;
			break;
		}
		/* the first of each, as libgit2 reads them */
		if (!author && line_is(p, eol, "author ")) {
			const char *lt = memrchr(p, '<', eol - p);
			const char *gt = memrchr(p, '>', eol - p);

			author = 1;
			if (lt) {
				const char *n = p + 7, *e = lt;

				while (n < e && isspace((unsigned char)*n))
					n++;
				while (e > n && isspace((unsigned char)e[-1]))
					e--;
				out->name = n;
				out->name_len = e - n;
			}
			if (lt && gt && gt > lt) {
				lt++;
				while (lt < gt && isspace((unsigned char)*lt))
					lt++;
				while (gt > lt &&
				       isspace((unsigned char)gt[-1]))
					gt--;
				out->email = lt;
				out->email_len = gt - lt;
			}
		} else if (!committer && line_is(p, eol, "committer ")) {
			const char *gt = memrchr(p, '>', eol - p);
			long long t = 0;

			committer = 1;
			for (gt = gt ? gt + 1 : eol; gt < eol && *gt == ' '; gt++)
				;
			/* a date past what 64 bits hold is the latest one */
			for (; gt < eol && isdigit((unsigned char)*gt); gt++)
				t = t > (LLONG_MAX - (*gt - '0')) / 10 ?
				    LLONG_MAX : t * 10 + (*gt - '0');
			out->time = t;
		}
		p = eol + 1;
	}
	if (!author || !committer)
		return -1;
	out->message_len = end - out->message;
	return 0;
}

void sk_commit_summary(struct sk_strbuf *out, const char *msg)
{
	const char *space = NULL, *next, *word;
	int newline = 0;

	sk_strbuf_reset(out);
	while (*msg == '\n')
		msg++;
	while (*msg) {
		/* a word at a time: a summary is read for every commit */
		for (word = msg; *msg && !isspace((unsigned char)*msg); msg++)
			;
		if (msg > word) {
			if (space && newline)
				sk_strbuf_addch(out, ' ');
			else if (space)
				sk_strbuf_add(out, space, word - space);
			space = NULL;
			sk_strbuf_add(out, word, msg - word);
			if (!*msg)
				break;
		}
		if (*msg == '\n') {
			/* the first paragraph ends at a blank line */
			if (!msg[1] || msg[1] == '\n')
				break;
			for (next = msg + 1; *next && *next != '\n' &&
			     isspace((unsigned char)*next); next++)
				;
			if (!*next || *next == '\n')
				break;
		}
		if (!space) {
			space = msg;
			newline = 0;
		}
		newline |= *msg == '\n';
		msg++;
	}
}

void sk_commit_facts_release(struct sk_commit_facts *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_msgids; i++)
		free(f->msgids[i]);
	for (i = 0; i < f->nr_fixes; i++)
		free(f->fixes[i].subject);
	free(f->msgids);
	free(f->fixes);
	free(f->uprefs);
	memset(f, 0, sizeof(*f));
}

static const char *skip_prefixes(const char *s)
{
	static const char *const tags[] = { "UPSTREAM:", "BACKPORT:",
					    "FROMGIT:", "FROMLIST:",
					    "ANDROID:", NULL };
	int again = 1, i;

	while (again) {
		again = 0;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '[') {
			const char *e = strchr(s, ']');

			if (e && (starts_ci(s + 1, "PATCH") ||
				  starts_ci(s + 1, "RFC") ||
				  starts_ci(s + 1, "fixlet"))) {
				s = e + 1;
				again = 1;
				continue;
			}
		}
		for (i = 0; tags[i]; i++)
			if (starts_ci(s, tags[i])) {
				s += strlen(tags[i]);
				again = 1;
			}
	}
	return s;
}

void sk_subject_norm(struct sk_strbuf *out, const char *subject)
{
	const char *s = skip_prefixes(subject);
	size_t len = 0;
	int blank = 0;
	char *d;

	/* never longer than the subject: written in place */
	sk_strbuf_reset(out);
	sk_strbuf_grow(out, strlen(s) + 1);
	d = out->buf;
	for (; *s; s++) {
		if (isspace((unsigned char)*s)) {
			blank = len > 0;
			continue;
		}
		if (blank)
			d[len++] = ' ';
		blank = 0;
		d[len++] = tolower((unsigned char)*s);
	}
	if (len && d[len - 1] == '.')
		len--;
	sk_strbuf_setlen(out, len);
}

char *sk_author_email(const char *author)
{
	const char *lt = strrchr(author, '<'), *gt;
	char *e;
	size_t i;

	if (lt && (gt = strchr(lt, '>')))
		e = sk_xstrndup(lt + 1, gt - lt - 1);
	else
		e = sk_xstrdup(author);
	for (i = 0; e[i]; i++)
		e[i] = tolower((unsigned char)e[i]);
	return e;
}
