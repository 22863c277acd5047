#include "project/aptfetch.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APT_UPDATE_MS (10 * 60 * 1000)
#define APT_QUERY_MS (2 * 60 * 1000)
#define APT_DOWNLOAD_MS (30 * 60 * 1000)

void sk_aptfetch_init(struct sk_aptfetch *a, const char *dir,
		      const struct sk_trees *trees)
{
	memset(a, 0, sizeof(*a));
	a->dir = sk_xstrdup(dir);
	a->trees = trees;
}

void sk_aptfetch_release(struct sk_aptfetch *a)
{
	free(a->dir);
	memset(a, 0, sizeof(*a));
}

/* The options that point apt at a->dir instead of the machine's state. */
static void apt_options(struct sk_argv *av, const struct sk_aptfetch *a)
{
	sk_argv_push(av, "-o");
	sk_argv_push(av, "Dir::Etc::sourcelist=/dev/null");
	sk_argv_push(av, "-o");
	sk_argv_pushf(av, "Dir::Etc::sourceparts=%s/sources.list.d", a->dir);
	sk_argv_push(av, "-o");
	sk_argv_pushf(av, "Dir::State::Lists=%s/lists", a->dir);
	sk_argv_push(av, "-o");
	sk_argv_pushf(av, "Dir::Cache=%s/cache", a->dir);
	sk_argv_push(av, "-o");
	sk_argv_push(av, "Dir::Etc::preferences=/dev/null");
	sk_argv_push(av, "-o");
	sk_argv_pushf(av, "Dir::Etc::preferencesparts=%s/preferences.d",
		      a->dir);
	sk_argv_push(av, "-o");
	sk_argv_push(av, "Acquire::Languages=none");
	/*
	 * As root, apt downloads as _apt, which cannot write in a directory
	 * of ours: it stays root (a user other than root is not switched).
	 */
	sk_argv_push(av, "-o");
	sk_argv_push(av, "APT::Sandbox::User=root");
}

static int suite_listed(const struct sk_trees *t, size_t upto,
			const char *suite)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (t->v[i].suite && !strcmp(t->v[i].suite, suite))
			return 1;
	return 0;
}

static int write_sources(struct sk_aptfetch *a)
{
	const struct sk_trees *t = a->trees;
	struct sk_strbuf s = SK_STRBUF_INIT;
	char *path = NULL;
	const char *sub[] = { "sources.list.d", "preferences.d",
			      "lists/partial", "cache/archives/partial", NULL };
	size_t i;
	int ret = 0;

	for (i = 0; sub[i] && !ret; i++) {
		free(path);
		path = sk_path_join(a->dir, sub[i]);
		ret = sk_mkdir_p(path, 0755);
	}
	if (ret)
		goto out;
	sk_strbuf_addf(&s, "# written by stablekit from %s\n"
		       "Types: deb deb-src\nURIs: %s\nSuites:", t->path,
		       t->uri);
	for (i = 0; i < t->nr; i++)
		if (t->v[i].suite && !suite_listed(t, i, t->v[i].suite))
			sk_strbuf_addf(&s, " %s", t->v[i].suite);
	sk_strbuf_addf(&s, "\nComponents: main\nSigned-By: %s\n", t->keyring);
	free(path);
	path = sk_path_join(a->dir, "sources.list.d/stablekit.sources");
	ret = sk_write_file_atomic(path, s.buf, s.len);
out:
	free(path);
	sk_strbuf_release(&s);
	return ret;
}

/* Run apt-get/apt-cache with the private options; out gets stdout. */
static int apt(struct sk_strbuf *out, struct sk_aptfetch *a, const char *tool,
	       const char *const *args, const char *cwd, unsigned int ms,
	       int check)
{
	struct sk_argv av = SK_ARGV_INIT;
	struct sk_run_opts ro = { 0 };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	int ret;

	sk_argv_push(&av, tool);
	apt_options(&av, a);
	sk_argv_pushv(&av, args);
	ro.argv = av.v;
	ro.cwd = cwd;
	ro.timeout_ms = ms;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_CAPTURE_ERR;
	ret = sk_run(&res, &ro);
	if (ret == SK_ETIMEOUT)
		ret = sk_error_set(SK_ETIMEOUT, "%s %s ran past %u s", tool,
				   args[0], ms / 1000);
	else if (!ret && res.exit_code && check) {
		sk_strbuf_rtrim(&res.err);
		ret = sk_error_set(SK_ETOOL, "%s %s failed (%d): %s", tool,
				   args[0], res.exit_code, res.err.buf);
	}
	if (!ret && out)
		sk_strbuf_add(out, res.out.buf, res.out.len);
	sk_run_result_release(&res);
	sk_argv_release(&av);
	return ret;
}

static int update(struct sk_aptfetch *a)
{
	static const char *const args[] = { "update", "-q", NULL };
	int ret;

	if (a->updated)
		return 0;
	ret = write_sources(a);
	if (!ret)
		ret = apt(NULL, a, "apt-get", args, NULL, APT_UPDATE_MS, 1);
	if (!ret)
		a->updated = 1;
	return ret;
}

