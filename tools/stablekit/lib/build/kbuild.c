#include "build/kbuild.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/json.h"
#include "core/fsutil.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int sk_kbuild_check_path(const char *path)
{
	if (!strpbrk(path, " \t\n"))
		return 0;
	return sk_error_set(SK_EINVALID, "kbuild cannot take a path with "
			    "white space: '%s'", path);
}


static void diag_release(struct sk_kbuild_diag *d)
{
	free(d->file);
	free(d->function);
	free(d->severity);
	free(d->message);
}

void sk_kbuild_diags_release(struct sk_kbuild_diags *d)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		diag_release(&d->items[i]);
	free(d->items);
	memset(d, 0, sizeof(*d));
}

static void diag_copy(struct sk_kbuild_diags *out, const struct sk_kbuild_diag *d)
{
	struct sk_kbuild_diag *n = SK_ARRAY_PUSH(out->items, out->nr, out->alloc);

	n->file = sk_xstrdup(d->file);
	n->line = d->line;
	n->column = d->column;
	n->function = d->function ? sk_xstrdup(d->function) : NULL;
	n->severity = sk_xstrdup(d->severity);
	n->message = sk_xstrdup(d->message);
}

/* Drop the prefixes kbuild puts before a path: the trees, "./". */
static char *clean_path(const char *p, size_t len, const char *const *strip)
{
	size_t i;
	int again = 1;

	while (again) {
		again = 0;
		for (i = 0; strip && strip[i]; i++) {
			size_t n = strlen(strip[i]);

			if (n && n <= len && !strncmp(p, strip[i], n)) {
				p += n;
				len -= n;
				again = 1;
			}
		}
		if (len > 2 && !strncmp(p, "./", 2)) {
			p += 2;
			len -= 2;
			again = 1;
		}
	}
	return sk_xstrndup(p, len);
}

/* gcc's typographic quotes as plain ones, so that locales compare. */
static char *plain_quotes(const char *s, size_t len)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	for (i = 0; i < len; i++) {
		if (i + 2 < len && (unsigned char)s[i] == 0xe2 &&
		    (unsigned char)s[i + 1] == 0x80 &&
		    ((unsigned char)s[i + 2] == 0x98 ||
		     (unsigned char)s[i + 2] == 0x99)) {
			sk_strbuf_addch(&sb, '\'');
			i += 2;
			continue;
		}
		sk_strbuf_addch(&sb, s[i]);
	}
	return sk_strbuf_detach(&sb);
}

/* "<file>: In function 'f':" or "<file>: At top level:" */
static int parse_context(char **file, char **function, const char *line,
			 size_t len, const char *const *strip)
{
	static const char infn[] = ": In function ";
	static const char top[] = ": At top level:";
	const char *p;
	char *text;
	size_t n;

	if (len > sizeof(top) - 1 &&
	    !strncmp(line + len - (sizeof(top) - 1), top, sizeof(top) - 1) &&
	    !memchr(line, ' ', len - (sizeof(top) - 1))) {
		*file = clean_path(line, len - (sizeof(top) - 1), strip);
		*function = NULL;
		return 1;
	}
	p = strstr(line, infn);
	if (!p || p >= line + len || memchr(line, ' ', (size_t)(p - line)) ||
	    line[len - 1] != ':')
		return 0;
	text = plain_quotes(p + sizeof(infn) - 1,
			    len - 1 - (size_t)(p + sizeof(infn) - 1 - line));
	n = strlen(text);
	if (n >= 2 && text[0] == '\'' && text[n - 1] == '\'') {
		memmove(text, text + 1, n - 2);
		text[n - 2] = '\0';
	}
	*file = clean_path(line, (size_t)(p - line), strip);
	*function = text;
	return 1;
}

static unsigned int number(const char **p)
{
	unsigned long v = 0;

	while (isdigit((unsigned char)**p))
		v = v * 10 + (unsigned long)(*(*p)++ - '0');
	return (unsigned int)v;
}

static const char *severity_at(const char *p, const char **rest)
{
	static const char *const sev[][2] = {
		{ " warning: ", "warning" },
		{ " error: ", "error" },
		{ " fatal error: ", "error" },
	};
	size_t i;

	for (i = 0; i < 3; i++) {
		size_t n = strlen(sev[i][0]);

		if (!strncmp(p, sev[i][0], n)) {
			*rest = p + n;
			return sev[i][1];
		}
	}
	return NULL;
}

