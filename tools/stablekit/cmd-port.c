#include "builtin.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/identity.h"
#include "core/options.h"
#include "core/progress.h"
#include "port/port.h"
#include "port/port-commits.h"
#include "port/port-results.h"
#include "project/repo.h"
#include "track/scan.h"
#include "core/results.h"
#include "core/strvec.h"
#include "mail/series.h"
#include "track/session.h"

#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit port (<series> --branch <branch> | --all) [--repo <path>] [--keep] [--json]\n"
	"                [--progress]\n"
	"   or: stablekit port <commit>... --branch <branch> [--repo <path>] [--keep] [--json]\n"
	"   or: stablekit port --from-scan --branch <branch> [--since <rev>] [--repo <path>] [--keep] [--json]";

static void print_result(const char *slug, const char *branch,
			 const struct sk_port_result *r)
{
	size_t i, j;

	printf("%s -> %s%s%s%s\n", slug, branch, r->target ? " (semantic-patch target " : "",
	       r->target ? r->target : "", r->target ? ")" : "");
	for (i = 0; i < r->nr; i++) {
		const struct sk_port_item *it = &r->items[i];

		printf("  %d. %-17s %s\n", it->nr, sk_port_method_name(it->method),
		       it->subject);
		if (it->file)
			printf("       %s/%s\n", branch, it->file);
		if (it->how && *it->how)
			printf("       %s\n", it->how);
		if (it->dep_of)
			printf("       taken as a dependency of patch %d\n", it->dep_of);
		if (it->independent_of)
			printf("       ported without patch %d, which failed: the queue compiles without it\n",
			       it->independent_of);
		for (j = 0; j < it->nr_hunks; j++) {
			const struct sk_port_hunk *h = &it->hunks[j];

			if (strcmp(h->method, "failed"))
				continue;
			printf("       %s hunk %d%s%s%s: %s\n", h->path, h->nr,
			       h->function ? " (" : "", h->function ? h->function : "",
			       h->function ? ")" : "", h->reason ? h->reason : "failed");
		}
		if (it->reason)
			printf("       %s\n", it->reason);
		if (it->kept)
			printf("       kept: %s (applied hunks in, the others in .rej files)\n", it->kept);
	}
	if (r->no_rules)
		printf("  semantic patches: %s\n", r->no_rules);
	if (r->compile)
		printf("  %s\n", r->compile);
	if (r->compile_verdict)
		printf("  compile check: %s\n", r->compile_verdict);
	if (r->spatch_seconds > 0)
		printf("  spatch: %.1f s\n", r->spatch_seconds);
}

/* The revision port took, for status and report (stale queues); 0: none. */
static long long port_revision(const struct sk_context *ctx, const char *slug)
{
	struct sk_series *ser = NULL;
	long long v = 0;

	if (!sk_series_load(&ser, ctx->top, slug) && sk_series_latest(ser))
		v = sk_series_latest(ser)->version;
	else
		sk_error_clear();
	sk_series_free(ser);
	return v;
}

/* What --json prints of one series ported to one branch. */
static json_t *result_json(const struct sk_context *ctx, const char *slug,
			   const char *branch, const struct sk_port_result *r,
			   const char *error)
{
	struct sk_port_results pr;
	json_t *o;

	sk_port_results_from_port(&pr, slug, branch, r,
				  port_revision(ctx, slug), error);
	o = sk_port_results_to_json(&pr);
	sk_port_results_release(&pr);
	return o;
}

/* What stablekit report reads: results/<branch>/port/<series>.json. */
static void save_result(const struct sk_context *ctx, const char *slug,
			const char *branch, const struct sk_port_result *r,
			const char *error)
{
	char *dir = sk_results_dir(ctx->top);
	char *path = sk_xstrfmt("%s/%s/port/%s.json", dir, branch, slug);
	struct sk_port_results pr;

	sk_port_results_from_port(&pr, slug, branch, r,
				  port_revision(ctx, slug), error);
	if (sk_port_results_write(path, &pr))
		fprintf(stderr, "warning: %s\n", sk_error_last());
	sk_port_results_release(&pr);
	free(path);
	free(dir);
}

