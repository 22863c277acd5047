#include "gate/ktap.h"
#include "core/strbuf.h"
#include "core/utf8.h"
#include "core/json.h"
#include "core/strvec.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const status_names[SK_KTAP_NR_STATUS] = {
	[SK_KTAP_PASS] = "pass",
	[SK_KTAP_FAIL] = "fail",
	[SK_KTAP_SKIP] = "skip",
	[SK_KTAP_XFAIL] = "xfail",
	[SK_KTAP_TIMEOUT] = "timeout",
	[SK_KTAP_MISSING] = "missing",
};

const char *sk_ktap_status_name(enum sk_ktap_status s)
{
	return (unsigned int)s < SK_KTAP_NR_STATUS ? status_names[s] : "?";
}

int sk_ktap_status_failed(enum sk_ktap_status s)
{
	return s == SK_KTAP_FAIL || s == SK_KTAP_TIMEOUT ||
	       s == SK_KTAP_MISSING;
}

enum line_kind { LINE_GARBAGE, LINE_VERSION, LINE_PLAN, LINE_RESULT,
		 LINE_COMMENT, LINE_BAIL };

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int is_result(const char *s)
{
	if (starts(s, "not ok "))
		s += 7;
	else if (starts(s, "ok "))
		s += 3;
	else
		return 0;
	return isdigit((unsigned char)*s);
}

static enum line_kind structural(const char *s)
{
	if (is_result(s))
		return LINE_RESULT;
	if (starts(s, "KTAP version ") || starts(s, "TAP version "))
		return LINE_VERSION;
	if (starts(s, "1..") && isdigit((unsigned char)s[3]))
		return LINE_PLAN;
	if (starts(s, "Bail out!"))
		return LINE_BAIL;
	return LINE_GARBAGE;
}

/*
 * Strip the nesting: four spaces or a tab per level (KTAP), or the
 * kselftest runner's "# " in front of a structural line.  A "#" line
 * whose remainder is not structural is a comment at the depth of its
 * first "#".  Iterative: a line is only as deep as its prefixes.
 */
static enum line_kind classify(const char *s, int *depth, const char **rest)
{
	const char *hash = NULL;
	int d = 0, hash_depth = 0;
	enum line_kind k;

	for (;;) {
		if (starts(s, "    ")) {
			s += 4;
		} else if (*s == '\t') {
			s++;
		} else if (s[0] == '#' && s[1] == ' ') {
			if (!hash) {
				hash = s;
				hash_depth = d;
			}
			s += 2;
		} else {
			break;
		}
		d++;
	}
	k = structural(s);
	if (k != LINE_GARBAGE || !hash) {
		*depth = d;
		*rest = s;
		return k == LINE_GARBAGE && *s == '#' ? LINE_COMMENT : k;
	}
	*depth = hash_depth;
	*rest = hash;
	return LINE_COMMENT;
}

static void parse_totals(struct sk_ktap *k, const char *s)
{
	struct sk_ktap_totals t = { 0 };

	while (*s == '#' || *s == ' ')
		s++;
	if (!starts(s, "Totals:"))
		return;
	if (sscanf(s, "Totals: pass:%u fail:%u xfail:%u xpass:%u skip:%u error:%u",
		   &t.pass, &t.fail, &t.xfail, &t.xpass, &t.skip,
		   &t.error) != 6)
		return;
	k->nr_totals++;
	k->totals.pass += t.pass;
	k->totals.fail += t.fail;
	k->totals.xfail += t.xfail;
	k->totals.xpass += t.xpass;
	k->totals.skip += t.skip;
	k->totals.error += t.error;
}

/* A decimal number clamped to 0..INT_MAX (atoi overflows). */
static int small_int(const char *s)
{
	long v = strtol(s, NULL, 10);

	return v < 0 ? 0 : v > INT_MAX ? INT_MAX : (int)v;
}

static char *trimmed(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return sk_xstrndup(s, len);
}

static enum sk_ktap_status directive(int ok, const char *d, char **reason)
{
	static const struct {
		const char *word;
		enum sk_ktap_status status;
	} words[] = {
		{ "SKIP", SK_KTAP_SKIP },
		{ "XFAIL", SK_KTAP_XFAIL },
		{ "TODO", SK_KTAP_XFAIL },
		{ "TIMEOUT", SK_KTAP_TIMEOUT },
	};
	size_t i;

