#include "builtin.h"
#include "error.h"
#include "fsutil.h"
#include "maintainers.h"
#include "options.h"
#include "seriesjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] = "stablekit maintainers [--file <MAINTAINERS>] [--json] <path>...";

int cmd_maintainers(int argc, const char **argv, struct sk_context *ctx)
{
	const char *file = NULL;
	int json = ctx->json, ret;
	struct sk_option opts[] = {
		SK_OPT_STRING_(0, "file", &file, "path", "MAINTAINERS file (default: the project's)"),
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
	if (nr <= 0) {
		if (!nr)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	path = file ? sk_xstrdup(file) : sk_path_join(ctx->top, "MAINTAINERS");
	ret = sk_maintainers_load(&m, path);
	free(path);
	if (ret)
		return sk_die_lib(ret);
	sk_maintainers_recipients(&r, &m, argv, (size_t)nr);
	if (json) {
		json_t *o = json_pack("{s:o, s:o}", "to", sk_json_strv(r.to, r.nr_to),
				      "cc", sk_json_strv(r.cc, r.nr_cc));

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
