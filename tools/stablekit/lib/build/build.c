#include "build/build.h"
#include "project/distcc.h"
#include "project/branches.h"
#include "core/sandbox.h"
#include "mail/seriesjson.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/diff.h"
#include "core/fsutil.h"
#include "core/names.h"
#include "core/run.h"
#include "core/shquote.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_S (2 * 3600)

const char *sk_build_mode_name(enum sk_build_mode m)
{
	return m == SK_BUILD_KERNEL ? "kernel" : "objects";
}

int sk_build_mode_parse(enum sk_build_mode *out, const char *s)
{
	if (!strcmp(s, "objects"))
		*out = SK_BUILD_OBJECTS;
	else if (!strcmp(s, "kernel"))
		*out = SK_BUILD_KERNEL;
	else
		return sk_error_set(SK_EINVALID, "unknown mode '%s'", s);
	return 0;
}

static void push_str(char ***v, size_t *nr, size_t *alloc, char *s)
{
	*SK_ARRAY_PUSH(*v, *nr, *alloc) = s;
}

/* Shared, read-only while the arches build. */
struct job_ctx {
	const struct sk_build_opts *o;
	struct sk_build *job;
	char *src;
	long long commit_time;
	int jobs_per_make;
	int kconfig_touched;
	char *fragment_key;	/* what the configuration depends on */
	pthread_mutex_t lock;
};

static void progress(struct job_ctx *c, const char *arch, const char *variant,
		     const char *what)
{
	if (!c->o->progress)
		return;
	pthread_mutex_lock(&c->lock);
	c->o->progress(arch, variant, what, c->o->progress_data);
	pthread_mutex_unlock(&c->lock);
}

int sk_build_kernel_tree(git_tree *tree, const char **missing)
{
	static const char *const needed[] = {
		"Makefile", "scripts/kconfig/merge_config.sh", "arch/x86/Kconfig",
		"mm/Makefile", NULL
	};
	size_t i;

	for (i = 0; needed[i]; i++) {
		git_tree_entry *e = NULL;

		if (git_tree_entry_bypath(&e, tree, needed[i])) {
			*missing = needed[i];
			return 0;
		}
		git_tree_entry_free(e);
	}
	return 1;
}

/* The branch tip and whether it is a kernel tree at all. */
static int resolve_tip(struct job_ctx *c, git_commit **commit, git_tree **tree)
{
	const struct sk_branch *br = c->o->branch;
	struct sk_build *job = c->job;
	git_object *obj = NULL;

	if (git_revparse_single(&obj, c->o->repo, br->ref) ||
	    git_object_peel((git_object **)commit, obj, GIT_OBJECT_COMMIT)) {
		git_object_free(obj);
		job->why = sk_xstrfmt("ref '%s' is not in the repository", br->ref);
		return 1;
	}
	git_object_free(obj);
	git_oid_tostr(job->tip, sizeof(job->tip), git_commit_id(*commit));
	c->commit_time = (long long)git_commit_time(*commit);
	if (git_commit_tree(tree, *commit))
		return sk_error_git(SK_ERROR, "tree of the branch tip");
	return 0;
}

static int check_kernel_tree(struct job_ctx *c, git_tree *tree)
{
	const char *missing = NULL;

	if (sk_build_kernel_tree(tree, &missing))
		return 0;
	c->job->why = sk_xstrfmt("the tree at '%s' has no '%s' "
				 "(a model repository, not a kernel)",
				 c->o->branch->ref, missing);
	return 1;
}

static void describe(struct sk_build *job, git_commit *commit)
{
	git_describe_options dopts;
	git_describe_format_options fopts;
	git_describe_result *res = NULL;
	git_buf buf = { 0 };

	git_describe_options_init(&dopts, GIT_DESCRIBE_OPTIONS_VERSION);
	git_describe_format_options_init(&fopts, GIT_DESCRIBE_FORMAT_OPTIONS_VERSION);
	dopts.describe_strategy = GIT_DESCRIBE_TAGS;
	dopts.show_commit_oid_as_fallback = 1;
	if (!git_describe_commit(&res, (git_object *)commit, &dopts) &&
	    !git_describe_format(&buf, res, &fopts))
		job->describe = sk_xstrdup(buf.ptr);
	else
		job->describe = sk_xstrndup(job->tip, 12);
	git_buf_dispose(&buf);
	git_describe_result_free(res);
}

/*
 * stable/<branch>, or the queue the caller names (a port not installed
 * yet), or the copy of stable/<branch> taken when the build started
 */
static char *queue_dir(const struct job_ctx *c)
{
	if (c->o->queue_dir)
		return sk_xstrdup(c->o->queue_dir);
	if (c->o->queue_copy)
		return sk_xstrdup(c->o->queue_copy);
	return sk_xstrfmt("%s/stable/%s", c->o->top, c->o->branch->name);
}

/* stable/<branch>/series and its patches: the files they touch. */
static int read_queue(struct job_ctx *c, struct sk_strbuf *hash_input)
{
	struct sk_build *job = c->job;
	struct sk_strbuf series = SK_STRBUF_INIT, patch = SK_STRBUF_INIT;
	char *dir = queue_dir(c);
	char *path = sk_path_join(dir, "series");
	char *shown_series;
	size_t i;
	int ret = sk_read_file(&series, path);

	if (ret == SK_ENOTFOUND) {
		ret = 0;
		goto out;
	}
	if (ret)
		goto out;
	sk_strbuf_addf(hash_input, "series\n%s", series.buf);
	shown_series = c->o->queue_copy && !c->o->queue_dir ?
		sk_xstrfmt("%s/stable/%s/series", c->o->top,
			   c->o->branch->name) : sk_xstrdup(path);
	ret = sk_name_series(&job->patches, &job->nr_patches, series.buf,
			     shown_series);
	free(shown_series);
	if (ret) {
		sk_error_prefix(ret, "queue of '%s'", c->o->branch->name);
		goto out;
	}
	for (i = 0; i < job->nr_patches; i++) {
		char *p = sk_path_join(dir, job->patches[i]);
		/* errors name the queue the user wrote, not the build's copy */
		char *shown = c->o->queue_copy && !c->o->queue_dir ?
			sk_xstrfmt("%s/stable/%s/%s", c->o->top,
				   c->o->branch->name, job->patches[i]) :
			sk_xstrdup(p);

		sk_strbuf_reset(&patch);
		ret = sk_read_file(&patch, p);
		/* the undo rewrites and removes these paths: checked first */
		if (!ret)
			ret = sk_kbuild_patch_files(&job->files, &job->nr_files,
						    &job->alloc_files, patch.buf,
						    shown);
		free(shown);
		free(p);
		if (ret) {
			sk_error_prefix(ret, "queue of '%s'", c->o->branch->name);
			goto out;
		}
		sk_strbuf_addf(hash_input, "patch %s\n%s", job->patches[i], patch.buf);
	}
	for (i = 0; i < job->nr_files; i++)
		if (strstr(job->files[i], "Kconfig"))
			c->kconfig_touched = 1;
out:
	free(dir);
	free(path);
	sk_strbuf_release(&series);
	sk_strbuf_release(&patch);
	return ret;
}

