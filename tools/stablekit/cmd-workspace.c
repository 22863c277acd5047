#include "builtin.h"
#include "core/error.h"
#include "core/options.h"
#include "core/progress.h"
#include "core/results.h"
#include "core/strbuf.h"
#include "core/strvec.h"
#include "project/workspace.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit workspace init [--tree <version>...] [--pins <trees.conf>] [<dir>]\n"
	"   or: stablekit workspace path";

static void progress(const char *line, void *data)
{
	(void)data;
	sk_progressf("workspace: %s", line);
}

static void print_text(const struct sk_workspace_info *info)
{
	size_t i;

	printf("%s %s: %zu tree%s, HEAD %s\n",
	       info->created ? "initialised" :
	       info->imported ? "updated" : "already initialised",
	       info->dir, info->nr, info->nr == 1 ? "" : "s",
	       info->head ? info->head : "(none)");
	for (i = 0; i < info->nr; i++) {
		const struct sk_workspace_tree *t = &info->trees[i];

		printf("  %s %s %.12s", t->branch, t->tag, t->commit);
		if (t->imported)
			printf(" imported: %lu files (fetch %.1fs%s, extract "
			       "%.1fs, import %.1fs)", t->nr_files, t->fetch_s,
			       t->cached ? " cached" : "", t->extract_s,
			       t->import_s);
		else
			printf(" already there");
		putchar('\n');
	}
}

static json_t *tree_json(const struct sk_workspace_tree *t)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:b}", "version",
			      t->version, "branch", t->branch, "tag", t->tag,
			      "commit", t->commit, "imported", t->imported);

	if (t->imported) {
		json_object_set_new(o, "source", json_string(t->source));
		json_object_set_new(o, "cached", json_boolean(t->cached));
		json_object_set_new(o, "files", json_integer(t->nr_files));
		json_object_set_new(o, "fetch_s", json_real(t->fetch_s));
		json_object_set_new(o, "extract_s", json_real(t->extract_s));
		json_object_set_new(o, "import_s", json_real(t->import_s));
	}
	return o;
}

static void print_json(const struct sk_workspace_info *info)
{
	json_t *o, *trees = json_array();
	size_t i;

	for (i = 0; i < info->nr; i++)
		json_array_append_new(trees, tree_json(&info->trees[i]));
	o = json_pack("{s:s, s:s?, s:b, s:i, s:o}", "dir", info->dir, "head",
		      info->head, "created", info->created, "imported",
		      (int)info->imported, "trees", trees);
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	putchar('\n');
	json_decref(o);
}

static int workspace_init(int argc, const char **argv, struct sk_context *ctx)
{
	struct sk_workspace_opts wo = { 0 };
	struct sk_workspace_info info;
	struct sk_strvec trees = { 0 };
	const char *pins = NULL;
	int json = ctx->json, ret;
	char *dir, *cache, *own_pins = NULL;
	struct sk_option opts[] = {
		SK_OPT_LIST_(0, "tree", &trees, "version",
			     "import only this tree (a version or branch of "
			     "the pin file; repeatable; default: all)"),
		SK_OPT_STRING_(0, "pins", &pins, "file",
			       "the pin file (default: ci/trees.conf)"),
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
	cache = sk_work_dir(ctx->top);
	if (!pins)
		pins = own_pins = sk_workspace_pins(ctx->top);
	if (trees.nr) {
		/* NULL-terminated for the library */
		*SK_ARRAY_PUSH(trees.items, trees.nr, trees.alloc) = NULL;
		trees.nr--;
		wo.select = trees.items;
	}
	wo.pins = pins;
	wo.cache = cache;
	if (ctx->progress)
		wo.progress = progress;
	ret = sk_workspace_init(&info, dir, &wo);
	free(dir);
	free(cache);
	free(own_pins);
	sk_strvec_release(&trees);
	if (ret)
		return sk_die_lib(ret);
	if (json)
		print_json(&info);
	else
		print_text(&info);
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