	if (d) {
		*reason = trimmed(d, strlen(d));
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
			size_t n = strlen(words[i].word);

			if (!strncasecmp(d, words[i].word, n) &&
			    (!d[n] || isspace((unsigned char)d[n]))) {
				if (words[i].status == SK_KTAP_XFAIL && !ok)
					return SK_KTAP_FAIL;
				return words[i].status;
			}
		}
	}
	return ok ? SK_KTAP_PASS : SK_KTAP_FAIL;
}

static void adopt_children(struct sk_ktap *k, int depth)
{
	size_t i = k->nr - 1, parent = k->nr - 1;

	while (i-- > 0) {
		struct sk_ktap_test *t = &k->tests[i];

		if (t->depth <= depth)
			break;
		if (t->depth == depth + 1 && t->parent < 0) {
			t->parent = (int)parent;
			k->tests[parent].nr_subtests++;
		}
	}
}

static void add_result(struct sk_ktap *k, const char *s, int depth,
		       unsigned int lineno)
{
	struct sk_ktap_test *t;
	int ok = starts(s, "ok ");
	const char *p = s + (ok ? 3 : 7), *hash, *dir;
	char *end;
	long nr = strtol(p, &end, 10);

	if (nr > INT_MAX)
		nr = INT_MAX;

	p = end;
	while (*p == ' ')
		p++;
	if (*p == '-' && (p[1] == ' ' || !p[1]))
		p++;
	hash = *p == '#' ? p : strstr(p, " #");
	dir = hash ? hash + (*hash == ' ' ? 2 : 1) : NULL;
	while (dir && *dir == ' ')
		dir++;
	t = SK_ARRAY_PUSH(k->tests, k->nr, k->alloc);
	memset(t, 0, sizeof(*t));
	t->number = (int)nr;
	t->depth = depth;
	t->parent = -1;
	t->line = lineno;
	t->desc = trimmed(p, hash ? (size_t)(hash - p) : strlen(p));
	t->status = directive(ok, dir, &t->reason);
	adopt_children(k, depth);
}

static void line_error(struct sk_ktap *k, unsigned int lineno,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Kept: the first SK_KTAP_MAX_ERRORS messages; counted: all of them. */
static void line_error(struct sk_ktap *k, unsigned int lineno,
		       const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	va_list ap;

	if (k->nr_errors++ >= SK_KTAP_MAX_ERRORS)
		return;
	sk_strbuf_addf(&sb, "line %u: ", lineno);
	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	k->errors = sk_xrealloc(k->errors, k->nr_errors * sizeof(*k->errors));
	k->errors[k->nr_errors - 1] = sk_strbuf_detach(&sb);
}

static int is_structural(enum line_kind kind)
{
	return kind != LINE_GARBAGE && kind != LINE_COMMENT;
}

static void parse_line(struct sk_ktap *k, char *line, unsigned int lineno)
{
	int depth = 0;
	const char *rest;
	enum line_kind kind = classify(line, &depth, &rest);

	if (is_structural(kind) && depth > SK_KTAP_MAX_DEPTH) {
		line_error(k, lineno, "nested %d levels deep, more than %d",
			   depth, SK_KTAP_MAX_DEPTH);
		return;
	}
	switch (kind) {
	case LINE_VERSION:
		if (!depth && !k->version)
			k->version = small_int(strchr(rest, 'n') + 2);
		break;
	case LINE_PLAN:
		if (!depth && k->planned < 0)
			k->planned = small_int(rest + 3);
		break;
	case LINE_RESULT:
		if (k->nr >= SK_KTAP_MAX_TESTS) {
			line_error(k, lineno, "more than %d results",
				   SK_KTAP_MAX_TESTS);
			break;
		}
		add_result(k, rest, depth, lineno);
		break;
	case LINE_COMMENT:
		parse_totals(k, rest);
		break;
	case LINE_BAIL:
		k->bailed_out = 1;
		break;
	default:
		if (*line)
			k->nr_garbage++;
		break;
	}
}

/* "selftests: cgroup: test_memcontrol" is "cgroup/test_memcontrol". */
static char *base_name(const struct sk_ktap_test *t)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char *s = t->desc;

	if (!*s)
		return sk_xstrfmt("#%d", t->number);
	if (starts(s, "selftests: ")) {
		s += strlen("selftests: ");
		while (*s) {
			if (starts(s, ": ")) {
				sk_strbuf_addch(&sb, '/');
				s += 2;
			} else {
				sk_strbuf_addch(&sb, *s++);
			}
		}
		return sk_strbuf_detach(&sb);
	}
	return sk_xstrdup(s);
}

