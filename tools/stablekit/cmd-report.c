#include "builtin.h"
#include "track/status.h"
#include "port/port-stale.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/identity.h"
#include "core/options.h"
#include "report/report.h"
#include "project/repo.h"
#include "core/results.h"
#include "core/run.h"
#include "core/strbuf.h"
#include "core/utf8.h"

#include <dirent.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] =
	"stablekit report [--branch <b>]... [--summary [--include <results>]...]\n"
	"                 [--results <dir>] [--repo <path>] [--check] [--json]";

struct report_args {
	struct sk_strvec branches, include;
	const char *results, *repo;
	int summary, check, json;
};

/* The status of every branch into *out; 0 with *why when it cannot be had. */
static int load_status(struct sk_status_results *out,
		       const struct sk_context *ctx, const char *repo,
		       char **why)
{
	*why = NULL;
	if (!sk_status_load(out, ctx->top, repo)) {
		sk_port_stale_find(&out->stale, ctx->top);
		return 1;
	}
	*why = sk_xstrfmt("not run: status: %s", sk_error_last());
	sk_status_results_release(out);
	return 0;
}

/* The MAINTAINERS of the branch tip, read from the repository by libgit2. */
static char *branch_maintainers(const struct sk_status_results *status,
				const char *branch, char **name)
{
	git_repository *repo = NULL;
	struct sk_strbuf text = SK_STRBUF_INIT;
	const struct sk_status_results_branch *b =
		sk_status_results_branch(status, branch);
	const char *path = status->repository, *tip = b ? b->tip : NULL;

	*name = NULL;
	if (!tip || !path || !*path || sk_repo_open(&repo, path) ||
	    sk_repo_read_at(&text, repo, tip, "MAINTAINERS")) {
		sk_error_clear();
		git_error_clear();
		git_repository_free(repo);
		sk_strbuf_release(&text);
		return NULL;
	}
	*name = sk_xstrfmt("MAINTAINERS at %.12s", tip);
	git_repository_free(repo);
	return sk_strbuf_detach(&text);
}

/* Results files that exist but do not parse: the report says so, and exits 128. */
static int input_errors(json_t *rep)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(rep, "input_errors"), i, e)
		fprintf(stderr, "error: %s\n", json_string_value(e));
	return json_array_size(json_object_get(rep, "input_errors")) > 0;
}

/* When the summary was made: SOURCE_DATE_EPOCH for reproducible output. */
static json_t *made_at(void)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	time_t t = env && *env ? (time_t)strtoll(env, NULL, 10) : time(NULL);
	struct tm tm;
	char buf[32];

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm))
		return json_null();
	return json_string(buf);
}

/* The path of "to" relative to the directory "from"; both must exist. */
static char *relative_to(const char *from, const char *to)
{
	char *f = realpath(from, NULL), *t = realpath(to, NULL), *out = NULL;
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t common = 0, i;

	if (!f || !t)
		goto out;
	for (i = 0; f[i] && f[i] == t[i]; i++)
		if (f[i] == '/')
			common = i;
	if (!f[i] && t[i] == '/')
		common = i;
	for (i = common; f[i]; i++)
		if (f[i] == '/')
			sk_strbuf_adds(&sb, "../");
	sk_strbuf_adds(&sb, t + common + 1);
	out = sk_strbuf_detach(&sb);
out:
	free(f);
	free(t);
	return out;
}

/* "work/model/results" -> "model": the directory that holds the results. */
static char *project_label(const char *results)
{
	char *dir = sk_xstrdup(results), *slash, *name;

	while ((slash = strrchr(dir, '/')) && !slash[1] && slash > dir)
		*slash = '\0';
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	name = strrchr(dir, '/');
	name = sk_xstrdup(name ? name + 1 : dir);
	free(dir);
	return name;
}

/*
 * Another project's summary (the main job's model branches) joins this one:
 * one table over every branch, each row linking to its own report.
 */
static int include_summary(json_t *sum, const char *report_dir, const char *results)
{
	char *path = sk_xstrfmt("%s/report/summary.json", results), *why = NULL;
	char *label = project_label(results);
	json_t *other = sk_results_load(path, &why), *b;
	size_t i;
	int ret = 0;

	if (!other) {
		ret = sk_error_set(SK_ENOTFOUND, "--include %s: %s (run stablekit "
				   "report --summary for that project first)",
				   results, why);
		goto out;
	}
	json_array_foreach(json_object_get(other, "branches"), i, b) {
		char *page = sk_xstrfmt("%s/%s/report/report.html", results,
					sk_report_str(b, "branch"));
		char *rel = relative_to(report_dir, page);
		json_t *row = json_deep_copy(b);

		json_object_set_new(row, "report", json_string(rel ? rel : page));
		json_object_set_new(row, "results", json_string(results));
		/* the same branch name may stand in both projects */
		json_object_set_new(row, "project", json_string(label));
		json_array_append_new(json_object_get(sum, "branches"), row);
		free(rel);
		free(page);
	}
	if (!json_is_array(json_object_get(sum, "included")))
		json_object_set_new(sum, "included", json_array());
	json_array_append_new(json_object_get(sum, "included"), json_pack(
		"{s:s, s:O?, s:O?}", "results", results,
		"status", json_object_get(other, "status"),
		"status_reason", json_object_get(other, "status_reason")));
out:
	json_decref(other);
	free(label);
	free(why);
	free(path);
	return ret;
}

