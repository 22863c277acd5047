#include "builtin.h"
#include "core/error.h"
#include "core/identity.h"
#include "core/options.h"
#include "project/scaffold.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] = "stablekit init [--json] [<dir>]";

/* A new project in <dir> (default: here): project/scaffold.h. */
int cmd_init(int argc, const char **argv, struct sk_context *ctx)
{
	int json = ctx->json, ret;
	struct sk_option opts[] = {
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_END_(),
	};
	int nr = sk_parse_options(argc, argv, opts, usage);
	const char *dir;
	char *who, *abs;

	if (nr == -2)
		return 0;
	if (nr < 0 || nr > 1) {
		if (nr > 1)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	dir = nr ? argv[0] : ".";
	who = sk_identity(dir);
	ret = sk_scaffold_create(dir, who);
	free(who);
	if (ret) {
		fprintf(stderr, "error: %s\n", sk_error_last());
		return ret == SK_EEXISTS ? SK_EXIT_FAIL : sk_die_lib(ret);
	}
	abs = realpath(dir, NULL);
	if (json) {
		json_t *o = json_pack("{s:s, s:[sss]}", "project", abs ? abs : dir,
				      "created", "series/", "stable/branches.conf",
				      "MAINTAINERS");

		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		printf("Initialized a stablekit project in %s\n\n", abs ? abs : dir);
		printf("Next: name your kernel repository and branches in stable/branches.conf\n"
		       "(commented examples there) and owners in MAINTAINERS, then, in it:\n"
		       "  stablekit pull <message-id>      (or: stablekit pull -m thread.mbox)\n"
		       "  stablekit status\n"
		       "  stablekit port <series> --branch <branch>\n");
	}
	free(abs);
	return 0;
}
