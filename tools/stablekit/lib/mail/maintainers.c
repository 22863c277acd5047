#include "mail/maintainers.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_entry(const char *s, size_t len)
{
	return len >= 3 && isupper((unsigned char)s[0]) && s[1] == ':' &&
	       (s[2] == '\t' || s[2] == ' ');
}

static int quantifier(char c)
{
	return c == '+' || c == '*' || c == '?' || c == '{';
}

/*
 * Can an N: pattern be matched in bounded time?  glibc's regex grows
 * without bound on repeated or nested quantifiers ("a++++..." took 20 s
 * and 3 GB at 22 of them); the kernel's own patterns are short words,
 * classes and at most a few single quantifiers.
 */
static int regex_tame(const char *re)
{
	int repeated[16] = { 0 }, depth = 0, count = 0, after = 0;
	const char *p;

	if (strlen(re) > 256)
		return 0;
	for (p = re; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			after = 0;
		} else if (*p == '[') {
			/* a bracket expression is one atom: skip to its end */
			p += p[1] == '^';
			p += p[1] == ']';
			while (p[1] && p[1] != ']')
				p++;
			after = 0;
		} else if (*p == '(') {
			if (depth == 15)
				return 0;
			repeated[++depth] = 0;
			after = 0;
		} else if (*p == ')') {
			after = depth > 0 && repeated[depth] ? 2 : 0;
			depth -= depth > 0;
		} else if (quantifier(*p)) {
			if (after || ++count > 32)
				return 0;	/* a quantifier of a quantifier */
			repeated[depth] = 1;
			if (*p == '{') {
				while (p[1] && p[1] != '}')
					p++;
				p += p[1] == '}';
			}
			after = 1;
		} else {
			after = 0;
		}
	}
	return 1;
}

/*
 * The entry of line p (len bytes, "X:\tvalue") into section cur.  One
 * with nothing after its tag ("M:") names no one: it is no entry.
 */
static int add_entry(struct sk_maint_section *cur, const char *p, size_t len,
		     const char *name, size_t line)
{
	const char *v = p + 2, *end = p + len;
	struct sk_maint_entry *e;

	while (*v == ' ' || *v == '\t')
		v++;
	while (end > v && isspace((unsigned char)end[-1]))
		end--;
	if (end == v)
		return 0;
	e = SK_ARRAY_PUSH(cur->entries, cur->nr, cur->alloc);
	e->tag = p[0];
	e->value = sk_xstrndup(v, (size_t)(end - v));
	e->rx = NULL;
	if (e->tag != 'N')
		return 0;
	if (!regex_tame(e->value))
		return sk_error_set(SK_EINVALID, "%s:%zu: N: pattern with "
				    "repeated or nested quantifiers, or too "
				    "long, to match in bounded time", name, line);
	/* compiled once: a series' files are matched against every section */
	e->rx = sk_xmalloc(sizeof(*e->rx));
	if (regcomp(e->rx, e->value, REG_EXTENDED | REG_NOSUB)) {
		free(e->rx);
		e->rx = NULL;	/* get_maintainer.pl's perl would die; it matches nothing */
	}
	return 0;
}

int sk_maintainers_parse(struct sk_maintainers *out, const char *name,
			 const char *text)
{
	const char *p = text, *prev = NULL;
	size_t prev_len = 0, line = 0;
	struct sk_maint_section *cur = NULL;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		line++;
		if (is_entry(p, len)) {
			int ret;

			if (!cur) {
				if (!prev || !prev_len)
					return sk_error_set(SK_EINVALID,
							    "%s:%zu: '%c:' entry outside a section",
							    name, line, p[0]);
				cur = SK_ARRAY_PUSH(out->sections, out->nr, out->alloc);
				memset(cur, 0, sizeof(*cur));
				cur->title = sk_xstrndup(prev, prev_len);
				cur->line = line - 1;
			}
			ret = add_entry(cur, p, len, name, line);
			if (ret)
				return ret;
		} else {
			cur = NULL;
			prev = p;
			prev_len = len;
		}
		p = nl ? nl + 1 : p + len;
	}
	return 0;
}

int sk_maintainers_load(struct sk_maintainers *out, const char *path)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int ret = sk_read_file(&sb, path);

	if (!ret)
		ret = sk_maintainers_parse(out, path, sb.buf);
	sk_strbuf_release(&sb);
	return ret;
}

