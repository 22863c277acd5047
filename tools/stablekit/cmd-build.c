#include "builtin.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "build/kbuild.h"
#include "build/build.h"
#include "build/build-branch.h"
#include "port/port-results.h"
#include "core/options.h"
#include "core/progress.h"
#include "core/results.h"
#include "project/repo.h"
#include "core/strbuf.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"stablekit build (--branch <b>... | --all) [--arch <a>]... [--mode objects|kernel]\n"
	"                [--repo <path>] [--work <dir>] [--results <dir>] [--json]\n"
	"                [--jobs <n>] [--parallel <n>] [--cross-compile <arch>=<prefix>]...\n"
	"                [--fragment <file>]... [--object <file.o>]... [--no-ccache]\n"
	"                [--no-baseline] [--timeout <s>]";

struct build_args {
	struct sk_strvec branches, arches, cross, fragments, objects;
	const char *mode, *repo, *work, *results;
	int jobs, parallel, no_ccache, no_baseline, timeout, json, all;
	const char *distcc_hosts;	/* [build] distcc-hosts */
};

void sk_build_progress(const char *arch, const char *variant, const char *what,
		       void *data)
{
	char *line = sk_build_branch_progress_line(data, arch, variant, what);

	sk_progressf("%s", line);
	free(line);
}

static const char *short_status(const struct sk_build_variant *v)
{
	return v->status ? v->status : "skipped";
}

static void print_table(const struct sk_build *job)
{
	size_t i, j;

	if (job->not_run) {
		printf("%s: gate: %s\n", job->branch, job->not_run);
		return;
	}
	if (!job->buildable) {
		printf("%s: not buildable: %s\n", job->branch, job->why);
		return;
	}
	printf("%s %s (%.12s) %s mode, queue: ", job->branch, job->describe,
	       job->tip, job->mode);
	if (!job->nr_patches)
		printf("none (baseline only)\n");
	else
		printf("%zu patch%s, %s\n", job->nr_patches,
		       job->nr_patches == 1 ? "" : "es", job->queue_status);
	printf("  %-8s %-18s %-18s %-13s %s\n", "arch", "baseline", "patched",
	       "new-warnings", "time");
	for (i = 0; i < job->nr_arches; i++) {
		const struct sk_build_archres *ar = &job->arches[i];

		printf("  %-8s %-18s %-18s %-13zu %.1fs\n", ar->arch->name,
		       short_status(&ar->base), short_status(&ar->patched),
		       ar->new_warnings.nr, ar->base.duration + ar->patched.duration);
	}
	for (i = 0; i < job->nr_arches; i++) {
		const struct sk_build_archres *ar = &job->arches[i];

		if (ar->base.note && !strcmp(short_status(&ar->base), "toolchain-missing"))
			printf("  %s: toolchain problem, not the queue: %s\n",
			       ar->arch->name, ar->base.note);
		for (j = 0; j < ar->new_warnings.nr; j++) {
			const struct sk_kbuild_diag *d = &ar->new_warnings.items[j];

			printf("  %s: new %s: %s:%u:%u: %s%s%s%s\n", ar->arch->name,
			       d->severity, d->file, d->line, d->column, d->message,
			       d->function ? " (in " : "",
			       d->function ? d->function : "",
			       d->function ? ")" : "");
			if (ar->allowed[j])
				printf("    allowed by ci/build-allowlist\n");
		}
		if (!strcmp(short_status(&ar->patched), "fail")) {
			for (j = 0; j < ar->patched.diags.nr; j++) {
				const struct sk_kbuild_diag *d = &ar->patched.diags.items[j];

				if (!strcmp(d->severity, "error"))
					printf("  %s: error: %s:%u:%u: %s\n",
					       ar->arch->name, d->file, d->line,
					       d->column, d->message);
			}
			printf("  %s: log %s/build.log\n", ar->arch->name,
			       ar->patched.resdir);
		}
		if (ar->patched.image)
			printf("  %s: image %s\n", ar->arch->name, ar->patched.image);
		else if (ar->base.image && !strcmp(short_status(&ar->patched), "skipped"))
			printf("  %s: image %s\n", ar->arch->name, ar->base.image);
	}
	if (job->queue_status && !strcmp(job->queue_status, "apply-failed"))
		printf("  the queue does not apply:\n%s", job->queue_log);
	printf("  gate: %s\n", job->gate_failed ? "FAIL" : "pass");
}

