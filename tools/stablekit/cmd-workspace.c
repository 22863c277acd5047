#include "builtin.h"
#include "core/error.h"
#include "core/options.h"
#include "core/progress.h"
#include "core/strbuf.h"
#include "project/workspace.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit workspace init [--source <tarball>] [<dir>]\n"
	"   or: stablekit workspace path";

static void progress(const char *phase, unsigned long done,
		     unsigned long total, void *data)
{
	(void)total;
	(void)data;
	if (!strcmp(phase, "extract"))
		sk_progressf("workspace: extracting the kernel source");
	else if (!done)
		sk_progressf("workspace: adding files to the index");
	else if (sk_progress_tty())
		fprintf(stderr, "\radding files: %lu", done);
}

static void print_info(const struct sk_workspace_info *info, int json)
{
	json_t *o;

	if (!json) {
		if (info->created)
			printf("initialised %s: branch %s, tag %s, %lu files "
			       "(extract %.1fs, index %.1fs, commit %.1fs)\n",
			       info->dir, info->branch, info->tag,
			       info->nr_files, info->extract_s, info->index_s,
			       info->commit_s);
		else
			printf("already initialised %s: branch %s, tag %s\n",
			       info->dir, info->branch, info->tag);
		return;
	}
	o = json_pack("{s:s, s:s, s:s, s:s, s:b}", "dir", info->dir,
		      "branch", info->branch, "tag", info->tag,
		      "commit", info->commit, "created", info->created);
	if (info->created) {
		json_object_set_new(o, "files", json_integer(info->nr_files));
		json_object_set_new(o, "extract_s", json_real(info->extract_s));
		json_object_set_new(o, "index_s", json_real(info->index_s));
		json_object_set_new(o, "commit_s", json_real(info->commit_s));
	}
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

static int workspace_init(int argc, const char **argv, struct sk_context *ctx)
{
	struct sk_workspace_opts wo = { 0 };
	struct sk_workspace_info info;
	const char *source = NULL;
	int json = ctx->json, ret;
	char *dir;
	struct sk_option opts[] = {
		SK_OPT_STRING_(0, "source", &source, "tarball",
			       "kernel source tarball (default "
			       SK_WORKSPACE_SOURCE ")"),
		SK_OPT_BOOL_(0, "json", &json, "print the result as JSON"),
		SK_OPT_END_(),
	};

	argc = sk_parse_options(argc, argv, opts, usage);
	if (argc < 0)
		return argc == -2 ? SK_EXIT_OK : SK_EXIT_USAGE;
	if (argc > 1) {
		sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	dir = argc ? sk_xstrdup(argv[0]) : sk_workspace_default_dir(ctx->top);
	wo.source = source;
	if (ctx->progress)
		wo.progress = progress;
	ret = sk_workspace_init(&info, dir, &wo);
	if (sk_progress_tty() && info.created)
		fputc('\n', stderr);
	free(dir);
	if (ret)
		return sk_die_lib(ret);
	print_info(&info, json);
	sk_workspace_info_release(&info);
	return SK_EXIT_OK;
}

int cmd_workspace(int argc, const char **argv, struct sk_context *ctx)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s\n", usage);
		return SK_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "init"))
		return workspace_init(argc - 1, argv + 1, ctx);
	if (!strcmp(argv[1], "path")) {
		char *dir = sk_workspace_default_dir(ctx->top);

		printf("%s\n", dir);
		free(dir);
		return SK_EXIT_OK;
	}
	fprintf(stderr, "error: unknown workspace subcommand '%s'\n", argv[1]);
	fprintf(stderr, "usage: %s\n", usage);
	return SK_EXIT_USAGE;
}