/* Undo a queue pushed by an earlier run: the files it listed, then .pc. */
static int unapply(struct job_ctx *c, git_tree *tree)
{
	char *list = sk_xstrfmt("%s/src.applied", c->o->work);
	char *pc = sk_path_join(c->src, ".pc");
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *line, *save = NULL;
	int ret = sk_read_file(&sb, list);

	if (ret == SK_ENOTFOUND) {
		ret = sk_path_exists(pc) ? 1 : 0;	/* unknown state */
		goto out;
	}
	for (line = strtok_r(sb.buf, "\n", &save); !ret && line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!sk_diff_path_ok(line, strlen(line)))
			ret = sk_error_set(SK_EINVALID, "%s: unsafe path '%s'",
					   list, line);
		if (!ret)
			ret = sk_diff_check_inside(c->src, line);
		if (!ret)
			ret = sk_tree_write_file(c->o->repo, tree, c->src, line);
	}
	if (!ret)
		ret = sk_rmrf(pc);
	if (!ret && unlink(list))
		ret = sk_error_errno(list);
out:
	free(list);
	free(pc);
	sk_strbuf_release(&sb);
	return ret;
}

static int write_text(const char *path, const char *text)
{
	return sk_write_file_atomic(path, text, strlen(text));
}

/*
 * The checkout of the branch tip, reused when src.stamp names the same
 * tree: git_checkout_tree into a target directory, the repository's index
 * neither read as a baseline nor written.
 */
static int prepare_worktree(struct job_ctx *c, git_tree *tree)
{
	struct sk_build *job = c->job;
	char *stamp = sk_xstrfmt("%s/src.stamp", c->o->work);
	char want[GIT_OID_HEXSZ + 1];
	struct sk_strbuf have = SK_STRBUF_INIT;
	git_checkout_options co;
	git_index *empty = NULL;
	double t0 = sk_now();
	int ret;

	git_oid_tostr(want, sizeof(want), git_tree_id(tree));
	ret = sk_mkdir_p(c->o->work, 0755);
	if (ret)
		goto out;
	if (!sk_read_file(&have, stamp) && sk_is_dir(c->src)) {
		sk_strbuf_rtrim(&have);
		if (!strcmp(have.buf, want)) {
			ret = unapply(c, tree);
			if (ret <= 0) {
				job->worktree_reused = 1;
				goto out;
			}
		}
	}
	unlink(stamp);
	ret = sk_rmrf(c->src);
	if (!ret)
		ret = sk_mkdir_p(c->src, 0755);
	if (ret)
		goto out;
	if (git_index_new(&empty)) {
		ret = sk_error_git(SK_ERROR, "in-memory index");
		goto out;
	}
	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	co.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DONT_UPDATE_INDEX |
			       GIT_CHECKOUT_DONT_WRITE_INDEX;
	co.target_directory = c->src;
	co.baseline_index = empty;
	if (git_checkout_tree(c->o->repo, (git_object *)tree, &co)) {
		ret = sk_error_git(SK_ERROR, "checkout of the branch tip");
		goto out;
	}
	{
		char *list = sk_path_join(c->o->work, "src.applied");

		unlink(list);
		free(list);
	}
	ret = write_text(stamp, want);
out:
	job->checkout_s = sk_now() - t0;
	git_index_free(empty);
	sk_strbuf_release(&have);
	free(stamp);
	return ret;
}

/* --- one build: an arch, baseline or patched --- */

/* The environment of every make run, NULL-terminated. */
struct make_env {
	char **vars;
	size_t nr, alloc;
};

static void env_push(struct make_env *e, char *var)
{
	*SK_ARRAY_PUSH(e->vars, e->nr, e->alloc) = var;
	*SK_ARRAY_PUSH(e->vars, e->nr, e->alloc) = NULL;
	e->nr--;
}

static void env_init(struct make_env *e, struct job_ctx *c)
{
	memset(e, 0, sizeof(*e));
	env_push(e, sk_xstrfmt("KBUILD_BUILD_TIMESTAMP=@%lld", c->commit_time));
	env_push(e, sk_xstrdup("KBUILD_BUILD_USER=stablekit"));
	env_push(e, sk_xstrdup("KBUILD_BUILD_HOST=stablekit"));
	env_push(e, sk_xstrdup("LC_ALL=C"));
	env_push(e, sk_xstrfmt("CCACHE_BASEDIR=%s", c->o->work));
	env_push(e, sk_xstrdup("CCACHE_NOHASHDIR=true"));
	if (c->o->distcc_hosts) {
		env_push(e, sk_xstrfmt("DISTCC_HOSTS=%s", c->o->distcc_hosts));
		/* ccache hands what it does not have to distcc */
		env_push(e, sk_xstrdup("CCACHE_PREFIX=distcc"));
	}
}

static void env_release(struct make_env *e)
{
	size_t i;

	for (i = 0; i < e->nr; i++)
		free(e->vars[i]);
	free(e->vars);
	memset(e, 0, sizeof(*e));
}

struct argv_buf {
	char **v;
	size_t nr, alloc;
};

static void av_push(struct argv_buf *a, char *s)
{
	*SK_ARRAY_PUSH(a->v, a->nr, a->alloc) = s;
}

static void av_release(struct argv_buf *a)
{
	sk_strvec_free_array(a->v, a->nr);
	memset(a, 0, sizeof(*a));
}

static void make_argv(struct argv_buf *a, struct job_ctx *c,
		      const struct sk_build_archres *ar, const char *outdir,
		      int jobs)
{
	int ccache = !c->o->no_ccache && sk_run_have("ccache");
	const char *wrap = ccache ? "ccache " : c->o->distcc_hosts ?
		"distcc " : "";

	memset(a, 0, sizeof(*a));
	av_push(a, sk_xstrdup("make"));
	av_push(a, sk_xstrfmt("-C%s", c->src));
	av_push(a, sk_xstrfmt("O=%s", outdir));
	av_push(a, sk_xstrfmt("ARCH=%s", ar->arch->karch));
	if (*ar->cross)
		av_push(a, sk_xstrfmt("CROSS_COMPILE=%s", ar->cross));
	av_push(a, sk_xstrfmt("CC=%s%s", wrap, ar->cc));
	/*
	 * Host tools stay here: sent out, some fail (tools/lib/subcmd's
	 * parse-options.c does, on a distccd with this very gcc), and distcc
	 * then backs off the host for a minute, and the kernel's own
	 * compiles with it.
	 */
	if (ccache && c->o->distcc_hosts)
		av_push(a, sk_xstrdup("HOSTCC=env -u CCACHE_PREFIX ccache gcc"));
	else if (ccache)
		av_push(a, sk_xstrdup("HOSTCC=ccache gcc"));
	if (jobs > 0)
		av_push(a, sk_xstrfmt("-j%d", jobs));
}

static void add_command(struct sk_strbuf *repro, char *const *argv, size_t nr)
{
	if (repro->len)
		sk_strbuf_adds(repro, " && ");
	sk_shell_argv(repro, (const char *const *)argv, nr);
}

struct build {
	struct job_ctx *c;
	struct sk_build_archres *ar;
	struct sk_build_variant *v;
	struct sk_strbuf log;
	struct sk_strbuf repro;
	struct make_env env;
};

static void add_target(struct sk_build_variant *v, const char *name, int ok,
		       double s)
{
	struct sk_kbuild_target *t =
		SK_ARRAY_PUSH(v->targets, v->nr_targets, v->alloc_targets);

	t->name = sk_xstrdup(name);
	t->status = sk_xstrdup(ok ? "pass" : "fail");
	t->duration = s;
}