/* "<file>:<line>[:<col>]: warning|error: <text>" */
static int parse_diag(struct sk_kbuild_diag *d, const char *line, size_t len,
		      const char *const *strip)
{
	const char *colon = memchr(line, ':', len), *p, *sev, *msg;

	if (!colon || colon == line || memchr(line, ' ', (size_t)(colon - line)))
		return 0;
	p = colon + 1;
	if (!isdigit((unsigned char)*p))
		return 0;
	memset(d, 0, sizeof(*d));
	d->line = number(&p);
	if (*p == ':' && isdigit((unsigned char)p[1])) {
		p++;
		d->column = number(&p);
	}
	if (*p != ':')
		return 0;
	sev = severity_at(p + 1, &msg);
	if (!sev)
		return 0;
	d->file = clean_path(line, (size_t)(colon - line), strip);
	d->severity = sk_xstrdup(sev);
	d->message = plain_quotes(msg, len - (size_t)(msg - line));
	return 1;
}

static int same_diag(const struct sk_kbuild_diag *a, const struct sk_kbuild_diag *b)
{
	return a->line == b->line && a->column == b->column &&
	       !strcmp(a->file, b->file) && !strcmp(a->message, b->message) &&
	       !strcmp(a->severity, b->severity);
}

static int seen(const struct sk_kbuild_diags *d, const struct sk_kbuild_diag *x)
{
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (same_diag(&d->items[i], x))
			return 1;
	return 0;
}

int sk_kbuild_parse_log(struct sk_kbuild_diags *out, const char *log,
			const char *const *strip)
{
	char *ctx_file = NULL, *ctx_fn = NULL;
	const char *line = log;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		struct sk_kbuild_diag d;
		char *file, *fn;

		while (len && line[len - 1] == '\r')
			len--;
		if (len && parse_context(&file, &fn, line, len, strip)) {
			free(ctx_file);
			free(ctx_fn);
			ctx_file = file;
			ctx_fn = fn;
		} else if (len && parse_diag(&d, line, len, strip)) {
			if (ctx_file && ctx_fn && !strcmp(ctx_file, d.file))
				d.function = sk_xstrdup(ctx_fn);
			if (seen(out, &d))
				diag_release(&d);
			else
				*SK_ARRAY_PUSH(out->items, out->nr, out->alloc) = d;
		}
		line = eol ? eol + 1 : NULL;
	}
	free(ctx_file);
	free(ctx_fn);
	return 0;
}

size_t sk_kbuild_count(const struct sk_kbuild_diags *d, const char *severity)
{
	size_t i, n = 0;

	for (i = 0; i < d->nr; i++)
		n += !strcmp(d->items[i].severity, severity);
	return n;
}

static int same_key(const struct sk_kbuild_diag *a, const struct sk_kbuild_diag *b)
{
	return !strcmp(a->file, b->file) && !strcmp(a->message, b->message) &&
	       !strcmp(a->function ? a->function : "",
		       b->function ? b->function : "");
}

static size_t count_key(const struct sk_kbuild_diags *d, size_t upto,
			const struct sk_kbuild_diag *x)
{
	size_t i, n = 0;

	for (i = 0; i < upto && i < d->nr; i++)
		n += !strcmp(d->items[i].severity, "warning") &&
		     same_key(&d->items[i], x);
	return n;
}

int sk_kbuild_new_warnings(struct sk_kbuild_diags *out,
			   const struct sk_kbuild_diags *base,
			   const struct sk_kbuild_diags *patched)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < patched->nr; i++) {
		const struct sk_kbuild_diag *d = &patched->items[i];

		if (strcmp(d->severity, "warning"))
			continue;
		if (count_key(patched, i, d) >= count_key(base, base->nr, d))
			diag_copy(out, d);
	}
	return 0;
}

void sk_kbuild_allowlist_release(struct sk_kbuild_allowlist *a)
{
	size_t i;

	for (i = 0; i < a->nr; i++) {
		free(a->items[i].arch);
		free(a->items[i].file);
		free(a->items[i].text);
	}
	free(a->items);
	memset(a, 0, sizeof(*a));
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

static const char *word_end(const char *p, const char *end)
{
	while (p < end && !isspace((unsigned char)*p))
		p++;
	return p;
}

int sk_kbuild_allowlist_parse(struct sk_kbuild_allowlist *out,
			      const char *text, const char *name)
{
	const char *line = text;
	unsigned int lineno = 0;

	memset(out, 0, sizeof(*out));
	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *end = eol ? eol : line + strlen(line);
		const char *a, *ae, *f, *fe, *t;
		struct sk_kbuild_allow_entry *e;

		lineno++;
		while (end > line && isspace((unsigned char)end[-1]))
			end--;
		a = skip_space(line, end);
		line = eol ? eol + 1 : NULL;
		if (a == end || *a == '#')
			continue;
		ae = word_end(a, end);
		f = skip_space(ae, end);
		fe = word_end(f, end);
		t = skip_space(fe, end);
		if (f == end || t == end) {
			sk_kbuild_allowlist_release(out);
			return sk_error_set(SK_EINVALID,
					    "%s:%u: expected '<arch> <file> <text>'",
					    name, lineno);
		}
		e = SK_ARRAY_PUSH(out->items, out->nr, out->alloc);
		e->arch = sk_xstrndup(a, (size_t)(ae - a));
		e->file = sk_xstrndup(f, (size_t)(fe - f));
		e->text = sk_xstrndup(t, (size_t)(end - t));
		e->lineno = lineno;
	}
	return 0;
}

