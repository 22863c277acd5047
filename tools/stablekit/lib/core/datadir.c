#include "core/datadir.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `make` passes the install prefix, never a build path. */
#ifndef SK_PREFIX
#define SK_PREFIX "/usr/local"
#endif

enum source { FROM_ENV, FROM_INSTALLED, FROM_CHECKOUT, FROM_PREFIX };

/* The running binary's directory, or NULL. */
static char *exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash || slash == buf)
		return NULL;
	*slash = '\0';
	return sk_xstrdup(buf);
}

/* <dir>/../.., when dir is <checkout>/build/<name> of a stablekit checkout. */
static char *checkout_of(const char *dir)
{
	char *root = sk_xstrfmt("%s/../..", dir), *probe, *real = NULL;
	int is_build;

	probe = sk_xstrfmt("%s/..", dir);
	real = realpath(probe, NULL);
	is_build = real && !strcmp(sk_path_basename(real), "build");
	free(real);
	free(probe);
	probe = sk_path_join(root, "tools/stablekit/stablekit.c");
	real = is_build && sk_path_exists(probe) ? realpath(root, NULL) : NULL;
	free(probe);
	free(root);
	return real;
}

static char *resolve(enum source *how)
{
	const char *env = getenv("SK_DATADIR");
	char *dir, *path;

	if (env && *env) {
		*how = FROM_ENV;
		return sk_xstrdup(env);
	}
	dir = exe_dir();
	if (dir) {
		path = sk_path_join(dir, "../share/stablekit");
		if (sk_is_dir(path)) {
			char *real = realpath(path, NULL);

			free(dir);
			*how = FROM_INSTALLED;
			if (!real)
				return path;
			free(path);
			return real;
		}
		free(path);
		path = checkout_of(dir);
		free(dir);
		if (path) {
			*how = FROM_CHECKOUT;
			return path;
		}
	}
	*how = FROM_PREFIX;
	return sk_xstrdup(SK_PREFIX "/share/stablekit");
}

char *sk_datadir(void)
{
	enum source how;

	return resolve(&how);
}

const char *sk_datadir_source(void)
{
	static const char *const names[] = {
		[FROM_ENV] = "SK_DATADIR", [FROM_INSTALLED] = "installed",
		[FROM_CHECKOUT] = "checkout", [FROM_PREFIX] = "prefix",
	};
	enum source how;

	free(resolve(&how));
	return names[how];
}

/* Documentation/ and helpers/ sit under tools/stablekit/ in a checkout. */
static int in_tools(const char *rel)
{
	static const char *const dirs[] = { "Documentation", "helpers", NULL };
	const char *const *d;

	for (d = dirs; *d; d++) {
		size_t n = strlen(*d);

		if (!strncmp(rel, *d, n) && (!rel[n] || rel[n] == '/'))
			return 1;
	}
	return 0;
}

char *sk_datadir_path(const char *rel)
{
	enum source how;
	char *dir = resolve(&how), *path;

	/*
	 * A checkout named by SK_DATADIR is read as a checkout too: it has
	 * tools/stablekit/ and no Documentation/ of its own.
	 */
	if (in_tools(rel) && (how == FROM_CHECKOUT || how == FROM_ENV)) {
		char *tools = sk_path_join(dir, "tools/stablekit");
		char *own = sk_path_join(dir, "Documentation");

		if (how == FROM_CHECKOUT || (sk_is_dir(tools) && !sk_is_dir(own)))
			path = sk_path_join(tools, rel);
		else
			path = sk_path_join(dir, rel);
		free(own);
		free(tools);
	} else {
		path = sk_path_join(dir, rel);
	}
	free(dir);
	return path;
}

char *sk_datadir_find(const char *top, const char *rel, int *shipped)
{
	char *own = sk_path_join(top ? top : ".", rel);

	if (sk_path_exists(own)) {
		if (shipped)
			*shipped = 0;
		return own;
	}
	free(own);
	if (shipped)
		*shipped = 1;
	return sk_datadir_path(rel);
}