static int write_text(const char *dir, const char *file, const char *text)
{
	char *path = sk_path_join(dir, file);
	int ret = sk_write_file_atomic(path, text, strlen(text));

	free(path);
	return ret;
}

/*
 * The FAILED mails of stable/<branch>/failed/, as port wrote them: port
 * addresses a mail by the branch's kind (lib/port/port-mail.c, the one
 * place that does), so the report keeps its headers and the blank line
 * after them, byte for byte.  A file without a header block is not a mail
 * port wrote: it is left out and said so.
 */
static int copy_failed(const char *top, const char *branch, json_t *rep,
		       const char *outdir)
{
	char *src = sk_xstrfmt("%s/stable/%s/failed", top, branch);
	char *dst = sk_path_join(outdir, "failed");
	DIR *d = opendir(src);
	struct dirent *e;
	int ret = 0;

	while (d && !ret && (e = readdir(d))) {
		struct sk_strbuf in = SK_STRBUF_INIT;
		char *path;

		if (e->d_name[0] == '.')
			continue;
		path = sk_path_join(src, e->d_name);
		ret = sk_read_file(&in, path);
		if (!ret && (!strstr(in.buf, "\n\n") ||
			     strncmp(in.buf, "Subject: ", 9))) {
			fprintf(stderr, "warning: %s: not a FAILED mail "
				"(no Subject: and header block); not copied\n",
				path);
		} else if (!ret) {
			ret = sk_mkdir_p(dst, 0755);
			if (!ret)
				ret = write_text(dst, e->d_name, in.buf);
			json_array_append_new(json_object_get(rep, "failed_mails"),
					      json_sprintf("%s/%s", dst, e->d_name));
		}
		free(path);
		sk_strbuf_release(&in);
	}
	if (d)
		closedir(d);
	free(src);
	free(dst);
	return ret;
}

static int save_report(const char *dir, json_t *rep, const char *top)
{
	char *text, *html, *json_path = sk_path_join(dir, "report.json");
	int ret = sk_mkdir_p(dir, 0755);

	json_object_set_new(rep, "failed_mails", json_array());
	if (!ret)
		ret = copy_failed(top, sk_report_str(rep, "branch"), rep, dir);
	text = sk_report_text(rep);
	html = sk_report_html(rep);
	if (!ret)
		ret = write_text(dir, "report.txt", text);
	if (!ret)
		ret = write_text(dir, "report.html", html);
	if (!ret)
		ret = sk_results_save(json_path, rep);
	free(text);
	free(html);
	free(json_path);
	return ret;
}

/* Every branch of stable/branches.conf except mainline, or --branch's. */
/*
 * The branches asked for, each of which must be configured (an unknown
 * name is a usage error, before anything is written), else every branch
 * but mainline.
 */
static int pick_branches(struct sk_strvec *out, const struct report_args *a,
			 const char *top)
{
	struct sk_branches b;
	char *path;
	size_t i;
	int ret;

	path = sk_path_join(top, SK_BRANCHES_CONF);
	ret = sk_branches_load(&b, path);
	free(path);
	if (ret)
		return ret;
	memset(out, 0, sizeof(*out));
	for (i = 0; i < a->branches.nr; i++) {
		if (sk_branches_require(&b, a->branches.items[i])) {
			fprintf(stderr, "error: %s\n", sk_error_last());
			sk_branches_release(&b);
			return SK_EXIT_USAGE;
		}
	}
	if (a->branches.nr) {
		*out = a->branches;
		sk_branches_release(&b);
		return 0;
	}
	for (i = 0; i < b.nr; i++)
		if (b.items[i].kind != SK_BRANCH_MAINLINE)
			*SK_ARRAY_PUSH(out->items, out->nr, out->alloc) =
				sk_xstrdup(b.items[i].name);
	sk_branches_release(&b);
	return 0;
}

