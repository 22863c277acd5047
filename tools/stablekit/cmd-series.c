#include "builtin.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/options.h"
#include "mail/series.h"
#include "mail/seriesjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usage[] = "stablekit series [list | show <name>] [--json]";

static size_t fixlet_count(const struct sk_revision *r)
{
	size_t i, n = 0;

	for (i = 0; r && i < r->nr_patches; i++)
		n += r->patches[i].nr_fixlets;
	return n;
}

static int list(const struct sk_context *ctx, int json)
{
	char **names;
	size_t nr, i;
	json_t *arr = json_array();
	int ret = sk_series_names(&names, &nr, ctx->top);

	if (!ret && !json)
		printf("%-54s %4s %7s %7s  %s\n", "SERIES", "REV", "PATCHES",
		       "FIXLETS", "AUTHOR");
	for (i = 0; !ret && i < nr; i++) {
		struct sk_series *s;
		const struct sk_revision *r;

		ret = sk_series_load(&s, ctx->top, names[i]);
		if (ret)
			break;
		r = sk_series_latest(s);
		if (json)
			json_array_append_new(arr, sk_seriesjson_series(s));
		else
			printf("%-54s %4s %7zu %7zu  %s\n", s->slug,
			       r && r->label ? r->label : "-", r ? r->nr_patches : 0,
			       fixlet_count(r), s->author ? s->author : "");
		sk_series_free(s);
	}
	if (!ret && json) {
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
	}
	json_decref(arr);
	sk_series_names_free(names, nr);
	return ret ? sk_die_lib(ret) : 0;
}

static void show_patch(const struct sk_series_patch *p)
{
	size_t i;

	printf("  %d. %s\n", p->nr, p->subject);
	printf("     author:   %s\n", p->author);
	printf("     patch-id: %s\n", p->patch_id);
	if (p->upstream)
		printf("     upstream: %s\n", p->upstream);
	for (i = 0; i < p->nr_trailers; i++)
		if (strcasecmp(p->trailers[i].key, "Signed-off-by"))
			printf("     %s: %s\n", p->trailers[i].key, p->trailers[i].value);
	for (i = 0; i < p->nr_fixlets; i++)
		printf("     fixlet %d: %s <%s>\n", p->fixlets[i].nr,
		       p->fixlets[i].subject, p->fixlets[i].message_id);
}

static int show(const struct sk_context *ctx, const char *name, int json)
{
	struct sk_series *s;
	size_t i, j;
	char *slug;
	int ret = sk_series_arg(&slug, ctx, name);

	if (ret)
		return ret;
	ret = sk_series_load(&s, ctx->top, slug);
	if (ret)
		ret = sk_die_series(ret, ctx->top, slug);
	free(slug);
	if (ret)
		return ret;
	if (json) {
		json_t *o = sk_seriesjson_series(s);

		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
		sk_series_free(s);
		return 0;
	}
	printf("series:    %s\nsubject:   %s\nauthor:    %s\n", s->slug,
	       s->subject ? s->subject : "", s->author ? s->author : "");
	if (s->change_id)
		printf("change-id: %s\n", s->change_id);
	if (s->kind && strcmp(s->kind, "series"))
		printf("kind:      %s\n", s->kind);
	if (s->failed_on)
		printf("failed on: the %s tree\n", s->failed_on);
	for (i = 0; i < s->nr_revs; i++) {
		const struct sk_revision *r = &s->revs[i];

		printf("\n%s  %s  <%s>  (%s)\n", r->label, r->date ? r->date : "",
		       r->message_id ? r->message_id : "", r->mbox ? r->mbox : "");
		if (r->base_commit)
			printf("  base-commit: %s\n", r->base_commit);
		for (j = 0; j < r->nr_patches; j++)
			show_patch(&r->patches[j]);
	}
	sk_series_free(s);
	return 0;
}

/* A project has series/ (found from here up); outside one, say so. */
static int in_project(const struct sk_context *ctx)
{
	char *dir = sk_path_join(ctx->top, "series");
	int ok = sk_is_dir(dir);

	if (!ok)
		fprintf(stderr, "error: not in a stablekit project: no series/ "
			"in %s or any directory above it (stablekit pull "
			"stores the first series there; -C <dir> names a "
			"project)\n", ctx->top);
	free(dir);
	return ok;
}

int cmd_series(int argc, const char **argv, struct sk_context *ctx)
{
	int json = ctx->json;
	struct sk_option opts[] = {
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_END_(),
	};
	int nr = sk_parse_options(argc, argv, opts, usage);

	if (nr == -2)
		return 0;
	if (nr < 0)
		return SK_EXIT_USAGE;
	if (!in_project(ctx))
		return SK_EXIT_FAIL;
	if (!nr || (nr == 1 && !strcmp(argv[0], "list")))
		return list(ctx, json);
	if (nr == 2 && !strcmp(argv[0], "show"))
		return show(ctx, argv[1], json);
	if (strcmp(argv[0], "list") && strcmp(argv[0], "show")) {
		static const char *const words[] = { "list", "show", NULL };
		const char *guess = sk_did_you_mean(argv[0], words);

		fprintf(stderr, "error: series: unknown word '%s'%s%s%s\n",
			argv[0], guess ? "; did you mean '" : " (list or show)",
			guess ? guess : "", guess ? "'?" : "");
	}
	sk_usage(usage, opts);
	return SK_EXIT_USAGE;
}
