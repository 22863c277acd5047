#include "core/names.h"

#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#define SK_NAME_MAX 200

static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789._+-";

static int bad(const char *kind, const char *name, const char *why)
{
	return sk_error_set(SK_EINVALID, "%s name '%.*s' %s", kind,
			    SK_NAME_MAX, name, why);
}

int sk_name_check(const char *kind, const char *name)
{
	size_t len, ok;

	if (!name || !*name)
		return sk_error_set(SK_EINVALID, "%s name is empty", kind);
	len = strlen(name);
	if (len > SK_NAME_MAX)
		return bad(kind, name, "is longer than 200 characters");
	ok = strspn(name, name_chars);
	if (ok != len)
		return sk_error_set(SK_EINVALID,
				    "%s name '%.*s' has a character other than "
				    "letters, digits and ._+- at byte %zu",
				    kind, SK_NAME_MAX, name, ok + 1);
	if (name[0] == '.')
		return bad(kind, name, "starts with '.' (hidden, or a "
			   "relative path)");
	if (name[0] == '-')
		return bad(kind, name, "starts with '-' (read as an option)");
	if (len >= 5 && !strcmp(name + len - 5, ".lock"))
		return bad(kind, name, "ends with '.lock'");
	return 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int sk_name_series_line(char **entry, const char *line, size_t len,
			const char *file, unsigned long lineno)
{
	const char *end = line + len, *p = line, *name, *opt;
	char *copy;
	int ret;

	*entry = NULL;
	if (!len || *line == '#')
		return 0;
	while (p < end && is_blank(*p))
		p++;
	if (p == end)
		return 0;
	for (name = p; p < end && !is_blank(*p); p++)
		;
	copy = sk_xstrndup(name, (size_t)(p - name));
	ret = memchr(name, '\0', (size_t)(p - name)) ?
	      sk_error_set(SK_EINVALID, "queue entry name has a NUL byte") :
	      sk_name_check("queue entry", copy);
	if (ret) {
		free(copy);
		return sk_error_prefix(ret, "%s:%lu", file, lineno);
	}
	/* what follows: a comment, quilt's default -p1, or nothing */
	for (;;) {
		size_t n;

		while (p < end && is_blank(*p))
			p++;
		if (p == end || *p == '#')
			break;
		for (opt = p; p < end && !is_blank(*p); p++)
			;
		n = (size_t)(p - opt);
		if (n == 3 && !memcmp(opt, "-p1", 3))
			continue;
		ret = sk_error_set(SK_EINVALID,
				   "%s:%lu: quilt option '%.*s' for '%s' is not "
				   "supported: stablekit applies and checks "
				   "every queued patch with -p1 forward, so quilt "
				   "would push another change than the one "
				   "checked; rewrite the patch instead", file,
				   lineno, n > 40 ? 40 : (int)n, opt, copy);
		free(copy);
		return ret;
	}
	*entry = copy;
	return 0;
}

int sk_name_series(char ***names, size_t *nr, const char *text,
		   const char *file)
{
	size_t alloc = 0;
	unsigned long lineno = 1;
	const char *p;
	int ret = 0;

	*names = NULL;
	*nr = 0;
	for (p = text; !ret && *p; lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *entry;

		ret = sk_name_series_line(&entry, p, len, file, lineno);
		if (!ret && entry)
			*SK_ARRAY_PUSH(*names, *nr, alloc) = entry;
		p += len + (nl ? 1 : 0);
	}
	if (ret) {
		sk_strvec_free_array(*names, *nr);
		*names = NULL;
		*nr = 0;
	}
	return ret;
}