static void print_report(json_t *rep, int json)
{
	char *text;

	if (json) {
		json_dumpf(rep, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		return;
	}
	text = sk_report_text(rep);
	fputs(text, stdout);
	free(text);
}

static int run(const struct report_args *a, const struct sk_context *ctx,
	       const struct sk_strvec *branches)
{
	char *root = a->results ? sk_xstrdup(a->results) : sk_results_dir(ctx->top);
	char *status_why = NULL, *tester = sk_identity(ctx->top), *path;
	struct sk_status_results status_in;
	const struct sk_status_results *status = NULL;
	json_t **reps = sk_xcalloc(branches->nr + 1, sizeof(*reps));
	int ret = 0, all_pass = 1, bad_input = 0;
	size_t i;

	if (load_status(&status_in, ctx, a->repo, &status_why)) {
		json_t *o = sk_status_results_to_json(&status_in);

		status = &status_in;
		path = sk_path_join(root, "status.json");
		ret = sk_results_save(path, o);
		json_decref(o);
		free(path);
	}
	for (i = 0; !ret && i < branches->nr; i++) {
		struct sk_report_opts o = { 0 };
		char *mname = NULL, *mtext = NULL, *dir;

		o.top = ctx->top;
		o.results = root;
		o.branch = branches->items[i];
		o.status = status;
		o.status_why = status_why;
		o.tester = tester;
		if (status)
			mtext = branch_maintainers(status, o.branch, &mname);
		o.maintainers = mtext;
		o.maintainers_name = mname;
		reps[i] = sk_report_branch(&o);
		all_pass &= !strcmp(sk_report_str(reps[i], "verdict"), "pass");
		bad_input |= input_errors(reps[i]);
		dir = sk_xstrfmt("%s/%s/report", root, o.branch);
		ret = save_report(dir, reps[i], ctx->top);
		free(dir);
		free(mtext);
		free(mname);
	}
	if (!ret && a->summary) {
		json_t *sum = sk_report_summary(status, status_why, reps, branches->nr);
		char *dir = sk_path_join(root, "report"), *text, *html;

		json_object_set_new(sum, "generated", made_at());
		ret = sk_mkdir_p(dir, 0755);
		for (i = 0; !ret && i < a->include.nr; i++)
			ret = include_summary(sum, dir, a->include.items[i]);
		text = sk_report_summary_text(sum);
		html = sk_report_summary_html(sum);
		path = sk_path_join(dir, "summary.json");
		if (!ret)
			ret = sk_results_save(path, sum);
		if (!ret)
			ret = write_text(dir, "summary.txt", text);
		if (!ret)
			ret = write_text(dir, "index.html", html);
		if (!ret && a->json) {
			json_dumpf(sum, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
			putchar('\n');
		} else if (!ret) {
			printf("%s\nHTML report: %s/index.html\n", text, dir);
		}
		json_decref(sum);
		free(path);
		free(dir);
		free(text);
		free(html);
	} else if (!ret) {
		for (i = 0; i < branches->nr; i++)
			print_report(reps[i], a->json);
		for (i = 0; !a->json && i < branches->nr; i++)
			printf("HTML report: %s/%s/report/report.html\n", root,
			       branches->items[i]);
	}
	for (i = 0; i < branches->nr; i++)
		json_decref(reps[i]);
	free(reps);
	if (status)
		sk_status_results_release(&status_in);
	free(status_why);
	free(tester);
	free(root);
	if (ret)
		return sk_die_lib(ret);
	if (bad_input)
		return SK_EXIT_FAIL;
	return a->check && !all_pass ? SK_EXIT_CHECK : SK_EXIT_OK;
}

int cmd_report(int argc, const char **argv, struct sk_context *ctx)
{
	struct report_args a = { 0 };
	struct sk_option opts[] = {
		SK_OPT_LIST_('b', "branch", &a.branches, "b", "report this branch (repeatable)"),
		SK_OPT_BOOL_(0, "summary", &a.summary, "all branches at once: matrix and verdicts"),
		SK_OPT_LIST_(0, "include", &a.include, "results",
			     "with --summary: add another project's branches (its results root)"),
		SK_OPT_STRING_(0, "results", &a.results, "dir",
			       "the results root (default $SK_WORK/results)"),
		SK_OPT_STRING_(0, "repo", &a.repo, "path", "the kernel repository, for status"),
		SK_OPT_BOOL_(0, "check", &a.check, "exit 1 unless every verdict is pass"),
		SK_OPT_BOOL_(0, "json", &a.json, "machine-readable output"),
		SK_OPT_END_(),
	};
	struct sk_strvec branches = { 0 };
	int nr = sk_parse_options(argc, argv, opts, usage), ret;

	a.json = a.json || ctx->json;
	if (nr == -2)
		return 0;
	if (nr) {
		if (nr > 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	if (a.include.nr && !a.summary) {
		fprintf(stderr, "error: --include goes with --summary\n");
		sk_strvec_release(&a.branches);
		sk_strvec_release(&a.include);
		return SK_EXIT_USAGE;
	}
	ret = pick_branches(&branches, &a, ctx->top);
	if (ret) {
		sk_strvec_release(&a.branches);
		sk_strvec_release(&a.include);
		return ret == SK_EXIT_USAGE ? ret : sk_die_lib(ret);
	}
	ret = run(&a, ctx, &branches);
	if (branches.items != a.branches.items)
		sk_strvec_clear(&branches);
	sk_strvec_release(&a.branches);
	sk_strvec_release(&a.include);
	return ret;
}