/* Run argv (a tool, not necessarily make) in cwd; its output to the log. */
static int run_step(struct build *b, char *const *argv, size_t nr,
		    const char *cwd, double *secs)
{
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	char **v = sk_xcalloc(nr + 1, sizeof(*v));
	unsigned int t = b->c->o->timeout_s ? b->c->o->timeout_s : DEFAULT_TIMEOUT_S;
	int ret;

	memcpy(v, argv, nr * sizeof(*v));
	ro.argv = (const char *const *)v;
	ro.cwd = cwd;
	ro.env = (const char *const *)b->env.vars;
	ro.timeout_ms = t * 1000;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	sk_strbuf_addf(&b->log, "$");
	{
		struct sk_strbuf line = SK_STRBUF_INIT;

		add_command(&line, argv, nr);
		sk_strbuf_addf(&b->log, " %s\n", line.buf);
		sk_strbuf_release(&line);
	}
	ret = sk_run(&res, &ro);
	sk_strbuf_add(&b->log, res.out.buf, res.out.len);
	if (ret)
		sk_strbuf_addf(&b->log, "stablekit: %s\n", sk_error_last());
	else if (res.exit_code)
		sk_strbuf_addf(&b->log, "stablekit: exit status %d\n", res.exit_code);
	*secs = res.seconds;
	sk_run_result_release(&res);
	free(v);
	return ret ? ret : res.exit_code;
}

static int make_step(struct build *b, const char *outdir, char *const *goals,
		     size_t nr_goals, double *secs, int in_repro)
{
	struct argv_buf a;
	size_t i;
	int ret;

	make_argv(&a, b->c, b->ar, outdir, b->c->jobs_per_make);
	for (i = 0; i < nr_goals; i++)
		av_push(&a, sk_xstrdup(goals[i]));
	if (in_repro)
		add_command(&b->repro, a.v, a.nr);
	ret = run_step(b, a.v, a.nr, NULL, secs);
	av_release(&a);
	return ret;
}

static char *config_key(struct build *b)
{
	struct job_ctx *c = b->c;
	struct sk_strbuf sb = SK_STRBUF_INIT;

	sk_strbuf_addf(&sb, "no-werror\n%s\n%s\n%s\n%s\n%s\n", c->job->tip,
		       b->ar->arch->name,
		       b->ar->cross, c->job->kconfig_base, c->fragment_key);
	return sk_strbuf_detach(&sb);
}

/* Which lines of the fragments did not make it into .config. */
static void check_config(struct build *b, const char *config)
{
	struct sk_build *job = b->c->job;
	struct sk_strbuf cfg = SK_STRBUF_INIT, frag = SK_STRBUF_INIT;
	size_t i;

	if (sk_read_file(&cfg, config))
		return;
	for (i = 0; i < job->nr_fragments; i++) {
		char *line, *save = NULL;

		sk_strbuf_reset(&frag);
		if (sk_read_file(&frag, job->fragments[i]))
			continue;
		for (line = strtok_r(frag.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			int want_unset = !strncmp(line, "# CONFIG_", 9) &&
					 strstr(line, " is not set");
			char *set;
			int ok;

			if (strncmp(line, "CONFIG_", 7) && !want_unset)
				continue;
			if (!want_unset) {
				set = sk_xstrfmt("\n%s\n", line);
				ok = strstr(cfg.buf, set) || !strncmp(cfg.buf, set + 1,
								     strlen(set + 1));
			} else {
				char *name = sk_xstrndup(line + 2,
							 strcspn(line + 2, " "));

				set = sk_xstrfmt("\n%s=", name);
				ok = !strstr(cfg.buf, set);
				free(name);
			}
			free(set);
			if (!ok)
				push_str(&b->v->kconfig_unmet, &b->v->nr_unmet,
					 &b->v->alloc_unmet, sk_xstrdup(line));
		}
	}
	sk_strbuf_release(&cfg);
	sk_strbuf_release(&frag);
}

static void repro_merge(struct build *b, const char *outdir)
{
	struct sk_build *job = b->c->job;
	size_t i;

	sk_strbuf_adds(&b->repro, " && (cd ");
	sk_shell_quote(&b->repro, outdir);
	sk_strbuf_adds(&b->repro, " && ");
	sk_shell_quote(&b->repro, b->c->src);
	sk_strbuf_adds(&b->repro, "/scripts/kconfig/merge_config.sh -m -O . .config");
	for (i = 0; i < job->nr_fragments; i++)
		sk_strbuf_addf(&b->repro, " .sk-fragment-%zu.config", i);
	sk_strbuf_addch(&b->repro, ')');
}

/*
 * merge_config.sh splits its arguments on blanks: it gets copies of the
 * fragments in O= (.sk-fragment-<n>.config), whatever the project's path.
 */
static int copy_fragments(struct argv_buf *m, struct build *b, const char *outdir)
{
	struct sk_build *job = b->c->job;
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < job->nr_fragments; i++) {
		char *dst = sk_xstrfmt("%s/.sk-fragment-%zu.config", outdir, i);

		sk_strbuf_reset(&sb);
		ret = sk_read_file(&sb, job->fragments[i]);
		if (!ret)
			ret = sk_write_file_atomic(dst, sb.buf, sb.len);
		sk_strbuf_addf(&b->log, "stablekit: %s is %s\n", dst,
			       job->fragments[i]);
		av_push(m, dst);
	}
	sk_strbuf_release(&sb);
	return ret;
}

/*
 * CONFIG_WERROR (on in the x86 defconfigs) would turn a new warning into a
 * failed build: off, so that the queue's warnings are reported as such.
 */
static int no_werror(struct build *b, const char *outdir, double *secs)
{
	struct argv_buf a = { 0 };
	int ret;

	av_push(&a, sk_path_join(b->c->src, "scripts/config"));
	av_push(&a, sk_xstrdup("--file"));
	av_push(&a, sk_path_join(outdir, ".config"));
	av_push(&a, sk_xstrdup("--disable"));
	av_push(&a, sk_xstrdup("WERROR"));
	add_command(&b->repro, a.v, a.nr);
	ret = run_step(b, a.v, a.nr, NULL, secs);
	av_release(&a);
	return ret;
}

/* defconfig (or tinyconfig), the fragments merged, WERROR off, olddefconfig. */
static int configure(struct build *b, const char *outdir, double *secs)
{
	struct sk_build *job = b->c->job;
	char *base[1] = { job->kconfig_base };
	char *old[1] = { "olddefconfig" };
	struct argv_buf m = { 0 };
	double s = 0;
	int ret;

	*secs = 0;
	ret = make_step(b, outdir, base, 1, &s, 1);
	*secs += s;
	if (ret)
		return ret;
	av_push(&m, sk_path_join(b->c->src, "scripts/kconfig/merge_config.sh"));
	av_push(&m, sk_xstrdup("-m"));
	av_push(&m, sk_xstrdup("-O"));
	av_push(&m, sk_xstrdup(outdir));
	av_push(&m, sk_path_join(outdir, ".config"));
	ret = copy_fragments(&m, b, outdir);
	if (!ret && job->nr_fragments) {
		repro_merge(b, outdir);
		ret = run_step(b, m.v, m.nr, outdir, &s);
		*secs += s;
	}
	av_release(&m);
	if (!ret)
		ret = no_werror(b, outdir, &s);
	*secs += s;
	if (ret)
		return ret;
	ret = make_step(b, outdir, old, 1, &s, 1);
	*secs += s;
	return ret;
}

