#include "builtin.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/maintainers.h"
#include "core/options.h"
#include "project/repo.h"
#include "project/branches.h"
#include "mail/seriesjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit maintainers [--file <MAINTAINERS> | --branch <b>] [--repo <path>]\n"
	"                      [--json] <path>...";

/* The project's own folders: their owners are in the project's MAINTAINERS. */
static int project_path(const char *path)
{
	static const char *const own[] = { "series/", "stable/",
		"semantic-patches/", "tools/", "ci/", "Makefile", "MAINTAINERS",
		"README.md", ".ci/", NULL };
	const char *const *o;

	for (o = own; *o; o++)
		if (!strncmp(path, *o, strlen(*o)))
			return 1;
	return 0;
}

/* The kernel's MAINTAINERS at the tip of one configured branch. */
static int read_at_branch(struct sk_strbuf *text, const char *top,
			  const char *repo_option, const struct sk_branches *b,
			  const struct sk_branch *br)
{
	git_repository *repo = NULL;
	char *path = NULL;
	int ret = sk_repo_open_branch(&repo, &path, top, repo_option, b, br);

	if (!ret)
		ret = sk_repo_read_at(text, repo, br->ref, "MAINTAINERS");
	if (ret)
		sk_error_prefix(ret, "branch '%s' (%s)", br->name, path);
	git_repository_free(repo);
	free(path);
	return ret;
}

/*
 * For kernel paths: the MAINTAINERS at the tip of --branch, else of the
 * first branch of stable/branches.conf whose repository has it.
 */
static int kernel_maintainers(struct sk_maintainers *m, const char *top,
			      const char *branch, const char *repo_option)
{
	struct sk_branches b;
	struct sk_strbuf text = SK_STRBUF_INIT;
	const struct sk_branch *br = NULL;
	char *conf = sk_path_join(top, SK_BRANCHES_CONF), *name;
	size_t i;
	int ret = sk_branches_load(&b, conf);

	free(conf);
	if (ret)
		return ret;
	if (branch) {
		ret = sk_branches_require(&b, branch);
		if (!ret) {
			br = sk_branches_find(&b, branch);
			ret = read_at_branch(&text, top, repo_option, &b, br);
		}
	} else {
		ret = sk_error_set(SK_ENOTFOUND, "no branch in %s to read the "
				   "kernel's MAINTAINERS from (use --file)",
				   SK_BRANCHES_CONF);
		for (i = 0; i < b.nr; i++) {
			sk_strbuf_reset(&text);
			br = &b.items[i];
			ret = read_at_branch(&text, top, repo_option, &b, br);
			if (!ret)
				break;
		}
		if (ret)
			ret = sk_error_prefix(SK_ERROR, "no branch's tip has a "
					      "MAINTAINERS (use --file or "
					      "--branch); the last");
	}
	if (!ret) {
		name = sk_xstrfmt("MAINTAINERS at %s", br->ref);
		ret = sk_maintainers_parse(m, name, text.buf);
		free(name);
	}
	sk_strbuf_release(&text);
	sk_branches_release(&b);
	return ret;
}

int cmd_maintainers(int argc, const char **argv, struct sk_context *ctx)
{
	const char *file = NULL, *branch = NULL, *repo = NULL;
	int json = ctx->json, ret, kernel = 0;
	struct sk_option opts[] = {
		SK_OPT_STRING_(0, "file", &file, "path", "this MAINTAINERS file"),
		SK_OPT_STRING_(0, "branch", &branch, "b",
			       "the kernel's MAINTAINERS at this branch's tip"),
		SK_OPT_STRING_(0, "repo", &repo, "path", "the kernel repository"),
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_END_(),
	};
	struct sk_maintainers m;
	struct sk_recipients r;
	char *path;
	size_t i;
	int nr = sk_parse_options(argc, argv, opts, usage);

	if (nr == -2)
		return 0;
	if (nr <= 0 || (file && branch)) {
		if (nr >= 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	/* a path outside the project's own folders is a kernel path */
	for (i = 0; !file && !branch && i < (size_t)nr; i++)
		kernel |= !project_path(argv[i]);
	if (branch || kernel) {
		ret = kernel_maintainers(&m, ctx->top, branch, repo);
		if (ret == SK_ENOTFOUND && branch) {
			fprintf(stderr, "error: %s\n", sk_error_last());
			return SK_EXIT_USAGE;
		}
	} else {
		path = file ? sk_xstrdup(file) : sk_path_join(ctx->top, "MAINTAINERS");
		ret = sk_maintainers_load(&m, path);
		free(path);
	}
	if (ret)
		return sk_die_lib(ret);
	sk_maintainers_recipients(&r, &m, argv, (size_t)nr);
	if (json) {
		json_t *o = json_pack("{s:o, s:o}", "to", sk_strvec_array_json(r.to, r.nr_to),
				      "cc", sk_strvec_array_json(r.cc, r.nr_cc));

		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
	} else {
		for (i = 0; i < r.nr_to; i++)
			printf("To: %s\n", r.to[i]);
		for (i = 0; i < r.nr_cc; i++)
			printf("Cc: %s\n", r.cc[i]);
	}
	ret = r.nr_to + r.nr_cc ? 0 : SK_EXIT_CHECK;
	if (ret)
		fprintf(stderr, "error: no MAINTAINERS section covers the given paths\n");
	sk_recipients_release(&r);
	sk_maintainers_release(&m);
	return ret;
}