int sk_kbuild_allowlist_load(struct sk_kbuild_allowlist *out, const char *path)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int ret = sk_read_file(&sb, path);

	memset(out, 0, sizeof(*out));
	if (ret == SK_ENOTFOUND)
		return 0;
	if (!ret)
		ret = sk_kbuild_allowlist_parse(out, sb.buf, path);
	sk_strbuf_release(&sb);
	return ret;
}

/* A glob where only '*' is special: "[-Wflag]" stays literal. */
int sk_kbuild_glob(const char *pat, const char *s)
{
	const char *star = NULL, *mark = NULL;

	while (*s) {
		if (*pat == '*') {
			star = pat++;
			mark = s;
		} else if (*pat == *s) {
			pat++;
			s++;
		} else if (star) {
			pat = star + 1;
			s = ++mark;
		} else {
			return 0;
		}
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}

int sk_kbuild_allowed(const struct sk_kbuild_allowlist *a, const char *arch,
		      const struct sk_kbuild_diag *d)
{
	size_t i;

	for (i = 0; a && i < a->nr; i++) {
		const struct sk_kbuild_allow_entry *e = &a->items[i];

		if (sk_kbuild_glob(e->arch, arch) && sk_kbuild_glob(e->file, d->file) &&
		    sk_kbuild_glob(e->text, d->message))
			return 1;
	}
	return 0;
}

static int strv_has(char *const *v, size_t nr, const char *s)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

static void add_path(char ***files, size_t *nr, size_t *alloc, char *path)
{
	if (!path)
		return;
	if (strv_has(*files, *nr, path))
		free(path);
	else
		*SK_ARRAY_PUSH(*files, *nr, *alloc) = path;
}

int sk_kbuild_patch_files(char ***files, size_t *nr, size_t *alloc,
			  const char *patch, const char *source)
{
	const char *start = sk_diff_find(patch), *p;
	size_t line = 1;
	struct sk_diff d;
	int ret;

	if (!start)
		return 0;
	for (p = patch; p < start; p++)
		line += *p == '\n';
	ret = sk_diff_parse(&d, start, strlen(start), source, line, 0);
	if (ret)
		return ret;
	sk_diff_paths(files, nr, alloc, &d, SK_DIFF_PATHS_OLD);
	sk_diff_release(&d);
	return 0;
}

static int has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

void sk_kbuild_objects(char ***objs, size_t *nr, size_t *alloc,
		       const struct sk_arch *arch, char *const *files,
		       size_t nr_files)
{
	static const char *const no_kernel[] = {
		"scripts/", "tools/", "Documentation/", "usr/", "samples/", NULL
	};
	size_t i, j;

	for (i = 0; i < nr_files; i++) {
		const char *f = files[i];
		size_t len = strlen(f);
		char *obj;

		if (len < 3 || (strcmp(f + len - 2, ".c") && strcmp(f + len - 2, ".S")))
			continue;
		for (j = 0; no_kernel[j] && !has_prefix(f, no_kernel[j]); j++)
			;
		if (no_kernel[j])
			continue;
		if (has_prefix(f, "arch/")) {
			char *mine = sk_xstrfmt("arch/%s/", arch->srcarch);
			int ok = has_prefix(f, mine);

			free(mine);
			if (!ok)
				continue;
		}
		obj = sk_xstrdup(f);
		obj[len - 1] = 'o';
		add_path(objs, nr, alloc, obj);
	}
}

json_t *sk_kbuild_diag_json(const struct sk_kbuild_diag *d)
{
	json_t *o = json_pack("{s:o, s:i, s:i, s:s, s:o}",
			      "file", sk_json_string(d->file),
			      "line", (json_int_t)d->line,
			      "column", (json_int_t)d->column,
			      "severity", d->severity,
			      "message", sk_json_string(d->message));

	json_object_set_new(o, "function", sk_json_string(d->function));
	return o;
}

json_t *sk_kbuild_diags_json(const struct sk_kbuild_diags *d,
			     const char *severity)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < d->nr; i++)
		if (!severity || !strcmp(d->items[i].severity, severity))
			json_array_append_new(a, sk_kbuild_diag_json(&d->items[i]));
	return a;
}
