#include "core/gitconfig.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* git's own limit on nested includes */
#define SK_GITCONFIG_MAX_DEPTH 10

static int check(const char *path, const char *from, unsigned long line,
		 int depth);

/* The file an include's path names: ~/ from $HOME, relative from dir. */
static char *include_target(const char *config, const char *value)
{
	const char *home = getenv("HOME"), *slash;

	if (!strncmp(value, "~/", 2) && home)
		return sk_xstrfmt("%s/%s", home, value + 2);
	if (value[0] == '/')
		return sk_xstrdup(value);
	slash = strrchr(config, '/');
	if (!slash)
		return sk_xstrdup(value);
	return sk_xstrfmt("%.*s/%s", (int)(slash - config), config, value);
}

/* The includes of one config file's text, each checked. */
static int check_includes(const char *path, const char *text, int depth)
{
	const char *p = text;
	unsigned long line = 0;
	int in_include = 0, ret = 0;

	while (*p && !ret) {
		const char *nl = strchrnul(p, '\n'), *q = p, *k, *v, *ve;

		line++;
		while (q < nl && isspace((unsigned char)*q))
			q++;
		if (*q == '[') {
			for (k = ++q; q < nl && (isalnum((unsigned char)*q) ||
						 *q == '-' || *q == '.'); q++)
				;
			in_include = ((size_t)(q - k) == 7 &&
				      !strncasecmp(k, "include", 7)) ||
				     ((size_t)(q - k) == 9 &&
				      !strncasecmp(k, "includeif", 9));
			q = memchr(q, ']', (size_t)(nl - q));
			q = q ? q + 1 : nl;
			while (q < nl && isspace((unsigned char)*q))
				q++;
		}
		if (in_include && nl - q > 4 && !strncasecmp(q, "path", 4) &&
		    (isspace((unsigned char)q[4]) || q[4] == '=')) {
			v = memchr(q, '=', (size_t)(nl - q));
			if (v) {
				char *value, *target;

				for (v++; v < nl && isspace((unsigned char)*v); v++)
					;
				for (ve = nl; ve > v && isspace((unsigned char)ve[-1]); ve--)
					;
				if (ve - v >= 2 && *v == '"' && ve[-1] == '"') {
					v++;
					ve--;
				}
				value = sk_xstrndup(v, (size_t)(ve - v));
				target = include_target(path, value);
				ret = check(target, path, line, depth + 1);
				free(target);
				free(value);
			}
		}
		p = *nl ? nl + 1 : nl;
	}
	return ret;
}

static int check(const char *path, const char *from, unsigned long line,
		 int depth)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	struct stat st;
	int ret;

	if (stat(path, &st))
		return 0;
	if (!S_ISREG(st.st_mode)) {
		if (from)
			return sk_error_set(SK_EINVALID, "%s:%lu: include.path "
					    "'%s' is not a regular file (a "
					    "FIFO, a device or a directory); "
					    "a config is read whole", from,
					    line, path);
		return sk_error_set(SK_EINVALID, "%s: not a regular file (a "
				    "FIFO, a device or a directory); a config "
				    "is read whole", path);
	}
	if (depth > SK_GITCONFIG_MAX_DEPTH)
		return sk_error_set(SK_EINVALID, "%s: includes nested deeper "
				    "than %d", path, SK_GITCONFIG_MAX_DEPTH);
	ret = sk_read_file(&text, path);
	if (!ret)
		ret = check_includes(path, text.buf, depth);
	sk_strbuf_release(&text);
	return ret;
}

int sk_gitconfig_check(const char *path)
{
	return check(path, NULL, 0, 0);
}