static void add_missing(struct sk_ktap *k)
{
	char *seen;
	size_t i;
	int n;

	if (k->planned <= 0 || k->planned > 100000)
		return;
	seen = sk_xcalloc((size_t)k->planned + 1, 1);
	for (i = 0; i < k->nr; i++)
		if (!k->tests[i].depth && k->tests[i].number > 0 &&
		    k->tests[i].number <= k->planned)
			seen[k->tests[i].number] = 1;
	for (n = 1; n <= k->planned; n++) {
		struct sk_ktap_test *t;

		if (seen[n])
			continue;
		t = SK_ARRAY_PUSH(k->tests, k->nr, k->alloc);
		memset(t, 0, sizeof(*t));
		t->number = n;
		t->parent = -1;
		t->desc = sk_xstrdup("");
		t->status = SK_KTAP_MISSING;
		t->reason = sk_xstrdup("no result line");
	}
	free(seen);
}

int sk_ktap_parse(struct sk_ktap *out, const char *text, size_t len)
{
	struct sk_strbuf line = SK_STRBUF_INIT, clean = SK_STRBUF_INIT;
	unsigned int lineno = 0;
	size_t i = 0, j;

	memset(out, 0, sizeof(*out));
	out->planned = -1;
	while (i < len) {
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		if (e - i > SK_KTAP_LINE_MAX) {
			line_error(out, ++lineno, "longer than %d bytes",
				   SK_KTAP_LINE_MAX);
			i = e + 1;
			continue;
		}
		sk_strbuf_reset(&line);
		sk_strbuf_grow(&line, e - i);	/* one check a line, not a byte */
		for (j = i; j < e; j++)
			if (text[j] != '\r' && text[j] != '\0')
				line.buf[line.len++] = text[j];
		line.buf[line.len] = '\0';
		sk_strbuf_rtrim(&line);
		++lineno;
		if (!sk_utf8_valid(line.buf, line.len)) {
			/* jansson refuses such a name: the test would vanish */
			sk_strbuf_reset(&clean);
			sk_utf8_scrub(&clean, line.buf, line.len);
			sk_strbuf_swap(&line, &clean);
			line_error(out, lineno, "invalid UTF-8 read as U+FFFD");
		}
		parse_line(out, line.buf, lineno);
		i = e + 1;
	}
	sk_strbuf_release(&line);
	sk_strbuf_release(&clean);
	add_missing(out);
	for (i = out->nr; i-- > 0;) {
		struct sk_ktap_test *t = &out->tests[i];
		char *base = base_name(t);

		if (t->parent >= 0) {
			t->name = sk_xstrfmt("%s/%s", out->tests[t->parent].name,
					     base);
			free(base);
		} else {
			t->name = base;
		}
		if (strlen(t->name) > SK_KTAP_NAME_MAX) {
			t->name[sk_utf8_cut(t->name, SK_KTAP_NAME_MAX)] = '\0';
			line_error(out, t->line, "test name cut at %d bytes",
				   SK_KTAP_NAME_MAX);
		}
	}
	return 0;
}

void sk_ktap_release(struct sk_ktap *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nr; i++) {
		free(k->tests[i].name);
		free(k->tests[i].desc);
		free(k->tests[i].reason);
	}
	free(k->tests);
	sk_strvec_free_array(k->errors, k->nr_errors < SK_KTAP_MAX_ERRORS ?
		     k->nr_errors : SK_KTAP_MAX_ERRORS);
	memset(k, 0, sizeof(*k));
	k->planned = -1;
}

const struct sk_ktap_test *sk_ktap_find(const struct sk_ktap *k,
					const char *name)
{
	size_t i;

	for (i = 0; i < k->nr; i++)
		if (!strcmp(k->tests[i].name, name))
			return &k->tests[i];
	return NULL;
}

void sk_ktap_count(const struct sk_ktap *k,
		   unsigned int counts[SK_KTAP_NR_STATUS])
{
	size_t i;

	memset(counts, 0, SK_KTAP_NR_STATUS * sizeof(counts[0]));
	for (i = 0; i < k->nr; i++)
		if (!k->tests[i].nr_subtests)
			counts[k->tests[i].status]++;
}

json_t *sk_ktap_errors_json(const struct sk_ktap *k)
{
	json_t *first;
	size_t i;

	if (!k->nr_errors)
		return NULL;
	first = json_array();
	for (i = 0; i < k->nr_errors && i < SK_KTAP_MAX_ERRORS; i++)
		json_array_append_new(first, sk_json_string(k->errors[i]));
	return json_pack("{s:I, s:o}", "count", (json_int_t)k->nr_errors,
			 "first", first);
}