static int check_arches(const struct sk_strvec *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!sk_arch_find(l->items[i])) {
			fprintf(stderr, "error: unknown arch '%s' (%s)\n",
				l->items[i], sk_arch_list());
			return -1;
		}
	return 0;
}

/* One branch: the arches of --arch, else of branches.conf, else all. */
static int build_branch(struct sk_build *job, struct sk_build_results **out,
			char **results, git_repository *repo,
			const struct sk_branch *br,
			const struct build_args *a, enum sk_build_mode mode,
			struct sk_context *ctx)
{
	struct sk_build_branch_opts bo = { 0 };
	struct sk_build_opts *o = &bo.build;
	char *not_ported;
	int ret;

	o->repo = repo;
	o->top = ctx->top;
	o->branch = br;
	o->mode = mode;
	o->arches = (char *const *)a->arches.items;
	o->nr_arches = a->arches.nr;
	o->cross = (char *const *)a->cross.items;
	o->nr_cross = a->cross.nr;
	o->fragments = (char *const *)a->fragments.items;
	o->nr_fragments = a->fragments.nr;
	o->objects = (char *const *)a->objects.items;
	o->nr_objects = a->objects.nr;
	o->jobs = a->jobs;
	o->parallel = a->parallel;
	o->no_ccache = a->no_ccache;
	o->distcc_hosts = a->distcc_hosts;
	o->no_baseline = a->no_baseline;
	o->timeout_s = a->timeout > 0 ? (unsigned int)a->timeout : 0;
	if (ctx->progress) {
		o->progress = sk_build_progress;
		o->progress_data = br->name;
	}
	bo.work = a->work;
	bo.results = a->results;
	o->not_ported = not_ported = sk_port_results_not_ported(ctx->top, br->name);
	ret = sk_build_branch(job, out, results, &bo);
	free(not_ported);
	return ret;
}

static int run_all(struct build_args *a, enum sk_build_mode mode,
		   struct sk_branches *branches, git_repository *repo,
		   struct sk_context *ctx)
{
	json_t *all = json_array();
	size_t i, j;
	int worst = SK_EXIT_OK;

