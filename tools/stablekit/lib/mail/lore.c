#include "mail/lore.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

static int valid_url(const char *u)
{
	const char *p;

	if (strncmp(u, "http://", 7) && strncmp(u, "https://", 8))
		return 0;
	for (p = u; *p; p++)
		if (isspace((unsigned char)*p) || iscntrl((unsigned char)*p) ||
		    *p == '"' || *p == '\'' || *p == '\\')
			return 0;
	return strlen(u) > 8 + !strncmp(u, "https", 5);
}

int sk_lore_url(char **out, const char *top)
{
	char *conf = sk_path_join(top, SK_BRANCHES_CONF);
	git_config *cfg = NULL;
	git_buf v = { 0 };
	const char *url = SK_LORE_DEFAULT;
	int ret = 0;

	*out = NULL;
	ret = sk_gitconfig_check(conf);
	if (ret) {
		free(conf);
		return ret;
	}
	if (sk_path_exists(conf) &&
	    !git_config_open_ondisk(&cfg, conf) &&
	    !git_config_get_string_buf(&v, cfg, "stablekit.lore"))
		url = v.ptr;
	git_error_clear();
	if (!valid_url(url))
		ret = sk_error_set(SK_EINVALID,
				   "%s: stablekit.lore: '%s' is not an http(s) URL",
				   conf, url);
	else
		*out = url[strlen(url) - 1] == '/' ? sk_xstrdup(url) :
		       sk_xstrfmt("%s/", url);
	git_buf_dispose(&v);
	git_config_free(cfg);
	free(conf);
	return ret;
}

/* url with '%' doubled: b4 expands its masks with Python's % operator. */
static char *mask(const char *url, const char *suffix)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	for (; *url; url++) {
		if (*url == '%')
			sk_strbuf_addch(&sb, '%');
		sk_strbuf_addch(&sb, *url);
	}
	sk_strbuf_adds(&sb, suffix);
	return sk_strbuf_detach(&sb);
}

void sk_lore_b4_env(struct sk_lore_env *env, const char *url)
{
	const char *base = getenv("GIT_CONFIG_COUNT");
	int first = base ? atoi(base) : 0, n = 0;
	char *vals[3];
	static const char *const keys[3] = {
		"b4.midmask", "b4.searchmask", "b4.linkmask"
	};

	if (first < 0)
		first = 0;
	if (!url)
		url = SK_LORE_DEFAULT;
	vals[0] = mask(url, "%s");
	vals[1] = mask(url, "?x=m&t=1&q=%s");
	/* lore's permanent links are its /r/ ones, as b4 writes them */
	vals[2] = !strncmp(url, "https://lore.kernel.org/", 24) ?
		  sk_xstrdup("https://lore.kernel.org/r/%s") : mask(url, "%s");
	memset(env, 0, sizeof(*env));
	env->v[n++] = sk_xstrfmt("GIT_CONFIG_COUNT=%d", first + 3);
	for (int i = 0; i < 3; i++) {
		env->v[n++] = sk_xstrfmt("GIT_CONFIG_KEY_%d=%s", first + i, keys[i]);
		env->v[n++] = sk_xstrfmt("GIT_CONFIG_VALUE_%d=%s", first + i, vals[i]);
		free(vals[i]);
	}
}

void sk_lore_env_release(struct sk_lore_env *env)
{
	for (size_t i = 0; i < sizeof(env->v) / sizeof(env->v[0]); i++)
		free(env->v[i]);
	memset(env, 0, sizeof(*env));
}

void sk_lore_urlencode(struct sk_strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
			sk_strbuf_addch(out, c);
		else
			sk_strbuf_addf(out, "%%%02X", c);
	}
}

/* The last line curl wrote, for the error message. */
static const char *last_line(struct sk_strbuf *sb)
{
	const char *nl;

	sk_strbuf_rtrim(sb);
	nl = strrchr(sb->buf, '\n');
	return nl ? nl + 1 : sb->buf;
}

/*
 * POST, as b4 does: public-inbox hands out search mboxes only to POST.  A
 * connection the server drops (curl 52, 56: public-inbox 1.9's workers die
 * on the first query after the index changed) is tried once more.
 */
static int download(int *status, const char *base, const char *url,
		    const char *path, unsigned int timeout_ms)
{
	char *max = sk_xstrfmt("%u", timeout_ms ? (timeout_ms + 999) / 1000 : 300);
	const char *argv[] = {
		"curl", "-sS", "--proto", "=http,https", "--data", "",
		"--connect-timeout", "10", "--max-time", max,
		"-o", path, "-w", "%{http_code}", url, NULL
	};
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	int ret, tries = 0;

	if (!sk_run_have("curl")) {
		free(max);
		return sk_error_set(SK_ETOOL, "curl is not installed (Debian package 'curl'; run 'make deps')");
	}
	ro.argv = argv;
	ro.timeout_ms = timeout_ms ? timeout_ms + 5000 : 0;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_CAPTURE_ERR;
	ro.max_file_bytes = SK_LORE_MAX_BYTES;
	do {
		sk_run_result_release(&res);
		ret = sk_run(&res, &ro);
	} while (!ret && (res.exit_code == 52 || res.exit_code == 56) && !tries++);
	if (!ret && res.exit_code)
		ret = sk_error_set(SK_ETOOL, "cannot reach %s (offline?): %s",
				   base, last_line(&res.err));
	*status = ret ? 0 : atoi(res.out.buf);
	sk_run_result_release(&res);
	free(max);
	return ret;
}

static int gunzip(const char *in, const char *out, unsigned int timeout_ms)
{
	const char *argv[] = { "gzip", "-dc", NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	int ret;

	ro.argv = argv;
	ro.stdin_path = in;
	ro.stdout_path = out;
	ro.timeout_ms = timeout_ms;
	ro.flags = SK_RUN_CAPTURE_ERR;
	ro.max_file_bytes = SK_LORE_MAX_BYTES;
	ret = sk_run(&res, &ro);
	if (!ret && res.exit_code)
		ret = sk_error_set(SK_ETOOL, "%s: not the gzipped mbox a search answers: %s",
				   in, last_line(&res.err));
	sk_run_result_release(&res);
	return ret;
}

int sk_lore_search(struct sk_mbox *out, const char *url, const char *query,
		   const char *tmpdir, unsigned int timeout_ms)
{
	struct sk_strbuf u = SK_STRBUF_INIT;
	char *gz = sk_path_join(tmpdir, "search.mbox.gz");
	char *mb = sk_path_join(tmpdir, "search.mbox");
	int status = 0, ret;

	memset(out, 0, sizeof(*out));
	sk_strbuf_addf(&u, "%s?x=m&t=1&q=", url);
	sk_lore_urlencode(&u, query);
	ret = download(&status, url, u.buf, gz, timeout_ms);
	if (!ret && status != 200 && status != 404)
		ret = sk_error_set(SK_ETOOL, "%s answered HTTP %d to the search '%s'",
				   url, status, query);
	if (!ret && status == 200)
		ret = gunzip(gz, mb, timeout_ms);
	/* a hit that cannot be read is kept with its error, for the caller */
	if (!ret && status == 200)
		ret = sk_mbox_read_file(out, mb);
	sk_strbuf_release(&u);
	free(gz);
	free(mb);
	return ret;
}