struct progress {
	const char *slug, *branch;
};

static void port_progress(const char *step, void *data)
{
	const struct progress *pr = data;

	sk_progressf("port: %s -> %s: %s", pr->slug, pr->branch, step);
}

/* Port one series to one branch; 0 ok, 1 some patch failed, else 128. */
static int port_one(struct sk_session *s, const struct sk_context *ctx,
		    const char *slug, size_t branch, int bracket, int keep,
		    json_t *out)
{
	struct sk_port_opts o = { 0 };
	struct sk_port_result r;
	struct progress pr = { slug, s->track->branches[branch].br->name };
	char *who = sk_identity(ctx->top);
	int ret;

	o.top = ctx->top;
	o.repo = s->repo;
	o.track = s->track;
	o.branch = branch;
	o.slug = slug;
	o.signoff = who;
	o.bracket_style = bracket;
	o.timeout_ms = 600000;
	o.keep = keep;
	o.progress = port_progress;
	o.progress_data = &pr;
	sk_progressf("port: %s -> %s", slug, pr.branch);
	ret = sk_port(&r, &o);
	sk_progressf("port: %s -> %s: done, %s", slug, pr.branch,
		     ret ? "an error" : r.failed ? "some patches not ported" :
		     "every needed patch queued");
	free(who);
	if (ret) {
		char *why = sk_xstrdup(sk_error_last());
		const char *name = s->track->branches[branch].br->name;

		ret = sk_die_lib(ret);
		/* what was done before the error, patch by patch, still told */
		save_result(ctx, slug, name, &r, why);
		if (out)
			json_array_append_new(out, result_json(ctx, slug, name,
							       &r, why));
		free(why);
		sk_port_result_release(&r);
		return ret;
	}
	save_result(ctx, slug, s->track->branches[branch].br->name, &r, NULL);
	if (out)
		json_array_append_new(out, result_json(ctx, slug,
				      s->track->branches[branch].br->name, &r, NULL));
	else
		print_result(slug, s->track->branches[branch].br->name, &r);
	ret = r.failed ? SK_EXIT_CHECK : 0;
	sk_port_result_release(&r);
	return ret;
}

static int port_all(struct sk_session *s, const struct sk_context *ctx,
		    int bracket, int keep, json_t *out)
{
	char **names;
	size_t nr, i, b;
	int ret = sk_series_names(&names, &nr, ctx->top), worst = 0;

	if (ret)
		return sk_die_lib(ret);
	for (b = 0; b < s->track->nr_branches; b++) {
		const struct sk_track_branch *tb = &s->track->branches[b];

		if (tb->br->kind == SK_BRANCH_MAINLINE)
			continue;
		if (tb->problem) {
			fprintf(stderr, "%s: not ported: %s\n", tb->br->name, tb->problem);
			continue;
		}
		for (i = 0; i < nr; i++) {
			int r = port_one(s, ctx, names[i], b, bracket, keep, out);

			if (r > worst)
				worst = r;
		}
	}
	sk_series_names_free(names, nr);
	return worst;
}

/* 7 to 40 hex digits: a commit, not a series slug (slugs have a '-') */
static int looks_like_sha(const char *arg)
{
	size_t n = strspn(arg, "0123456789abcdef");

	return n >= 7 && n <= 40 && !arg[n];
}

/* Is name a stored series (series/<name>/)? */
static int is_series(const char *top, const char *name)
{
	struct sk_series *ser = NULL;
	int yes = !sk_series_load(&ser, top, name);

	sk_series_free(ser);
	sk_error_clear();
	return yes;
}

/* Is commit a candidate of the scan (then it is queued for itself, or not)? */
static int in_scan(const struct sk_scan *scan, const char *commit)
{
	size_t i;

	for (i = 0; i < scan->nr; i++)
		if (!strcmp(scan->items[i].commit, commit))
			return 1;
	return 0;
}

/*
 * port <commit>... and port --from-scan: upstream commits as one series,
 * SK_PORT_COMMITS_SLUG, through the same port.  0, 1 (a commit did not
 * port), 128, or 129 for a revision that is not a commit.
 */