void sk_maintainers_release(struct sk_maintainers *m)
{
	size_t i, j;

	for (i = 0; i < m->nr; i++) {
		for (j = 0; j < m->sections[i].nr; j++) {
			struct sk_maint_entry *e = &m->sections[i].entries[j];

			if (e->rx) {
				regfree(e->rx);
				free(e->rx);
			}
			free(e->value);
		}
		free(m->sections[i].entries);
		free(m->sections[i].title);
	}
	free(m->sections);
	memset(m, 0, sizeof(*m));
}

/* F: * and F: * / (no space): THE REST, which covers every file. */
static int catch_all(const char *pat)
{
	return !strcmp(pat, "*") || !strcmp(pat, "*/");
}

static int pattern_matches(const char *pat, const char *path)
{
	size_t n = strlen(pat);

	/* THE REST's directory glob: any file in a directory */
	if (!strcmp(pat, "*/"))
		return strchr(path, '/') != NULL;
	if (n && pat[n - 1] == '/')
		return !strncmp(path, pat, n);
	if (strpbrk(pat, "*?["))
		return !fnmatch(pat, path, FNM_PATHNAME);
	return !strcmp(pat, path) ||
	       (!strncmp(path, pat, n) && path[n] == '/');
}


size_t sk_maintainers_score(const struct sk_maint_section *s, const char *path)
{
	size_t i, best = 0;

	for (i = 0; i < s->nr; i++)
		if (s->entries[i].tag == 'X' && pattern_matches(s->entries[i].value, path))
			return 0;
	for (i = 0; i < s->nr; i++) {
		const struct sk_maint_entry *e = &s->entries[i];
		size_t score = 0;

		if (e->tag == 'F' && pattern_matches(e->value, path))
			score = catch_all(e->value) ? 1 : strlen(e->value);
		else if (e->tag == 'N' && e->rx && !regexec(e->rx, path, 0, NULL, 0))
			score = 1;
		if (score > best)
			best = score;
	}
	return best;
}

static int has(char **list, size_t nr, const char *who)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcasecmp(list[i], who))
			return 1;
	return 0;
}

void sk_recipients_add(struct sk_recipients *r, int to, const char *who)
{
	char ***list = to ? &r->to : &r->cc;
	size_t *nr = to ? &r->nr_to : &r->nr_cc;

	if (has(r->to, r->nr_to, who) || has(r->cc, r->nr_cc, who))
		return;
	*list = sk_xrealloc(*list, (*nr + 1) * sizeof(**list));
	(*list)[(*nr)++] = sk_xstrdup(who);
}

/* A section whose only F: patterns cover everything (THE REST). */
static int rest_only(const struct sk_maint_section *s)
{
	size_t i, f = 0;

	for (i = 0; i < s->nr; i++)
		if (s->entries[i].tag == 'F' || s->entries[i].tag == 'N') {
			if (s->entries[i].tag == 'N' ||
			    !catch_all(s->entries[i].value))
				return 0;
			f++;
		}
	return f > 0;
}

void sk_maintainers_recipients(struct sk_recipients *out,
			       const struct sk_maintainers *m,
			       const char *const *paths, size_t nr)
{
	size_t i, j, k;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nr; i++) {
		size_t best = 0;

		for (j = 0; j < m->nr; j++) {
			size_t sc = sk_maintainers_score(&m->sections[j], paths[i]);

			if (sc > best)
				best = sc;
		}
		for (j = 0; best && j < m->nr; j++) {
			const struct sk_maint_section *s = &m->sections[j];
			size_t sc = sk_maintainers_score(s, paths[i]);

			if (!sc)
				continue;
			for (k = 0; k < s->nr; k++) {
				char tag = s->entries[k].tag;

				/*
				 * THE REST under a more specific section: its
				 * list only (LKML), as get_maintainer.pl says
				 */
				if (tag != 'L' && sc < best && rest_only(s))
					continue;
				if (tag == 'M')
					sk_recipients_add(out, sc == best, s->entries[k].value);
				else if (tag == 'R' || tag == 'L')
					sk_recipients_add(out, 0, s->entries[k].value);
			}
		}
	}
}

void sk_recipients_release(struct sk_recipients *r)
{
	while (r->nr_to--)
		free(r->to[r->nr_to]);
	while (r->nr_cc--)
		free(r->cc[r->nr_cc]);
	free(r->to);
	free(r->cc);
	memset(r, 0, sizeof(*r));
}