	a->distcc_hosts = branches->distcc_hosts;
	for (i = 0; i < branches->nr; i++) {
		struct sk_branch *br = &branches->items[i];
		struct sk_build job;
		char *results = NULL;
		struct sk_build_results *o = NULL;
		int ret;

		if (a->branches.nr) {
			for (j = 0; j < a->branches.nr; j++)
				if (!strcmp(a->branches.items[j], br->name))
					break;
			if (j == a->branches.nr)
				continue;
		}
		ret = build_branch(&job, &o, &results, repo, br, a, mode, ctx);
		if (ret && !o) {
			fprintf(stderr, "error: build %s: %s\n", br->name,
				sk_error_last());
			sk_build_release(&job);
			free(results);
			worst = SK_EXIT_FAIL;
			continue;
		}
		if (ret) {
			fprintf(stderr, "error: build %s: %s\n", br->name,
				sk_error_last());
			worst = SK_EXIT_FAIL;
		}
		if (!a->json)
			print_table(&job);
		if (job.not_run) {
			if (worst == SK_EXIT_OK)
				worst = SK_EXIT_CHECK;
		} else if (!job.buildable && a->branches.nr) {
			fprintf(stderr, "error: '%s' is not buildable: %s\n",
				br->name, job.why);
			worst = SK_EXIT_FAIL;
		} else if (job.gate_failed && worst == SK_EXIT_OK) {
			worst = SK_EXIT_CHECK;
		}
		json_array_append_new(all, sk_build_results_to_json(o));
		sk_build_results_free(o);
		sk_build_release(&job);
		free(results);
	}
	if (a->json) {
		json_t *top = json_pack("{s:o}", "branches", all);

		json_dumpf(top, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(top);
	} else {
		json_decref(all);
	}
	return worst;
}

int cmd_build(int argc, const char **argv, struct sk_context *ctx)
{
	struct build_args a = { 0 };
	struct sk_branches branches = { 0 };
	struct sk_repo_choice choice = { 0 };
	enum sk_build_mode mode = SK_BUILD_OBJECTS;
	git_repository *repo = NULL;
	const char *how = NULL;
	char *conf = NULL, *repo_path = NULL;
	size_t i;
	int ret;
	struct sk_option opts[] = {
		SK_OPT_LIST_(0, "branch", &a.branches, "branch",
			     "build this branch of stable/branches.conf (repeatable)"),
		SK_OPT_LIST_(0, "arch", &a.arches, "arch",
			     "x86_64, arm64 or i386 (repeatable)"),
		SK_OPT_BOOL_(0, "all", &a.all, "every branch of stable/branches.conf"),
		SK_OPT_STRING_(0, "mode", &a.mode, "mode", "objects (default) or kernel"),
		SK_OPT_STRING_(0, "repo", &a.repo, "path", "the kernel repository"),
		SK_OPT_STRING_(0, "work", &a.work, "dir",
			       "checkouts and O= dirs (default $SK_WORK/build)"),
		SK_OPT_STRING_(0, "results", &a.results, "dir",
			       "results (default $SK_WORK/results)"),
		SK_OPT_RANGE_(0, "jobs", &a.jobs, "n", 1, 4096,
			      "make jobs in all (default: CPUs)"),
		SK_OPT_RANGE_(0, "parallel", &a.parallel, "n", 1, 64,
			      "arches built at once (default: all)"),
		SK_OPT_LIST_(0, "cross-compile", &a.cross, "arch=prefix",
			     "CROSS_COMPILE for an arch (repeatable)"),
		SK_OPT_LIST_(0, "fragment", &a.fragments, "file",
			     "one more kconfig fragment (repeatable)"),
		SK_OPT_LIST_(0, "object", &a.objects, "path.o",
			     "objects mode: build this object (repeatable)"),
		SK_OPT_BOOL_(0, "no-ccache", &a.no_ccache, "compile without ccache"),
		SK_OPT_BOOL_(0, "no-baseline", &a.no_baseline,
			     "build the patched tree only"),
		SK_OPT_RANGE_(0, "timeout", &a.timeout, "s", 1, SK_OPT_SECONDS_MAX,
			      "limit of one make run"),
		SK_OPT_BOOL_(0, "json", &a.json, "print the summary as JSON"),
		SK_OPT_END_(),
	};

	a.json = ctx->json;
	argc = sk_parse_options(argc, argv, opts, usage);
	if (argc < 0)
		return argc == -2 ? SK_EXIT_OK : SK_EXIT_USAGE;
	/* builds take minutes to hours: say which, never all by default */
	if (!argc && !a.all == !a.branches.nr) {
		fprintf(stderr, "error: name the branches to build (--branch <b>) "
			"or pass --all\n");
		sk_usage(usage, opts);
		ret = SK_EXIT_USAGE;
		goto out;
	}
	if (argc || check_arches(&a.arches) ||
	    (a.mode && sk_build_mode_parse(&mode, a.mode))) {
		if (a.mode && sk_build_mode_parse(&mode, a.mode))
			fprintf(stderr, "error: %s\n", sk_error_last());
		sk_usage(usage, opts);
		ret = SK_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < a.cross.nr; i++)
		if (!strchr(a.cross.items[i], '=')) {
			fprintf(stderr, "error: --cross-compile wants <arch>=<prefix>\n");
			ret = SK_EXIT_USAGE;
			goto out;
		}
	conf = sk_path_join(ctx->top, SK_BRANCHES_CONF);
	ret = sk_branches_load(&branches, conf);
	if (ret) {
		ret = sk_die_lib(ret);
		goto out;
	}
	for (i = 0; i < a.branches.nr; i++)
		if (sk_branches_require(&branches, a.branches.items[i])) {
			fprintf(stderr, "error: %s\n", sk_error_last());
			ret = SK_EXIT_USAGE;
			goto out;
		}
	choice.option = a.repo;
	choice.config = branches.repo;
	choice.top = ctx->top;
	sk_repo_locate(&repo_path, &how, &choice);
	if (sk_repo_open(&repo, repo_path)) {
		fprintf(stderr, "error: no kernel repository at '%s' (from %s)%s\n",
			repo_path, how, !strcmp(how, "workspace") ?
			": run 'stablekit workspace init' or pass --repo" : "");
		ret = SK_EXIT_FAIL;
		goto out;
	}
	ret = run_all(&a, mode, &branches, repo, ctx);
out:
	git_repository_free(repo);
	sk_branches_release(&branches);
	sk_strvec_release(&a.branches);
	sk_strvec_release(&a.arches);
	sk_strvec_release(&a.cross);
	sk_strvec_release(&a.fragments);
	sk_strvec_release(&a.objects);
	free(conf);
	free(repo_path);
	return ret;
}