static int port_commits(const struct sk_context *ctx, const char *repo_opt,
			const char *branch, const char **commits, size_t nr,
			int from_scan, const char *since, int bracket, int keep,
			json_t *out)
{
	struct sk_branches b = { 0 };
	struct sk_repo_choice choice = { 0 };
	struct sk_port_commits_opts o = { 0 };
	struct sk_port_result r = { 0 };
	struct sk_scan *scan = NULL;
	git_repository *repo = NULL;
	const char **list = NULL, **needed_by = NULL, *how = NULL;
	char *conf = sk_path_join(ctx->top, SK_BRANCHES_CONF), *path = NULL;
	char *who = NULL;
	size_t i;
	int ret = sk_branches_load(&b, conf);

	free(conf);
	if (!ret && from_scan) {
		struct sk_scan_opts so = { 0 };

		so.top = ctx->top;
		so.repo = repo_opt;
		so.branch = branch;
		so.since = since;
		ret = sk_scan_run(&scan, &so);
		if (ret == SK_ENOTFOUND) {
			fprintf(stderr, "error: %s\n", sk_error_last());
			ret = SK_EXIT_USAGE;
			goto out;
		}
		if (!ret) {
			size_t cap = scan->nr + 1, j, k;

			for (i = 0; i < scan->nr; i++)
				cap += scan->items[i].nr_prereqs;
			list = sk_xcalloc(cap, sizeof(*list));
			needed_by = sk_xcalloc(cap, sizeof(*needed_by));
			for (i = nr = 0; i < scan->nr; i++) {
				const struct sk_scan_item *it = &scan->items[i];

				if (it->state != SK_SCAN_NEW)
					continue;
				/* a prerequisite that is no candidate comes along */
				for (j = 0; j < it->nr_prereqs; j++) {
					const char *c = it->prereqs[j].commit;

					for (k = 0; *c && k < nr; k++)
						if (!strcmp(list[k], c))
							break;
					if (!*c || k < nr || in_scan(scan, c))
						continue;
					needed_by[nr] = it->commit;
					list[nr++] = c;
				}
				list[nr++] = it->commit;
			}
			commits = list;
			if (!nr) {
				if (!out)
					printf("%s: the scan found nothing new "
					       "(%zu candidates, %zu already "
					       "present): the queue is left as "
					       "it is\n", branch, scan->nr,
					       scan->nr_present);
				goto out;
			}
		}
	}
	choice.option = repo_opt;
	choice.config = b.repo;
	choice.top = ctx->top;
	if (!ret)
		ret = sk_repo_locate(&path, &how, &choice);
	if (!ret && sk_repo_open(&repo, path))
		ret = sk_error_set(SK_ENOTFOUND, "no kernel repository at '%s' "
				   "(from %s)", path, how);
	if (ret) {
		ret = sk_die_lib(ret);
		goto out;
	}
	who = sk_identity(ctx->top);
	o.top = ctx->top;
	o.repo = repo;
	o.branches = &b;
	o.branch = branch;
	o.commits = commits;
	o.nr = nr;
	o.needed_by = needed_by;
	o.signoff = who;
	o.bracket_style = bracket;
	o.timeout_ms = 600000;
	o.keep = keep;
	ret = sk_port_commits(&r, &o);
	if (ret) {
		char *why = sk_xstrdup(sk_error_last());

		fprintf(stderr, "error: %s\n", why);
		ret = ret == SK_ENOTFOUND || ret == SK_EINVALID ?
		      SK_EXIT_USAGE : ret == SK_ECONFLICT ? SK_EXIT_CHECK :
		      SK_EXIT_FAIL;
		if (r.nr)
			save_result(ctx, SK_PORT_COMMITS_SLUG, branch, &r, why);
		free(why);
		goto out;
	}
	save_result(ctx, SK_PORT_COMMITS_SLUG, branch, &r, NULL);
	if (out) {
		json_array_append_new(out, result_json(ctx, SK_PORT_COMMITS_SLUG,
						       branch, &r, NULL));
	} else {
		print_result(SK_PORT_COMMITS_SLUG, branch, &r);
		for (i = 0; i < r.nr; i++)
			if (*r.items[i].upstream)
				printf("  %d. upstream %s\n", r.items[i].nr,
				       r.items[i].upstream);
	}
	ret = r.failed ? SK_EXIT_CHECK : 0;
out:
	sk_port_result_release(&r);
	sk_scan_free(scan);
	free(list);
	free(needed_by);
	free(who);
	free(path);
	git_repository_free(repo);
	sk_branches_release(&b);
	return ret;
}