/*
 * "linux-source-7.2 | 7.2.13-1 | http://... sid/main amd64 Packages":
 * the version, when the line is of package and of the wanted kind.
 */
static char *madison_version(const char *line, const char *package,
			     int source)
{
	const char *bar1 = strchr(line, '|'), *bar2, *p, *e;
	size_t plen = strlen(package), len;

	if (!bar1 || !(bar2 = strchr(bar1 + 1, '|')))
		return NULL;
	for (p = line; *p == ' '; p++)
		;
	if (strncmp(p, package, plen) || (p[plen] != ' ' && p[plen] != '|'))
		return NULL;
	len = strlen(bar2);
	while (len && (bar2[len - 1] == ' ' || bar2[len - 1] == '\n'))
		len--;
	if ((len >= 8 && !strncmp(bar2 + len - 8, " Sources", 8)) != !!source)
		return NULL;
	for (p = bar1 + 1; *p == ' '; p++)
		;
	for (e = bar2; e > p && e[-1] == ' '; e--)
		;
	return e > p ? sk_xstrndup(p, e - p) : NULL;
}

int sk_aptfetch_versions(struct sk_aptfetch *a, struct sk_strbuf *out,
			 const char *package, int source)
{
	const char *args[] = { "madison", package, NULL };
	struct sk_strbuf text = SK_STRBUF_INIT;
	char *line, *save = NULL;
	int ret = update(a);

	if (!ret)
		ret = apt(&text, a, "apt-cache", args, NULL, APT_QUERY_MS, 1);
	for (line = ret ? NULL : strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *v = madison_version(line, package, source);

		if (v)
			sk_strbuf_addf(out, "%s%s", out->len ? " " : "", v);
		free(v);
	}
	sk_strbuf_release(&text);
	return ret;
}

static int listed(const char *versions, const char *v)
{
	size_t len = strlen(v);
	const char *p = versions;

	while ((p = strstr(p, v))) {
		if ((p == versions || p[-1] == ' ') &&
		    (p[len] == ' ' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

static int download(struct sk_aptfetch *a, const struct sk_tree_pin *p,
		    const char *tmp)
{
	struct sk_argv av = SK_ARGV_INIT;
	struct sk_strbuf versions = SK_STRBUF_INIT;
	int source = p->kind == SK_TREE_ORIG, ret;

	ret = sk_aptfetch_versions(a, &versions, p->package, source);
	if (ret)
		goto out;
	if (!listed(versions.buf, p->debversion)) {
		ret = sk_error_set(SK_ENOTFOUND, "%s: tree %s: %s%s %s is not "
				   "in the archive (%s %s) any more; it lists "
				   "%s", a->trees->path, p->version,
				   source ? "source " : "", p->package,
				   p->debversion, a->trees->uri, p->suite,
				   versions.len ? versions.buf : "no version");
		goto out;
	}
	if (source) {
		sk_argv_push(&av, "source");
		sk_argv_push(&av, "--download-only");
	} else {
		sk_argv_push(&av, "download");
	}
	sk_argv_push(&av, "-q");
	sk_argv_pushf(&av, "%s=%s", p->package, p->debversion);
	/*
	 * `apt-get source` of an orig tarball can fail after fetching it
	 * (a .dsc it cannot get): the file and its pin decide, not the
	 * exit code.
	 */
	ret = apt(NULL, a, "apt-get", av.v, tmp, APT_DOWNLOAD_MS, !source);
out:
	sk_argv_release(&av);
	sk_strbuf_release(&versions);
	return ret;
}

int sk_aptfetch_get(struct sk_aptfetch *a, const struct sk_tree_pin *p,
		    const char *dldir, char **path, int *cached)
{
	char *dest = sk_path_join(dldir, p->file), *tmp = NULL, *got = NULL;
	int ret;

	*cached = 0;
	*path = NULL;
	ret = sk_trees_verify_file(p, dest);
	if (!ret) {
		*cached = 1;
		goto out;
	}
	if (ret != SK_ENOTFOUND && ret != SK_EINVALID)
		goto out;
	ret = sk_mkdir_p(dldir, 0755);
	if (!ret)
		ret = sk_mkdtemp_in(&tmp, dldir, "fetch");
	if (!ret)
		ret = download(a, p, tmp);
	if (ret)
		goto out;
	got = sk_path_join(tmp, p->file);
	if (!sk_path_exists(got)) {
		ret = sk_error_set(SK_ETOOL, "apt-get fetched no '%s' for "
				   "tree %s", p->file, p->version);
		goto out;
	}
	ret = sk_trees_verify_file(p, got);
	if (!ret && rename(got, dest))
		ret = sk_error_errno(dest);
out:
	if (tmp)
		sk_rmrf(tmp);
	if (!ret)
		*path = sk_xstrdup(dest);
	free(tmp);
	free(got);
	free(dest);
	return ret;
}
