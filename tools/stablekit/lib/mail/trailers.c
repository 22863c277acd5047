#include "mail/trailers.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The ')' closing the subject: the last one of the value, before only
 * blanks or a "# 5.7" comment (the stable convention's note of the
 * release that has the fix).
 */
static const char *fixes_end(const char *p)
{
	const char *hash = strstr(p, ") #"), *close, *q;

	if (hash) {
		/* the comment is the text after the last ") #" */
		for (q = hash; (q = strstr(q + 1, ") #"));)
			hash = q;
		return hash;
	}
	close = strrchr(p, ')');
	if (!close)
		return NULL;
	for (q = close + 1; *q == ' ' || *q == '\t'; q++)
		;
	return *q ? NULL : close;
}

/*
 * git's reference style, "(subject, 2020-04-01)": the subject's length,
 * 0 when the parenthesis does not end in ", YYYY-MM-DD".
 */
static size_t reference_date(const char *open, const char *close)
{
	const char *d = close - 10;
	size_t i;

	if (close - open < 14 || d[-2] != ',' || d[-1] != ' ')
		return 0;
	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? d[i] != '-' : !isdigit((unsigned char)d[i]))
			return 0;
	return (size_t)(d - 2 - open - 1);
}

int sk_fixes_parse(struct sk_fixes *out, const char *value)
{
	const char *p = value, *open, *close;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	while (isxdigit((unsigned char)p[n]))
		n++;
	if (n < 8 || n > 40 || (p[n] && p[n] != ' '))
		return sk_error_set(SK_EINVALID,
				    "Fixes: '%s' does not start with a commit id", value);
	for (size_t i = 0; i < n; i++)
		out->sha[i] = (char)tolower((unsigned char)p[i]);
	out->sha[n] = '\0';
	p += n;
	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	if (*p != '(')
		return sk_error_set(SK_EINVALID,
				    "Fixes: '%s' lacks a complete (\"subject\")", value);
	close = fixes_end(p);
	open = p;
	if (close && close[-1] == '"' && open[1] == '"' && close - 1 > open + 1) {
		out->subject = sk_xstrndup(open + 2, (size_t)(close - 1 - open - 2));
		return 0;
	}
	if (close && (n = reference_date(open, close)) > 0) {
		out->subject = sk_xstrndup(open + 1, n);
		return 0;
	}
	return sk_error_set(SK_EINVALID,
			    "Fixes: '%s' lacks a complete (\"subject\")", value);
}

void sk_fixes_release(struct sk_fixes *f)
{
	free(f->subject);
	f->subject = NULL;
}

int sk_cc_is_stable(struct sk_cc_stable *out, const char *value)
{
	const char *hash;

	if (out)
		memset(out, 0, sizeof(*out));
	if (strcasestr(value, "stable+noautosel@"))
		return 0;
	if (!strcasestr(value, "stable@vger.kernel.org") &&
	    !strcasestr(value, "stable@kernel.org"))
		return 0;
	hash = strchr(value, '#');
	if (out && hash) {
		const char *p = hash + 1;

		while (*p == ' ')
			p++;
		out->note = sk_xstrdup(p);
		if (*p == 'v')
			p++;
		if (isdigit((unsigned char)*p)) {
			char *end;

			out->min_major = (int)strtol(p, &end, 10);
			if (*end == '.')
				out->min_minor = (int)strtol(end + 1, NULL, 10);
		}
	}
	return 1;
}

void sk_cc_stable_release(struct sk_cc_stable *c)
{
	free(c->note);
	c->note = NULL;
}

static int is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int sk_trailer_key_valid(const char *s, size_t len)
{
	size_t i;

	if (!len || !is_alpha(s[0]))
		return 0;
	for (i = 1; i < len; i++)
		if (!is_alpha(s[i]) && !(s[i] >= '0' && s[i] <= '9') &&
		    s[i] != '-')
			return 0;
	return 1;
}

/*
 * A trailer's key: ASCII letters, digits and '-', not starting with '-'.
 * Whether git-config can store it is sk_trailer_key_valid's question.
 */
static int trailer_key_len(const char *s, size_t len)
{
	size_t i;

	if (!len || s[0] == '-')
		return 0;
	for (i = 0; i < len && s[i] != ':'; i++)
		if (!is_alpha(s[i]) && !(s[i] >= '0' && s[i] <= '9') &&
		    s[i] != '-')
			return 0;
	if (i == len || i + 1 >= len || s[i + 1] != ' ')
		return 0;
	return (int)i;
}

static int is_note_line(const char *s, size_t len)
{
	return (len && s[0] == '[' && s[len - 1] == ']') ||
	       (len > 10 && !strncmp(s, "(cherry picked from", 19));
}

/* Is the paragraph [start, end) a trailer block? */
static int is_trailer_block(const char *start, const char *end)
{
	const char *p = start;
	int trailers = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len && (p[0] == ' ' || p[0] == '\t') && trailers)
			;
		else if (trailer_key_len(p, len))
			trailers++;
		else if (!is_note_line(p, len) && len)
			return 0;
		p = nl ? nl + 1 : end;
	}
	return trailers > 0;
}

/* The value of the trailer being read, continuation lines joined. */
static void flush_value(struct sk_trailer *t, struct sk_strbuf *value)
{
	if (t)
		t->value = sk_strbuf_detach(value);
}

size_t sk_trailers_parse(struct sk_trailer **out, size_t *nr, size_t *alloc,
			 const char *msg)
{
	size_t len = strlen(msg);
	const char *end = msg + len, *start, *p;
	struct sk_strbuf value = SK_STRBUF_INIT;
	struct sk_trailer *cur = NULL;

	while (end > msg && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	/* the last paragraph */
	for (start = end; start > msg; start--)
		if (start[-1] == '\n' && start - 1 > msg && start[-2] == '\n')
			break;
	if (start >= end || !is_trailer_block(start, end))
		return len;
	for (p = start; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int k = trailer_key_len(p, l);

		if (k) {
			const char *v = p + k + 1;

			flush_value(cur, &value);
			cur = SK_ARRAY_PUSH(*out, *nr, *alloc);
			while (*v == ' ')
				v++;
			cur->key = sk_xstrndup(p, (size_t)k);
			cur->value = NULL;
			sk_strbuf_add(&value, v, (size_t)(p + l - v));
		} else if (l && (p[0] == ' ' || p[0] == '\t') && cur) {
			const char *c = p;

			while (c < p + l && (*c == ' ' || *c == '\t'))
				c++;
			sk_strbuf_addch(&value, ' ');
			sk_strbuf_add(&value, c, (size_t)(p + l - c));
		}
		p = nl ? nl + 1 : end;
	}
	flush_value(cur, &value);
	return (size_t)(start - msg);
}

void sk_trailers_free(struct sk_trailer *t, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(t[i].key);
		free(t[i].value);
	}
	free(t);
}