/*
 * The O= directory, configured.  Objects mode keeps one per arch between
 * runs while the configuration key holds, and builds the patched tree in
 * the baseline's directory: prepare is then done once, and the objects are
 * removed before each build so that both logs have their warnings.  (The
 * queue is undone by rewriting the files, newer than any object, so the
 * next baseline rebuilds what the queue touched.)  Kernel mode starts
 * afresh each time, so that every object is compiled and every warning
 * seen; its patched side is built in the baseline's directory of the same
 * run instead (on_baseline).
 */
static int setup_outdir(struct build *b, int patched, int on_base)
{
	struct job_ctx *c = b->c;
	const char *outdir = b->v->outdir;
	char *stamp = sk_path_join(outdir, ".sk-config");
	char *key = config_key(b);
	struct sk_strbuf have = SK_STRBUF_INIT;
	double s = 0, t0 = sk_now();
	int reuse = 0, ret = 0;

	if (c->o->mode == SK_BUILD_OBJECTS && !sk_read_file(&have, stamp))
		reuse = !strcmp(have.buf, key);
	if (on_base) {
		/* the baseline's steps, for the reproducer; the objects are there */
		reuse = 1;
		free(b->v->note);
		b->v->note = sk_xstrdup("built on the baseline's objects: "
					"what the queue reaches compiled again");
	}
	if (!reuse)
		ret = sk_rmrf(outdir);
	if (!ret && !reuse) {
		ret = sk_mkdir_p(outdir, 0755);
		if (!ret)
			ret = configure(b, outdir, &s);
		if (!ret)
			ret = write_text(stamp, key);
	} else if (!ret) {
		/* the steps, for the reproducer, without running them */
		char *base[1] = { c->job->kconfig_base };
		struct argv_buf a;

		make_argv(&a, c, b->ar, outdir, c->jobs_per_make);
		av_push(&a, sk_xstrdup(base[0]));
		add_command(&b->repro, a.v, a.nr);
		av_release(&a);
		if (c->job->nr_fragments)
			repro_merge(b, outdir);
		sk_strbuf_adds(&b->repro, " && ");
		sk_shell_quote(&b->repro, c->src);
		sk_strbuf_adds(&b->repro, "/scripts/config --file ");
		sk_shell_quote(&b->repro, outdir);
		sk_strbuf_adds(&b->repro, "/.config --disable WERROR");
		make_argv(&a, c, b->ar, outdir, c->jobs_per_make);
		av_push(&a, sk_xstrdup("olddefconfig"));
		add_command(&b->repro, a.v, a.nr);
		av_release(&a);
		if (patched && c->kconfig_touched) {
			char *old[1] = { "olddefconfig" };

			/* the next baseline configures afresh */
			unlink(stamp);
			ret = make_step(b, outdir, old, 1, &s, 0);
		}
	}
	add_target(b->v, "config", !ret, sk_now() - t0);
	if (!ret) {
		char *cfg = sk_path_join(outdir, ".config");

		check_config(b, cfg);
		free(cfg);
	}
	free(stamp);
	free(key);
	sk_strbuf_release(&have);
	return ret;
}

static int save_results(struct build *b)
{
	struct job_ctx *c = b->c;
	struct sk_build_variant *v = b->v;
	char *log = sk_path_join(v->resdir, "build.log");
	char *cfg = sk_path_join(v->outdir, ".config");
	char *cfg_out = sk_path_join(v->resdir, "config");
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int ret = sk_write_file_atomic(log, b->log.buf, b->log.len);

	if (!ret && !sk_read_file(&sb, cfg))
		ret = sk_write_file_atomic(cfg_out, sb.buf, sb.len);
	if (!ret && c->o->mode == SK_BUILD_KERNEL && !strcmp(v->status, "pass")) {
		char *img = sk_path_join(v->outdir, b->ar->arch->image_path);
		char *dst = sk_path_join(v->resdir, b->ar->arch->image);

		sk_strbuf_reset(&sb);
		ret = sk_read_file(&sb, img);
		if (!ret)
			ret = sk_write_file_atomic(dst, sb.buf, sb.len);
		if (!ret)
			v->image = dst;
		else
			free(dst);
		free(img);
	}
	free(log);
	free(cfg);
	free(cfg_out);
	sk_strbuf_release(&sb);
	return ret;
}

/* prepare, then the objects, removed first so that they compile again */
static int build_objects(struct build *b)
{
	struct sk_build_archres *ar = b->ar;
	char *goal[1] = { "prepare" };
	double s = 0;
	size_t i;
	int ret;

	progress(b->c, ar->arch->name, b->v->name, "prepare");
	ret = make_step(b, b->v->outdir, goal, 1, &s, 1);
	add_target(b->v, "prepare", !ret, s);
	if (ret || !ar->nr_objects)
		return ret;
	for (i = 0; i < ar->nr_objects; i++) {
		char *o = sk_path_join(b->v->outdir, ar->objects[i]);

		unlink(o);
		free(o);
	}
	progress(b->c, ar->arch->name, b->v->name, "objects");
	ret = make_step(b, b->v->outdir, ar->objects, ar->nr_objects, &s, 1);
	add_target(b->v, "objects", !ret, s);
	return ret;
}

static int build_kernel(struct build *b)
{
	char *goal[1] = { (char *)b->ar->arch->image };
	double s = 0;
	int ret;

	progress(b->c, b->ar->arch->name, b->v->name, "kernel");
	ret = make_step(b, b->v->outdir, goal, 1, &s, 1);
	add_target(b->v, "kernel", !ret, s);
	return ret;
}

/* "export KBUILD_BUILD_...=...; <the commands>" */
static char *reproducer(struct build *b)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	sk_strbuf_adds(&sb, "export");
	for (i = 0; i < b->env.nr; i++)
		if (!strncmp(b->env.vars[i], "KBUILD_", 7) ||
		    !strncmp(b->env.vars[i], "DISTCC_", 7) ||
		    !strncmp(b->env.vars[i], "CCACHE_PREFIX=", 14))
			sk_strbuf_addf(&sb, " %s", b->env.vars[i]);
	sk_strbuf_addf(&sb, "; %s", b->repro.buf);
	sk_strbuf_release(&b->repro);
	return sk_strbuf_detach(&sb);
}

/* The path of to as seen from from, both absolute: "../src/". */
static char *relative_path(const char *to, const char *from)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t common = 0, i;

	for (i = 0; to[i] && to[i] == from[i]; i++)
		if (to[i] == '/')
			common = i + 1;
	if (!to[i] && (from[i] == '/' || !from[i]))
		common = i + (from[i] == '/');
	for (i = common; from[i]; i++)
		if (from[i] == '/' && from[i + 1])
			sk_strbuf_adds(&sb, "../");
	if (from[common])
		sk_strbuf_adds(&sb, "../");
	sk_strbuf_addf(&sb, "%s/", to + common);
	return sk_strbuf_detach(&sb);
}

