#include "builtin.h"
#include "core/error.h"
#include "gate/gate.h"
#include "gate/lava.h"
#include "core/options.h"
#include "gate/qemu.h"
#include "core/results.h"
#include "gate/boot.h"
#include "gate/gate-config.h"
#include "gate/guest.h"
#include "gate/test.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit gate --branch <b> [--arch <a>] [--runs <n>] [--skip <stage>]...\n"
	"               [--config <gate.conf>] [--out <dir>] [--jobs <n>] [--no-reuse]\n"
	"               [--no-confirm] [--runner local|lava [--lava-config <file>]] [--json]";

static int check_args(const struct sk_strvec *skip, const char *arch)
{
	static const char *const stages[] = { "build", "kselftest", "bench",
					      "mglru", NULL };
	const char *const *s;
	size_t i;

	for (i = 0; i < skip->nr; i++) {
		for (s = stages; *s && strcmp(*s, skip->items[i]); s++)
			;
		if (!*s) {
			fprintf(stderr, "error: --skip '%s': no such stage (build, "
				"kselftest, bench, mglru)\n", skip->items[i]);
			return SK_EXIT_USAGE;
		}
	}
	if (!sk_qemu_binary(arch)) {
		fprintf(stderr, "error: unknown arch '%s' (x86_64, arm64, i386)\n",
			arch);
		return SK_EXIT_USAGE;
	}
	return SK_EXIT_OK;
}

static void print_text(json_t *res)
{
	json_t *r;
	size_t i;
	const char *from = json_string_value(json_object_get(res,
							     "reused_from"));

	printf("gate %s: %s (%s%s%s%.0f s)\n",
	       json_string_value(json_object_get(res, "branch")),
	       json_string_value(json_object_get(res, "verdict")),
	       from ? "reused: the gate of " : "", from ? from : "",
	       from ? ", which took " : "",
	       json_real_value(json_object_get(res, "seconds")));
	json_array_foreach(json_object_get(res, "reasons"), i, r)
		printf("  %s\n", sk_term(json_string_value(r)));
	printf("results: %s\n", json_string_value(json_object_get(res,
							"results")));
}

int cmd_gate(int argc, const char **argv, struct sk_context *ctx)
{
	struct sk_gate_opts o = { 0 };
	const char *runner = NULL, *lava_config = NULL;
	struct sk_strvec skip = { 0 };
	struct sk_lava lava = { 0 };
	int use_lava = 0, json = ctx->json, ret;
	char *work = NULL;
	json_t *res = NULL;
	const struct sk_option opts[] = {
		SK_OPT_STRING_(0, "branch", &o.branch, "b", "the stable branch"),
		SK_OPT_STRING_(0, "arch", &o.arch, "a",
			       "this arch alone (default: [gate] arch, else x86_64 and arm64)"),
		SK_OPT_RANGE_(0, "runs", &o.runs, "n", 1, 1000, "benchmark runs per side"),
		SK_OPT_LIST_(0, "skip", &skip, "stage", "build, kselftest, bench or mglru"),
		SK_OPT_STRING_(0, "config", &o.config, "file", "thresholds (ci/gate.conf)"),
		SK_OPT_STRING_(0, "out", &o.outdir, "dir", "results directory"),
		SK_OPT_RANGE_(0, "jobs", &o.jobs, "n", 1, 4096,
			      "make jobs of the kernel builds"),
		SK_OPT_BOOL_(0, "no-reuse", &o.no_reuse,
			     "run the baseline even when a stored one matches"),
		SK_OPT_BOOL_(0, "no-confirm", &o.no_confirm,
			     "no confirm boot of a kselftest regression"),
		SK_OPT_STRING_(0, "runner", &runner, "r",
			       "where the guests run: local (default) or lava"),
		SK_OPT_STRING_(0, "lava-config", &lava_config, "file",
			       "[lava] config (default: <work>/lava/lava.conf)"),
		SK_OPT_BOOL_(0, "json", &json, "print the results as JSON"),
		SK_OPT_END_()
	};

	argc = sk_parse_options(argc, argv, opts, usage);
	if (argc == -2)
		return SK_EXIT_OK;
	if (argc != 0 || !o.branch) {
		if (argc >= 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	/* every argument checked before the first build starts */
	ret = check_args(&skip, o.arch ? o.arch : "x86_64");
	if (!ret && sk_lava_check_runner(runner, lava_config) < 0) {
		fprintf(stderr, "error: %s\n", sk_error_last());
		ret = SK_EXIT_USAGE;
	}
	if (!ret)
		ret = sk_require_branch(ctx->top, o.branch);
	if (ret)
		goto out;
	work = sk_work_dir(ctx->top);
	if (sk_lava_runner(&lava, &use_lava, runner, lava_config, work) < 0) {
		ret = sk_die_lib(SK_EINVALID);
		goto out;
	}
	o.top = ctx->top;
	o.skip = &skip;
	o.progress = ctx->progress;
	o.lava = use_lava ? &lava : NULL;
	if (sk_gate_run(&res, &o) < 0) {
		ret = sk_die_lib(SK_EINVALID);
		goto out;
	}
	if (json) {
		json_dumpf(res, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
	} else {
		print_text(res);
	}
	ret = strcmp(json_string_value(json_object_get(res, "verdict")), "pass") ?
	      SK_EXIT_CHECK : SK_EXIT_OK;
out:
	json_decref(res);
	sk_lava_release(&lava);
	sk_strvec_release(&skip);
	free(work);
	return ret;
}