int cmd_port(int argc, const char **argv, struct sk_context *ctx)
{
	const char *branch = NULL, *repo_opt = NULL, *since = NULL;
	int all = 0, json = ctx->json, bracket = 0, keep = 0, progress = 0;
	int from_scan = 0, commits, ret;
	struct sk_option opts[] = {
		SK_OPT_STRING_('b', "branch", &branch, "branch", "the branch to port to"),
		SK_OPT_BOOL_(0, "all", &all, "every series to every stable or downstream branch"),
		SK_OPT_STRING_(0, "repo", &repo_opt, "path", "the kernel repository"),
		SK_OPT_BOOL_(0, "upstream-bracket", &bracket,
			     "write \"[ Upstream commit <sha> ]\" instead of \"commit <sha> upstream.\""),
		SK_OPT_BOOL_(0, "keep", &keep,
			     "leave a failed patch's files under $SK_WORK/port/<branch>/<series>, with .rej files"),
		SK_OPT_BOOL_(0, "from-scan", &from_scan,
			     "queue the commits 'stablekit scan' finds new for the branch"),
		SK_OPT_STRING_(0, "since", &since, "rev",
			       "with --from-scan: mainline commits after rev"),
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_BOOL_(0, "progress", &progress,
			     "progress lines on stderr (as stablekit --progress)"),
		SK_OPT_END_(),
	};
	struct sk_session s;
	json_t *out = NULL;
	char *slug = NULL;
	int nr = sk_parse_options(argc, argv, opts, usage);

	if (nr == -2)
		return 0;
	if (nr < 0 || (all && (nr || branch || from_scan)) ||
	    (from_scan && (nr || !branch)) || (since && !from_scan) ||
	    (!all && !from_scan && (nr < 1 || !branch))) {
		if (nr >= 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	if (branch) {
		ret = sk_require_branch(ctx->top, branch);
		if (ret)
			return ret;
	}
	if (progress)
		sk_progress_setup(1);	/* no thread started yet */
	/* several arguments, or one sha that names no series: commits */
	commits = from_scan || (!all && (nr > 1 ||
		  (looks_like_sha(argv[0]) && !is_series(ctx->top, argv[0]))));
	if (!all && !commits) {
		ret = sk_series_arg(&slug, ctx, argv[0]);
		if (ret)
			return ret;
	}
	/* one writer of stable/ and series/ at a time */
	ret = sk_project_lock(ctx->top);
	if (!ret && commits) {
		if (json)
			out = json_array();
		ret = port_commits(ctx, repo_opt, branch, argv, (size_t)nr,
				   from_scan, since, bracket, keep, out);
		if (out && (ret == SK_EXIT_OK || json_array_size(out))) {
			json_dumpf(out, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			putchar('\n');
		}
		json_decref(out);
		return ret;
	}
	if (ret) {
		free(slug);
		return sk_die_lib(ret);
	}
	sk_progressf("port: tracking %s on the branches (status)",
		     slug ? slug : "every series");
	ret = sk_session_open(&s, ctx->top, repo_opt, slug);
	if (ret) {
		free(slug);
		sk_session_close(&s);
		return sk_die_lib(ret);
	}
	if (json)
		out = json_array();
	if (all) {
		ret = port_all(&s, ctx, bracket, keep, out);
	} else {
		size_t b;

		ret = sk_track_find_branch(&b, s.track, branch);
		ret = ret ? sk_die_lib(ret) : port_one(&s, ctx, slug, b, bracket, keep, out);
	}
	if (out && (ret != SK_EXIT_FAIL || json_array_size(out))) {
		json_dumpf(out, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
	}
	json_decref(out);
	sk_session_close(&s);
	free(slug);
	return ret;
}