/*
 * Kernel mode, patched side: built in the baseline's O= directory of this
 * run, whose image is in the results already, so that kbuild compiles
 * again only what the queue's files reach (its dependency files name
 * every header an object read) and relinks, as a developer's incremental
 * build does.  The directory, not a copy: kbuild and objtool keep its
 * absolute path in commands and dependencies, and a copy elsewhere
 * compiles everything again.  A queue that changes a widely included
 * header still recompiles most of the tree; series B's two .c files
 * recompile two objects.  The new warnings are those of what was compiled
 * again, as in objects mode.  Not when the queue changes a Kconfig file,
 * or the baseline did not build here.
 */
static int on_baseline(const struct job_ctx *c, const struct sk_build_archres *ar,
		       int patched)
{
	const struct sk_build_variant *base = &ar->base;

	return patched && c->o->mode == SK_BUILD_KERNEL && !c->kconfig_touched &&
	       base->status && !strcmp(base->status, "pass") && base->image &&
	       base->outdir && sk_is_dir(base->outdir);
}

static void run_variant(struct job_ctx *c, struct sk_build_archres *ar,
			struct sk_build_variant *v, int patched)
{
	struct build b = { c, ar, v, SK_STRBUF_INIT, SK_STRBUF_INIT, { NULL, 0, 0 } };
	int on_base = on_baseline(c, ar, patched);
	const char *strip[4];
	char *src_rel, *src_slash, *out_slash;
	double t0 = sk_now();
	int ret;

	if (on_base) {
		free(v->outdir);
		v->outdir = sk_xstrdup(ar->base.outdir);
	}
	src_rel = relative_path(c->src, v->outdir);
	src_slash = sk_xstrfmt("%s/", c->src);
	out_slash = sk_xstrfmt("%s/", v->outdir);
	env_init(&b.env, c);
	progress(c, ar->arch->name, v->name, "config");
	ret = setup_outdir(&b, patched, on_base);
	if (!ret && c->o->mode == SK_BUILD_OBJECTS)
		ret = build_objects(&b);
	else if (!ret)
		ret = build_kernel(&b);
	v->status = sk_xstrdup(ret ? "fail" : "pass");
	v->duration = sk_now() - t0;
	strip[0] = src_slash;
	strip[1] = out_slash;
	strip[2] = src_rel;	/* kbuild's srctree when O= is beside it */
	strip[3] = NULL;
	sk_kbuild_parse_log(&v->diags, b.log.buf, strip);
	v->reproducer = reproducer(&b);
	if (save_results(&b)) {
		free(v->note);
		v->note = sk_xstrfmt("results not saved: %s", sk_error_last());
	}
	progress(c, ar->arch->name, v->name, v->status);
	env_release(&b.env);
	sk_strbuf_release(&b.log);
	free(src_slash);
	free(src_rel);
	free(out_slash);
}

/* --- the scheduler: arches side by side, a fixed number at once --- */

struct task {
	struct sk_build_archres *ar;
	int patched;
};

struct pool {
	struct job_ctx *c;
	struct task *tasks;
	size_t nr, next;
	pthread_mutex_t lock;
};

static void *worker(void *data)
{
	struct pool *p = data;

	for (;;) {
		struct task *t;

		pthread_mutex_lock(&p->lock);
		t = p->next < p->nr ? &p->tasks[p->next++] : NULL;
		pthread_mutex_unlock(&p->lock);
		if (!t)
			return NULL;
		run_variant(p->c, t->ar, t->patched ? &t->ar->patched : &t->ar->base,
			    t->patched);
	}
}

static void run_phase(struct job_ctx *c, int patched)
{
	struct sk_build *job = c->job;
	struct pool p = { c, NULL, 0, 0, PTHREAD_MUTEX_INITIALIZER };
	pthread_t th[8];
	size_t i, n;

	p.tasks = sk_xcalloc(job->nr_arches + 1, sizeof(*p.tasks));
	for (i = 0; i < job->nr_arches; i++) {
		struct sk_build_archres *ar = &job->arches[i];
		struct sk_build_variant *v = patched ? &ar->patched : &ar->base;

		if (v->status)
			continue;	/* decided already: toolchain, skipped */
		p.tasks[p.nr].ar = ar;
		p.tasks[p.nr++].patched = patched;
	}
	n = (size_t)job->parallel < p.nr ? (size_t)job->parallel : p.nr;
	if (n > 8)
		n = 8;
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, worker, &p))
			break;
	if (!i)
		worker(&p);
	n = i;
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	free(p.tasks);
}

/* --- the job --- */

static int quilt_push(struct job_ctx *c)
{
	struct sk_build *job = c->job;
	char *qdir = queue_dir(c);
	char *abs = realpath(qdir, NULL);
	char *qenv = sk_xstrfmt("QUILT_PATCHES=%s", abs ? abs : qdir);
	const char *env[] = { qenv, "QUILT_PC=.pc", "LC_ALL=C", NULL };
	const char *argv[] = { "quilt", "--quiltrc", "-", "push", "-a", NULL };
	char *list = sk_xstrfmt("%s/src.applied", c->o->work);
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	struct sk_strbuf files = SK_STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < job->nr_files; i++)
		sk_strbuf_addf(&files, "%s\n", job->files[i]);
	ret = write_text(list, files.buf);
	if (ret)
		goto out;
	ro.argv = argv;
	ro.cwd = c->src;
	ro.env = env;
	ro.timeout_ms = 600 * 1000;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	ret = sk_run(&res, &ro);
	if (ret) {
		sk_error_prefix(ret, "quilt");
		goto out;
	}
	job->queue_log = sk_strbuf_detach(&res.out);
	job->queue_status = sk_xstrdup(res.exit_code ? "apply-failed" : "applied");
out:
	sk_run_result_release(&res);
	sk_strbuf_release(&files);
	free(list);
	free(qenv);
	free(abs);
	free(qdir);
	return ret;
}

/*
 * ci/kconfig: objects mode takes every fragment but gate-*.config, of the
 * project's ci/kconfig/ when it has one, else of the shipped defaults
 * (core/datadir.h); kernel mode the project's gate-kernel.config, else
 * the shipped one.
 */
static int pick_fragments(struct job_ctx *c, struct sk_strbuf *key)
{
	struct sk_build *job = c->job;
	int shipped = 0;
	char *dir = sk_datadir_find(c->o->top, "ci/kconfig", &shipped);
	struct sk_strbuf sb = SK_STRBUF_INIT;
	DIR *d;
	struct dirent *e;
	size_t i, first = job->nr_fragments;
	int ret = 0;

	if (c->o->mode == SK_BUILD_KERNEL) {
		char *p = sk_datadir_find(c->o->top, "ci/kconfig/gate-kernel.config",
					  &shipped);

		if (!sk_path_exists(p)) {
			ret = sk_error_set(SK_ENOTFOUND, "'%s' not found", p);
			free(p);
			goto out;
		}
		push_str(&job->fragments, &job->nr_fragments,
			 &job->alloc_fragments, p);
	} else if ((d = opendir(dir))) {
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n > 7 && !strcmp(e->d_name + n - 7, ".config") &&
			    strncmp(e->d_name, "gate-", 5))
				push_str(&job->fragments, &job->nr_fragments,
					 &job->alloc_fragments,
					 sk_path_join(dir, e->d_name));
		}
		closedir(d);
		qsort(job->fragments + first, job->nr_fragments - first,
		      sizeof(char *), sk_str_cmp);
	}
	job->nr_kconfig = job->nr_fragments - first;
	job->kconfig_shipped = job->nr_kconfig ? shipped : 0;
	for (i = 0; i < c->o->nr_fragments; i++) {
		char *abs = realpath(c->o->fragments[i], NULL);

		if (!abs) {
			ret = sk_error_set(SK_ENOTFOUND, "fragment '%s' not found",
					   c->o->fragments[i]);
			goto out;
		}
		push_str(&job->fragments, &job->nr_fragments,
			 &job->alloc_fragments, abs);
	}
	for (i = 0; i < job->nr_fragments; i++) {
		sk_strbuf_reset(&sb);
		ret = sk_read_file(&sb, job->fragments[i]);
		if (ret)
			goto out;
		sk_strbuf_addf(key, "%s\n%s", job->fragments[i], sb.buf);
	}
