#include "mail/b4.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/lore.h"
#include "mail/mbox.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int collect(struct sk_b4_am_result *out, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return sk_error_errno(dir);
	while ((e = readdir(d))) {
		char **slot = NULL;

		if (ends_with(e->d_name, ".mbx"))
			slot = &out->mbx;
		else if (ends_with(e->d_name, ".cover"))
			slot = &out->cover;
		if (slot && !*slot)
			*slot = sk_path_join(dir, e->d_name);
	}
	closedir(d);
	return 0;
}

/* The last lines of b4's output, for the error message. */
static const char *tail(const struct sk_strbuf *sb, int lines)
{
	const char *p = sb->buf + sb->len;

	while (p > sb->buf && (p[-1] == '\n'))
		p--;
	while (p > sb->buf && lines)
		if (*--p == '\n')
			lines--;
	return *p == '\n' ? p + 1 : p;
}

int sk_b4_am(struct sk_b4_am_result *out, const struct sk_b4_am_opts *o)
{
	struct sk_argv argv = SK_ARGV_INIT;
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	struct sk_lore_env env;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!sk_run_have("b4"))
		return sk_error_set(SK_ETOOL, "b4 is not installed (Debian package 'b4'; run 'make deps')");
	sk_argv_push(&argv, "b4");
	if (o->mbox)
		sk_argv_push(&argv, "--offline-mode");
	sk_argv_push(&argv, "am");
	sk_argv_push(&argv, "--add-link");
	/*
	 * An ack or a Tested-by given to the cover letter is given to the
	 * whole series: that is how maintainers apply it.
	 */
	sk_argv_push(&argv, "--apply-cover-trailers");
	if (o->mbox) {
		sk_argv_push(&argv, "--use-local-mbox");
		sk_argv_push(&argv, o->mbox);
	}
	sk_argv_push(&argv, "--outdir");
	sk_argv_push(&argv, o->outdir);
	/* a Message-Id is data: after "--", and shaped like one */
	if (o->msgid) {
		ret = sk_msgid_check(o->msgid);
		if (ret) {
			sk_argv_release(&argv);
			return ret;
		}
		sk_argv_push(&argv, "--");
		sk_argv_push(&argv, o->msgid);
	}
	ro.argv = argv.v;
	ro.cwd = o->outdir;	/* never the user's checkout */
	ro.timeout_ms = o->timeout_ms;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	sk_lore_b4_env(&env, o->lore);
	ro.env = (const char *const *)env.v;
	ret = sk_run(&res, &ro);
	sk_lore_env_release(&env);
	if (ret)
		goto out;
	if (res.exit_code) {
		ret = sk_error_set(SK_ETOOL, "b4 am failed (exit %d)%s: %s",
				   res.exit_code, o->mbox ? "" :
				   " fetching from lore; without network use -m FILE",
				   tail(&res.out, 3));
		goto out;
	}
	ret = collect(out, o->outdir);
	if (!ret && !out->mbx)
		ret = sk_error_set(SK_EINVALID, "b4 found no patch series in '%s'%s%s",
				   o->mbox ? o->mbox : "lore",
				   o->msgid ? " for " : "", o->msgid ? o->msgid : "");
out:
	sk_run_result_release(&res);
	sk_argv_release(&argv);
	return ret;
}

void sk_b4_am_result_release(struct sk_b4_am_result *r)
{
	free(r->mbx);
	free(r->cover);
	r->mbx = r->cover = NULL;
}

int sk_b4_mbox(char **out, const char *lore, const char *msgid,
	       const char *dir, unsigned int timeout_ms)
{
	/* a Message-Id is data: after "--", and shaped like one */
	const char *argv[] = { "b4", "mbox", "--no-cache", "--outdir", dir,
			       "--", msgid, NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	struct sk_lore_env env;
	struct sk_b4_am_result found = { 0 };
	int ret;

	*out = NULL;
	ret = sk_msgid_check(msgid);
	if (ret)
		return ret;
	if (!sk_run_have("b4"))
		return sk_error_set(SK_ETOOL, "b4 is not installed (Debian package 'b4'; run 'make deps')");
	ro.argv = argv;
	ro.cwd = dir;
	ro.timeout_ms = timeout_ms;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	sk_lore_b4_env(&env, lore);
	ro.env = (const char *const *)env.v;
	ret = sk_run(&res, &ro);
	sk_lore_env_release(&env);
	if (!ret && res.exit_code)
		ret = sk_error_set(SK_ETOOL,
				   "b4 could not fetch '%s' from %s (exit %d; no network? use -m FILE): %s",
				   msgid, lore ? lore : SK_LORE_DEFAULT, res.exit_code,
				   tail(&res.out, 2));
	if (!ret)
		ret = collect(&found, dir);
	if (!ret && !found.mbx)
		ret = sk_error_set(SK_ETOOL, "b4 fetched no thread for '%s'", msgid);
	if (!ret)
		*out = found.mbx, found.mbx = NULL;
	sk_b4_am_result_release(&found);
	sk_run_result_release(&res);
	return ret;
}
