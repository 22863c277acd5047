#include "port/quilt.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/names.h"
#include "core/run.h"

#include <stdlib.h>
#include <string.h>

static int quilt(struct sk_strbuf *log, const char *workdir, const char *env,
		 const char *const *args, unsigned int timeout_ms, int *exit_code)
{
	struct sk_argv argv = SK_ARGV_INIT;
	/* -p: hunk headers name their function, as git's do */
	const char *envv[] = { env, "QUILT_PC=.pc", "QUILT_DIFF_OPTS=-p",
			       "LC_ALL=C", NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	int ret;

	sk_argv_pushv(&argv, (const char *const[]){ "quilt", "--quiltrc", "-",
						    NULL });
	sk_argv_pushv(&argv, args);
	ro.argv = argv.v;
	ro.cwd = workdir;
	ro.env = envv;
	ro.timeout_ms = timeout_ms;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	ret = sk_run(&res, &ro);
	sk_strbuf_add(log, res.out.buf, res.out.len);
	*exit_code = res.exit_code;
	sk_run_result_release(&res);
	sk_argv_release(&argv);
	return ret;
}

int sk_quilt_series(char ***out, size_t *nr, const char *series_file)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	int ret = sk_read_file(&text, series_file);

	*out = NULL;
	*nr = 0;
	if (ret == SK_ENOTFOUND)
		ret = 0;
	else if (!ret)
		ret = sk_name_series(out, nr, text.buf, series_file);
	sk_strbuf_release(&text);
	return ret;
}

int sk_quilt_prove(struct sk_strbuf *log, const char *workdir,
		   const char *patches_dir, unsigned int timeout_ms)
{
	/* GNU patch's default fuzz of 2 would prove nothing */
	static const char *const push_all[] = { "push", "-a", "-q", "--fuzz=0", NULL };
	static const char *const pop_all[] = { "pop", "-a", "-q", NULL };
	static const char *const push_one[] = { "push", "-q", "--fuzz=0", NULL };
	static const char *const refresh[] = {
		"refresh", "-p", "ab", "--no-timestamps", "--no-index",
		"--diffstat", NULL
	};
	char *env = sk_xstrfmt("QUILT_PATCHES=%s", patches_dir);
	char *series = sk_path_join(patches_dir, "series");
	char *pc = sk_path_join(workdir, ".pc");
	char **names = NULL;
	size_t nr = 0, i;
	int code = 0, ret = sk_quilt_series(&names, &nr, series);

	/* a proof starts from nothing pushed (a second proof in one workdir) */
	if (!ret && sk_path_exists(pc))
		ret = sk_rmrf(pc);

	if (!ret && !nr)
		goto out;
	if (!ret)
		ret = quilt(log, workdir, env, push_all, timeout_ms, &code);
	if (!ret && code)
		ret = sk_error_set(SK_ECONFLICT, "quilt push -a failed (exit %d)", code);
	if (!ret)
		ret = quilt(log, workdir, env, pop_all, timeout_ms, &code);
	if (!ret && code)
		ret = sk_error_set(SK_ERROR, "quilt pop -a failed (exit %d)", code);
	for (i = 0; !ret && i < nr; i++) {
		ret = quilt(log, workdir, env, push_one, timeout_ms, &code);
		if (!ret && code)
			ret = sk_error_set(SK_ECONFLICT, "quilt push of '%s' failed", names[i]);
		if (!ret)
			ret = quilt(log, workdir, env, refresh, timeout_ms, &code);
		if (!ret && code)
			ret = sk_error_set(SK_ERROR, "quilt refresh of '%s' failed", names[i]);
	}
out:
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(series);
	free(pc);
	free(env);
	return ret;
}