out:
	free(dir);
	sk_strbuf_release(&sb);
	return ret;
}

static char *cc_version(const char *cc)
{
	const char *argv[] = { cc, "--version", NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	char *v = NULL;

	if (!sk_run_have(cc))
		return NULL;
	ro.argv = argv;
	ro.timeout_ms = 30000;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_QUIET;
	if (!sk_run(&res, &ro) && !res.exit_code)
		v = sk_xstrndup(res.out.buf, strcspn(res.out.buf, "\n"));
	sk_run_result_release(&res);
	return v;
}

static void setup_arch(struct job_ctx *c, struct sk_build_archres *ar,
		       const char *name)
{
	const struct sk_build_opts *o = c->o;
	const char *mode = sk_build_mode_name(o->mode);
	size_t i, n = strlen(name);

	ar->arch = sk_arch_find(name);
	ar->cross = sk_xstrdup(ar->arch->cross);
	for (i = 0; i < o->nr_cross; i++)
		if (!strncmp(o->cross[i], name, n) && o->cross[i][n] == '=') {
			free(ar->cross);
			ar->cross = sk_xstrdup(o->cross[i] + n + 1);
		}
	ar->cc = sk_xstrfmt("%sgcc", ar->cross);
	ar->cc_version = cc_version(ar->cc);
	ar->base.name = "baseline";
	ar->patched.name = "patched";
	ar->base.outdir = sk_xstrfmt(o->mode == SK_BUILD_OBJECTS ? "%s/%s-%s" :
				     "%s/%s-%s-baseline", o->work, name, mode);
	if (o->mode == SK_BUILD_OBJECTS)
		ar->patched.outdir = sk_xstrdup(ar->base.outdir);
	else
		ar->patched.outdir = sk_xstrfmt("%s/%s-%s-patched", o->work,
						name, mode);
	ar->base.resdir = sk_xstrfmt("%s/%s/baseline", o->results, name);
	ar->patched.resdir = sk_xstrfmt("%s/%s/patched", o->results, name);
	if (o->nr_objects)
		for (i = 0; i < o->nr_objects; i++)
			push_str(&ar->objects, &ar->nr_objects, &ar->alloc_objects,
				 sk_xstrdup(o->objects[i]));
	else
		sk_kbuild_objects(&ar->objects, &ar->nr_objects,
				  &ar->alloc_objects, ar->arch, c->job->files,
				  c->job->nr_files);
	if (!ar->cc_version) {
		char *why = sk_xstrfmt("toolchain '%s' not found", ar->cc);

		ar->base.status = sk_xstrdup("toolchain-missing");
		ar->patched.status = sk_xstrdup("toolchain-missing");
		ar->base.note = why;
		ar->patched.note = sk_xstrdup(why);
	}
}

static void judge_arch(struct job_ctx *c, struct sk_build_archres *ar,
		       const struct sk_kbuild_allowlist *allow)
{
	const char *b = ar->base.status, *p = ar->patched.status;
	size_t i, bad = 0;

	/* with --no-baseline there is nothing to compare against */
	if ((!strcmp(p, "pass") || !strcmp(p, "fail")) &&
	    (!strcmp(b, "pass") || !strcmp(b, "fail")))
		sk_kbuild_new_warnings(&ar->new_warnings, &ar->base.diags,
				       &ar->patched.diags);
	ar->allowed = sk_xcalloc(ar->new_warnings.nr + 1, sizeof(int));
	for (i = 0; i < ar->new_warnings.nr; i++) {
		ar->allowed[i] = sk_kbuild_allowed(allow, ar->arch->name,
						   &ar->new_warnings.items[i]);
		bad += !ar->allowed[i];
	}
	if (!strcmp(p, "fail") && strcmp(b, "fail")) {
		ar->gate_failed = 1;
		ar->gate_why = sk_xstrdup(strcmp(b, "pass") ?
					  "the patched build fails" :
					  "the patched build fails, the baseline passes");
	} else if (!strcmp(p, "fail")) {
		/* nothing built: no pass, whatever the baseline did */
		ar->gate_failed = 1;
		ar->gate_why = sk_xstrdup("the baseline and the patched build "
					  "both fail: nothing tells the queue "
					  "is good");
	} else if (bad) {
		ar->gate_failed = 1;
		ar->gate_why = sk_xstrfmt("%zu new warning%s", bad,
					  bad == 1 ? "" : "s");
	}
	(void)c;
}

static void write_metadata(struct job_ctx *c, struct sk_build_archres *ar,
			   struct sk_build_variant *v)
{
	json_t *m;
	char *path;

	if (sk_mkdir_p(v->resdir, 0755))
		return;
	m = sk_build_variant_metadata(c->job, ar, v);
	path = sk_path_join(v->resdir, "metadata.json");
	{
		char *text = json_dumps(m, JSON_INDENT(2) | JSON_SORT_KEYS);

		if (text) {
			size_t n = strlen(text);

			text = sk_xrealloc(text, n + 2);
			text[n] = '\n';
			text[n + 1] = '\0';
			sk_write_file_atomic(path, text, n + 1);
		}
		free(text);
	}
	free(path);
	json_decref(m);
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

static void scheduling(struct job_ctx *c)
{
	struct sk_build *job = c->job;
	int jobs = c->o->jobs > 0 ? c->o->jobs : online_cpus();
	int par = c->o->parallel > 0 ? c->o->parallel : (int)job->nr_arches;
	int slots;

	/* the hosts take more than this machine: as many jobs as they take */
	if (c->o->jobs <= 0 && c->o->distcc_hosts &&
	    !sk_distcc_hosts_parse(c->o->distcc_hosts, &slots) && slots > jobs)
		jobs = slots;

	if (par > (int)job->nr_arches)
		par = (int)job->nr_arches;
	if (par < 1)
		par = 1;
	job->parallel = par;
	c->jobs_per_make = jobs / par > 0 ? jobs / par : 1;
	job->jobs_per_make = c->jobs_per_make;
	if (c->o->distcc_hosts)
		job->distcc_hosts = sk_xstrdup(c->o->distcc_hosts);
}

/*
 * One run at a time per work directory: a second one (two test runs, a
 * gate and a user) waits for <work>/lock instead of sharing the checkout.
 */
static int lock_work(struct job_ctx *c, int *fd)
{
	char *path = sk_path_join(c->o->work, "lock");
	/* the worktree and every O= directory are under it */
	int ret = sk_kbuild_check_path(c->o->work);

	if (!ret)
		ret = sk_mkdir_p(c->o->work, 0755);

	*fd = -1;
	if (!ret) {
		*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (*fd < 0)
			ret = sk_error_errno(path);
	}
	if (!ret && flock(*fd, LOCK_EX | LOCK_NB)) {
		progress(c, "*", "*", "waiting for another build of this branch");
		while (flock(*fd, LOCK_EX) && errno == EINTR)
			;
	}
	free(path);
	return ret;
}

static int run_builds(struct job_ctx *c, git_tree *tree)
{
	struct sk_build *job = c->job;
	struct sk_kbuild_allowlist allow = { 0 };
	char *allow_path = sk_path_join(c->o->top, "ci/build-allowlist");
	size_t i;
	int ret = sk_kbuild_allowlist_load(&allow, allow_path);

	free(allow_path);
	if (ret)
		return ret;
	progress(c, "*", "*", "checkout");
	ret = prepare_worktree(c, tree);
	if (ret)
		goto out;
	for (i = 0; i < job->nr_arches; i++) {
		/* nothing of an earlier run left beside this one's results */
		ret = sk_rmrf(job->arches[i].base.resdir);
		if (!ret)
			ret = sk_rmrf(job->arches[i].patched.resdir);
		if (!ret)
			ret = sk_mkdir_p(job->arches[i].base.resdir, 0755);
		if (!ret)
			ret = sk_mkdir_p(job->arches[i].patched.resdir, 0755);
		if (ret)
			goto out;
		if (c->o->no_baseline && job->nr_patches &&
		    !job->arches[i].base.status) {
			job->arches[i].base.status = sk_xstrdup("skipped");
			job->arches[i].base.note = sk_xstrdup("--no-baseline");
		}
	}
	run_phase(c, 0);
	if (!job->nr_patches) {
		job->queue_status = sk_xstrdup("none");
	} else {
		progress(c, "*", "*", "quilt push");
		ret = quilt_push(c);
		if (ret)
			goto out;
	}
	for (i = 0; i < job->nr_arches; i++) {
		struct sk_build_variant *v = &job->arches[i].patched;

		if (v->status)
			continue;
		if (!job->nr_patches) {
			v->status = sk_xstrdup("skipped");
			v->note = sk_xstrdup("no queue: baseline only");
		} else if (strcmp(job->queue_status, "applied")) {
			v->status = sk_xstrdup("skipped");
			v->note = sk_xstrdup("the queue does not apply");
		}
	}
	run_phase(c, 1);
	if (job->nr_patches)
		ret = unapply(c, tree);
	if (ret > 0)
		ret = 0;
	if (job->queue_status && !strcmp(job->queue_status, "apply-failed"))
		job->gate_failed = 1;
	for (i = 0; i < job->nr_arches; i++) {
		struct sk_build_archres *ar = &job->arches[i];

		judge_arch(c, ar, &allow);
		job->gate_failed |= ar->gate_failed;
		write_metadata(c, ar, &ar->base);
		write_metadata(c, ar, &ar->patched);
	}
out:
	sk_kbuild_allowlist_release(&allow);
	return ret;
}

int sk_build_run(struct sk_build *job, const struct sk_build_opts *o)
{
	struct job_ctx c = { o, job, NULL, 0, 1, 0, NULL, PTHREAD_MUTEX_INITIALIZER };
	struct sk_strbuf hash_input = SK_STRBUF_INIT, key = SK_STRBUF_INIT;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	double t0 = sk_now();
	size_t i;
	int ret, lock_fd = -1;

	memset(job, 0, sizeof(*job));
	job->branch = sk_xstrdup(o->branch->name);
	job->mode = sk_xstrdup(sk_build_mode_name(o->mode));
	job->kconfig_base = sk_xstrdup(o->mode == SK_BUILD_KERNEL ?
				       "tinyconfig" : "defconfig");
	job->worktree = sk_path_join(o->work, "src");
	c.src = job->worktree;
	/*
	 * A ref the repository lacks says so first; then a series that did
	 * not port (what the branch should have is not known); then a tree
	 * that is no kernel.
	 */
	ret = resolve_tip(&c, &commit, &tree);
	if (!ret && !o->queue_dir && o->not_ported)
		job->not_run = sk_xstrfmt("not run: the selected series did not port (%s)",
					  o->not_ported);
	if (!ret && job->not_run) {
		job->why = sk_xstrdup(job->not_run);
		goto out;
	}
	if (!ret)
		ret = check_kernel_tree(&c, tree);
	if (ret) {
		ret = ret > 0 ? 0 : ret;
		goto out;
	}
	job->buildable = 1;
	describe(job, commit);
	if (!sk_run_have("make") || !sk_run_have("quilt")) {
		ret = sk_error_set(SK_ETOOL, "make and quilt are needed (make deps)");
		goto out;
	}
	if (o->distcc_hosts && !sk_run_have("distcc")) {
		ret = sk_error_set(SK_ETOOL, "[build] distcc-hosts is set in "
				   "stable/branches.conf but distcc is not "
				   "installed (make deps-test)");
		goto out;
	}
	ret = read_queue(&c, &hash_input);
	if (!ret)
		ret = pick_fragments(&c, &key);
	if (ret)
		goto out;
	c.fragment_key = key.buf;
	job->arches = sk_xcalloc(o->nr_arches + 1, sizeof(*job->arches));
	job->nr_arches = o->nr_arches;
	for (i = 0; i < o->nr_arches; i++) {
		if (!sk_arch_find(o->arches[i])) {
			ret = sk_error_set(SK_EINVALID, "unknown arch '%s'",
					   o->arches[i]);
			goto out;
		}
		setup_arch(&c, &job->arches[i], o->arches[i]);
	}
	scheduling(&c);
	ret = lock_work(&c, &lock_fd);
	if (!ret)
		ret = run_builds(&c, tree);
	if (lock_fd >= 0)
		close(lock_fd);
out:
	job->duration = sk_now() - t0;
	git_tree_free(tree);
	git_commit_free(commit);
	sk_strbuf_release(&hash_input);
	sk_strbuf_release(&key);
	return ret;
}

static void variant_release(struct sk_build_variant *v)
{
	size_t i;

	free(v->status);
	free(v->note);
	for (i = 0; i < v->nr_targets; i++) {
		free(v->targets[i].name);
		free(v->targets[i].status);
	}
	free(v->targets);
	sk_kbuild_diags_release(&v->diags);
	sk_strvec_free_array(v->kconfig_unmet, v->nr_unmet);
	free(v->outdir);
	free(v->resdir);
	free(v->image);
	free(v->reproducer);
}

void sk_build_release(struct sk_build *job)
{
	size_t i;

	if (!job)
		return;
	for (i = 0; i < job->nr_arches; i++) {
		struct sk_build_archres *ar = &job->arches[i];

		free(ar->cross);
		free(ar->cc);
		free(ar->cc_version);
		sk_strvec_free_array(ar->objects, ar->nr_objects);
		variant_release(&ar->base);
		variant_release(&ar->patched);
		sk_kbuild_diags_release(&ar->new_warnings);
		free(ar->allowed);
		free(ar->gate_why);
	}
	free(job->arches);
	free(job->branch);
	free(job->mode);
	free(job->distcc_hosts);
	free(job->why);
	free(job->not_run);
	free(job->describe);
	free(job->worktree);
	sk_strvec_free_array(job->patches, job->nr_patches);
	sk_strvec_free_array(job->files, job->nr_files);
	sk_strvec_free_array(job->fragments, job->nr_fragments);
	free(job->queue_status);
	free(job->queue_log);
	free(job->kconfig_base);
	memset(job, 0, sizeof(*job));
}

/* --- JSON --- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *sk_build_variant_metadata(const struct sk_build *job,
				   const struct sk_build_archres *ar,
				   const struct sk_build_variant *v)
{
	json_t *targets = json_object(), *durations = json_object();
	json_t *build, *results, *source, *compiler;
	size_t i;

	for (i = 0; i < v->nr_targets; i++) {
		json_object_set_new(targets, v->targets[i].name,
				    json_pack("{s:s, s:f}", "status",
					      v->targets[i].status, "duration",
					      v->targets[i].duration));
		json_object_set_new(durations, v->targets[i].name,
				    json_real(v->targets[i].duration));
	}
	json_object_set_new(durations, "build", json_real(v->duration));
	build = json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:o, s:i, s:o, s:o}",
			  "target_arch", ar->arch->name,
			  "kernel_arch", ar->arch->karch,
			  "mode", job->mode, "variant", v->name,
			  "cross_compile", json_string(ar->cross),
			  "kconfig", job->kconfig_base,
			  "kconfig_add", sk_strvec_array_json(job->fragments, job->nr_fragments),
			  "jobs", job->jobs_per_make,
			  "objects", sk_strvec_array_json(ar->objects, ar->nr_objects),
			  "out_dir", str_or_null(v->outdir));
	json_object_set_new(build, "environment",
			    json_pack("{s:s, s:s, s:s}",
				      "KBUILD_BUILD_TIMESTAMP", "fixed: commit time",
				      "KBUILD_BUILD_USER", "stablekit",
				      "KBUILD_BUILD_HOST", "stablekit"));
	compiler = json_pack("{s:s, s:s, s:o}", "name", "gcc", "cc", ar->cc,
			     "version_full", str_or_null(ar->cc_version));
	results = json_pack("{s:s, s:o, s:o, s:i, s:i, s:o, s:o, s:o, s:o}",
			    "status", v->status, "targets", targets,
			    "duration", durations,
			    "warnings_count",
			    (json_int_t)sk_kbuild_count(&v->diags, "warning"),
			    "errors_count",
			    (json_int_t)sk_kbuild_count(&v->diags, "error"),
			    "warnings", sk_kbuild_diags_json(&v->diags, "warning"),
			    "errors", sk_kbuild_diags_json(&v->diags, "error"),
			    "kconfig_unmet", sk_strvec_array_json(v->kconfig_unmet, v->nr_unmet),
			    "note", str_or_null(v->note));
	json_object_set_new(results, "artifacts",
			    json_pack("{s:s, s:s, s:o}", "log", "build.log",
				      "config", "config",
				      "image", str_or_null(v->image)));
	source = json_pack("{s:s, s:s, s:s, s:o}", "branch", job->branch,
			   "git_sha", job->tip, "git_describe",
			   job->describe ? job->describe : "",
			   "worktree", str_or_null(job->worktree));
	json_object_set_new(source, "queue",
			    strcmp(v->name, "patched") ? json_array() :
			    sk_strvec_array_json(job->patches, job->nr_patches));
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "build", build,
			 "compiler", compiler, "results", results,
			 "source", source, "reproducer",
			 str_or_null(v->reproducer));
}

static void variant_summary(struct sk_build_results_variant *out,
			    const struct sk_build_variant *v)
{
	out->status = sk_xstrdup(v->status ? v->status : "skipped");
	out->duration = v->duration;
	out->has_duration = 1;
	out->warnings = (long long)sk_kbuild_count(&v->diags, "warning");
	out->has_warnings = 1;
	out->errors = (long long)sk_kbuild_count(&v->diags, "error");
	out->has_errors = 1;
	out->note = v->note ? sk_xstrdup(v->note) : NULL;
	out->results = v->resdir ? sk_xstrdup(v->resdir) : NULL;
	out->image = v->image ? sk_xstrdup(v->image) : NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? sk_xstrdup(s) : NULL;
}

static char **dup_array(char *const *v, size_t nr)
{
	char **out = sk_xcalloc(nr + 1, sizeof(*out));
	size_t i;

	for (i = 0; i < nr; i++)
		out[i] = sk_xstrdup(v[i]);
	return out;
}

static void diag_copy(struct sk_kbuild_diag *out, const struct sk_kbuild_diag *d)
{
	out->file = dup_or_null(d->file);
	out->line = d->line;
	out->column = d->column;
	out->function = dup_or_null(d->function);
	out->severity = dup_or_null(d->severity);
	out->message = dup_or_null(d->message);
}

static void arch_summary(struct sk_build_results_arch *out,
			 const struct sk_build_archres *ar)
{
	size_t j;

	out->arch = sk_xstrdup(ar->arch->name);
	out->cc = dup_or_null(ar->cc);
	out->toolchain = dup_or_null(ar->cc_version);
	variant_summary(&out->baseline, &ar->base);
	variant_summary(&out->patched, &ar->patched);
	out->new_warnings = sk_xcalloc(ar->new_warnings.nr + 1,
				       sizeof(*out->new_warnings));
	out->nr_new_warnings = ar->new_warnings.nr;
	out->has_new_warnings = 1;
	for (j = 0; j < ar->new_warnings.nr; j++) {
		diag_copy(&out->new_warnings[j].diag, &ar->new_warnings.items[j]);
		out->new_warnings[j].allowed = ar->allowed[j];
	}
	out->gate_failed = ar->gate_failed;
	out->gate_why = dup_or_null(ar->gate_why);
}

void sk_build_summary(struct sk_build_results *out, const struct sk_build *job)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->branch = dup_or_null(job->branch);
	out->mode = dup_or_null(job->mode);
	out->buildable = job->buildable;
	if (job->not_run) {
		out->not_run = sk_xstrdup(job->not_run);
		out->gate = sk_xstrdup("not run");
		return;
	}
	if (!job->buildable) {
		out->why = dup_or_null(job->why);
		return;
	}
	out->arches = sk_xcalloc(job->nr_arches + 1, sizeof(*out->arches));
	out->nr_arches = job->nr_arches;
	for (i = 0; i < job->nr_arches; i++)
		arch_summary(&out->arches[i], &job->arches[i]);
	out->tip = sk_xstrdup(job->tip);
	out->describe = dup_or_null(job->describe);
	out->worktree = dup_or_null(job->worktree);
	out->worktree_reused = job->worktree_reused;
	out->checkout_s = job->checkout_s;
	out->patches = dup_array(job->patches, job->nr_patches);
	out->nr_patches = job->nr_patches;
	out->files = dup_array(job->files, job->nr_files);
	out->nr_files = job->nr_files;
	out->queue_status = dup_or_null(job->queue_status);
	out->queue_log = dup_or_null(job->queue_log);
	out->kconfig = dup_or_null(job->kconfig_base);
	out->fragments = dup_array(job->fragments, job->nr_fragments);
	out->nr_fragments = job->nr_fragments;
	/* ci/kconfig's fragments: the project's own, or the shipped defaults */
	out->kconfig_from = sk_xstrdup(job->kconfig_shipped ? "shipped" : "project");
	out->parallel = job->parallel;
	out->jobs_per_make = job->jobs_per_make;
	out->distcc_hosts = dup_or_null(job->distcc_hosts);
	out->duration = job->duration;
	out->gate = sk_xstrdup(job->gate_failed ? "fail" : "pass");
}
