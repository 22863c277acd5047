#include "builtin.h"
#include "build/build-branch.h"
#include "port/port-results.h"
#include "gate/bench.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "gate/kselftest.h"
#include "gate/lava.h"
#include "core/options.h"
#include "core/progress.h"
#include "core/results.h"
#include "gate/qemu.h"
#include "core/run.h"
#include "core/shquote.h"
#include "core/strbuf.h"
#include "gate/boot.h"
#include "gate/gate-config.h"
#include "gate/guest.h"
#include "gate/test.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit test [--branch <b>] [--kernel <image>|none] [--arch <a>]\n"
	"               [--suite <s>]... [--only <suite>/<binary>]... [--src <tree>]\n"
	"               [--out <dir>] [--boot-only]\n"
	"               [--timeout <s>] [--test-timeout <s>] [--retries <n>]\n"
	"               [--accel auto|tcg|kvm] [--append <cmdline>] [--json]\n"
	"   or: stablekit test --bench <runs> --kernel <image> [--mglru] [--out <dir>]\n"
	"   or: stablekit test --scan-log <console.log>";

static int scan_log(const char *path)
{
	struct sk_strbuf log = SK_STRBUF_INIT;
	struct sk_boot_splat s;
	int found;

	if (sk_read_file(&log, path) < 0)
		return sk_die_lib(SK_ERROR);
	found = sk_boot_scan_log(&s, log.buf, log.len);
	if (found)
		printf("%s:%u: %s: %s\n", path, s.lineno, s.kind,
		       sk_term(s.line));
	else
		printf("%s: clean\n", path);
	sk_boot_splat_release(&s);
	sk_strbuf_release(&log);
	return found ? SK_EXIT_CHECK : SK_EXIT_OK;
}

/* "stablekit build --mode kernel --branch B --arch A", quoted for a human. */
static char *build_command(const char *branch, const char *arch)
{
	const char *argv[] = { "stablekit", "build", "--mode", "kernel",
			       "--branch", branch, "--arch", arch };
	struct sk_strbuf sb = SK_STRBUF_INIT;

	sk_shell_argv(&sb, argv, sizeof(argv) / sizeof(argv[0]));
	return sk_strbuf_detach(&sb);
}

/*
 * The branch's kernel for arch, built as `stablekit build --mode kernel`
 * builds it (the same checkout, results and reuse), or NULL with *why.
 */
static char *built_kernel(const struct sk_context *ctx, const char *branch,
			  const char *arch, char **why)
{
	struct sk_build_branch_opts bo = { 0 };
	struct sk_build job = { 0 };
	char *arches[] = { (char *)arch };
	char *results = NULL, *image, *cmd, *not_ported;
	const char *reason, *img;
	struct sk_build_results *o = NULL;

	bo.build.top = ctx->top;
	bo.build.mode = SK_BUILD_KERNEL;
	bo.build.arches = arches;
	bo.build.nr_arches = 1;
	if (ctx->progress) {
		bo.build.progress = sk_build_progress;
		bo.build.progress_data = (void *)branch;
	}
	bo.build.not_ported = not_ported = sk_port_results_not_ported(ctx->top, branch);
	sk_build_branch_named(&job, &o, &results, branch, &bo);
	free(not_ported);
	img = sk_build_results_image(o, arch, "patched");
	if (!img)
		img = sk_build_results_image(o, arch, "baseline");
	image = img ? sk_xstrdup(img) : NULL;
	if (!image) {
		reason = job.not_run ? job.not_run : job.why ? job.why :
			 sk_error_last();
		cmd = build_command(branch, arch);
		*why = sk_xstrfmt("not run: %s gave no image%s%s", cmd,
				  reason && *reason ? ": " : "",
				  reason ? reason : "");
		free(cmd);
	}
	sk_build_results_free(o);
	sk_build_release(&job);
	free(results);
	return image;
}

/* One boot of the gate's benchmark: the runs, for measuring by hand. */
static int run_bench(json_t **out, const char *top, const char *arch,
		     const char *kernel, const char *outdir, int runs,
		     int mglru, const struct sk_lava *lava)
{
	struct sk_gate_thresholds t;
	struct sk_bench b = SK_BENCH_INIT;
	char *conf = sk_path_join(top, "ci/gate.conf"), *env = NULL, *usemem = NULL;
	char *full = NULL;
	int err;

	*out = json_object();
	err = sk_gate_config(&t, &env, sk_path_exists(conf) ? conf : NULL);
	if (err) {
		json_object_set_new(*out, "status", json_string("not run"));
		json_object_set_new(*out, "reason", json_sprintf("not run: %s",
				    sk_error_last()));
		goto cleanup;
	}
	usemem = sk_bench_build_helper(top, outdir, "usemem");
	if (!usemem) {
		json_object_set_new(*out, "status", json_string("not run"));
		json_object_set_new(*out, "reason", json_string(
			"not run: usemem does not build with gcc -static"));
		goto cleanup;
	}
	full = sk_xstrfmt("%sRUNS=%d\nLRU_GEN=%s\n", env, runs, mglru ? "y" : "n");
	err = sk_bench_guest(&b, top, arch, kernel, usemem, full, outdir, lava);
	json_object_set_new(*out, "status", json_string(err ? "fail" : "pass"));
	if (err)
		json_object_set_new(*out, "reason", json_string(sk_error_last()));
	json_object_set_new(*out, "thp", json_string(b.thp ? b.thp : "?"));
	json_object_set_new(*out, "lru_gen", json_string(b.lru_gen ? b.lru_gen : "?"));
	json_object_set_new(*out, "runs", sk_bench_runs_json(&b));
	json_object_set_new(*out, "log", json_sprintf("%s/console.log", outdir));
cleanup:
	sk_bench_release(&b);
	free(conf);
	free(env);
	free(full);
	free(usemem);
	return err || !usemem ? SK_EXIT_CHECK : SK_EXIT_OK;
}

static enum sk_boot_accel parse_accel(const char *s)
{
	if (!s || !strcmp(s, "auto"))
		return SK_BOOT_AUTO;
	return !strcmp(s, "kvm") ? SK_BOOT_KVM : SK_BOOT_TCG;
}

static void print_summary(json_t *res)
{
	json_t *boot = json_object_get(res, "boot");
	json_t *ks = json_object_get(res, "kselftest");
	json_t *o;
	const char *k;
	size_t i;

	printf("status: %s\n", json_string_value(json_object_get(res, "status")));
	if (json_object_get(res, "reason"))
		printf("  %s\n", sk_term(json_string_value(json_object_get(res,
								  "reason"))));
	if (boot)
		printf("boot: %s (%s, %.1f s): %s\n",
		       json_string_value(json_object_get(boot, "status")),
		       json_string_value(json_object_get(boot, "accel")),
		       json_real_value(json_object_get(boot, "seconds")),
		       sk_term(json_string_value(json_object_get(boot, "reason"))));
	json_object_foreach(json_object_get(ks, "counts"), k, o)
		printf("  %s: %lld\n", k, (long long)json_integer_value(o));
	json_array_foreach(json_object_get(ks, "results"), i, o) {
		const char *st = json_string_value(json_object_get(o, "status"));

		if (strcmp(st, "pass") && strcmp(st, "skip"))
			printf("  %-8s %s\n", st,
			       sk_term(json_string_value(json_object_get(o,
									 "name"))));
	}
	json_array_foreach(json_object_get(ks, "not_built"), i, o)
		printf("  not built: %s\n", json_string_value(o));
	if ((o = json_object_get(ks, "parse_errors"))) {
		json_t *e;

		printf("  console: %lld KTAP lines not read (results may be "
		       "missing)\n",
		       (long long)json_integer_value(json_object_get(o, "count")));
		json_array_foreach(json_object_get(o, "first"), i, e)
			printf("    %s\n", sk_term(json_string_value(e)));
	}
	if (json_object_get(res, "log"))
		printf("log: %s\n", json_string_value(json_object_get(res, "log")));
}

/*
 * --only names "<suite>/<binary>": its suite is built, added to --suite
 * when not there already.
 */
static int only_suites(struct sk_strvec *suites, struct sk_strvec *added,
		       const struct sk_strvec *only)
{
	size_t i, j, n;

	for (i = 0; i < only->nr; i++) {
		const char *w = only->items[i], *slash = strchr(w, '/');

		if (!slash || slash == w || !slash[1] || strchr(slash + 1, '/'))
			return sk_error_set(SK_EINVALID, "--only '%s': name a "
					    "binary as <suite>/<binary>", w);
		n = (size_t)(slash - w);
		for (j = 0; j < suites->nr; j++)
			if (strlen(suites->items[j]) == n &&
			    !strncmp(suites->items[j], w, n))
				break;
		if (j < suites->nr)
			continue;
		*SK_ARRAY_PUSH(added->items, added->nr, added->alloc) =
			sk_xstrndup(w, n);
		*SK_ARRAY_PUSH(suites->items, suites->nr, suites->alloc) =
			added->items[added->nr - 1];
	}
	return 0;
}

int cmd_test(int argc, const char **argv, struct sk_context *ctx)
{
	const char *branch = NULL, *kernel = NULL, *arch = "x86_64";
	const char *src = NULL, *out = NULL, *scan = NULL, *accel = NULL;
	const char *append = NULL, *runner = NULL, *lava_config = NULL;
	struct sk_lava lava = { 0 };
	int use_lava = 0;
	struct sk_strvec suites = { 0 }, only = { 0 }, added = { 0 };
	int bench = 0, mglru = 0;
	int boot_only = 0, timeout = 900, test_timeout = 300, retries = 1;
	int json = ctx->json, ret;
	struct sk_test_opts to = { 0 };
	char *work = NULL, *outdir = NULL, *srcdir = NULL, *not_run = NULL;
	char *built = NULL;
	const char **suite_v = NULL, **only_v = NULL;
	json_t *res = NULL;
	const struct sk_option opts[] = {
		SK_OPT_STRING_(0, "branch", &branch, "b", "the branch (results directory)"),
		SK_OPT_STRING_(0, "kernel", &kernel, "image", "boot this image; 'none': firmware only"),
		SK_OPT_STRING_(0, "arch", &arch, "a", "x86_64 (default), i386, arm64"),
		SK_OPT_LIST_(0, "suite", &suites, "s", "kselftest suite (default cgroup)"),
		SK_OPT_LIST_(0, "only", &only, "suite/binary",
			     "run this kselftest binary alone (its suite built)"),
		SK_OPT_STRING_(0, "src", &src, "tree", "kernel tree for the kselftests"),
		SK_OPT_STRING_(0, "out", &out, "dir", "results directory"),
		SK_OPT_BOOL_(0, "boot-only", &boot_only, "boot, run no tests"),
		SK_OPT_RANGE_(0, "timeout", &timeout, "s", 1, SK_OPT_SECONDS_MAX,
			      "hard limit of the guest"),
		SK_OPT_RANGE_(0, "test-timeout", &test_timeout, "s", 1,
			      SK_OPT_SECONDS_MAX, "limit per test binary"),
		SK_OPT_RANGE_(0, "retries", &retries, "n", 0, 100,
			      "retries of a failed binary"),
		SK_OPT_STRING_(0, "accel", &accel, "a", "auto (default), tcg, kvm"),
		SK_OPT_STRING_(0, "append", &append, "cmdline", "added to the kernel command line"),
		SK_OPT_RANGE_(0, "bench", &bench, "runs", 1, 1000,
			      "run the gate's benchmark in one boot"),
		SK_OPT_BOOL_(0, "mglru", &mglru, "benchmark with lru_gen enabled"),
		SK_OPT_STRING_(0, "scan-log", &scan, "file", "scan a console log for splats"),
		SK_OPT_STRING_(0, "runner", &runner, "r",
			       "where the guest runs: local (default) or lava"),
		SK_OPT_STRING_(0, "lava-config", &lava_config, "file",
			       "[lava] config (default: <work>/lava/lava.conf)"),
		SK_OPT_BOOL_(0, "json", &json, "print the results as JSON"),
		SK_OPT_END_()
	};

	argc = sk_parse_options(argc, argv, opts, usage);
	if (argc == -2)
		return SK_EXIT_OK;
	if (argc < 0 || argc > 0) {
		if (argc > 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	if (scan)
		return scan_log(scan);
	if (sk_lava_check_runner(runner, lava_config) < 0 ||
	    only_suites(&suites, &added, &only) < 0) {
		fprintf(stderr, "error: %s\n", sk_error_last());
		ret = SK_EXIT_USAGE;
		goto out;
	}
	if (!sk_qemu_binary(arch)) {
		fprintf(stderr, "error: unknown arch '%s'\n", arch);
		return SK_EXIT_USAGE;
	}
	/* without a kernel, test builds one (minutes): only when asked */
	if (!branch && !kernel) {
		fprintf(stderr, "error: name the branch whose kernel to build and "
			"boot (--branch <b>) or a kernel image (--kernel)\n");
		sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	if (branch) {
		ret = sk_require_branch(ctx->top, branch);
		if (ret)
			return ret;
	}
	work = sk_work_dir(ctx->top);
	if (sk_lava_runner(&lava, &use_lava, runner, lava_config, work) < 0) {
		free(work);
		return sk_die_lib(SK_EINVALID);
	}
	if (use_lava && kernel && !strcmp(kernel, "none")) {
		/* a guest of firmware alone never ends: LAVA waits hours */
		sk_lava_release(&lava);
		free(work);
		fprintf(stderr, "error: --runner lava boots a kernel, not "
			"--kernel none\n");
		return SK_EXIT_USAGE;
	}
	/* a kernel given by path belongs to no branch's results */
	outdir = out ? sk_xstrdup(out) : branch ?
		 sk_xstrfmt("%s/results/%s/test/%s", work, branch, arch) :
		 sk_xstrfmt("%s/test/%s", work, arch);
	srcdir = src ? sk_xstrdup(src) : sk_path_join(work, "linux");
	if (suites.nr) {
		suite_v = sk_xcalloc(suites.nr + 1, sizeof(*suite_v));
		memcpy(suite_v, suites.items, suites.nr * sizeof(*suite_v));
	}
	if (only.nr) {
		only_v = sk_xcalloc(only.nr + 1, sizeof(*only_v));
		memcpy(only_v, only.items, only.nr * sizeof(*only_v));
	}
	if (!kernel) {
		if (ctx->progress) {
			char *cmd = build_command(branch, arch);

			sk_progressf("test: %s", cmd);
			free(cmd);
		}
		kernel = built = built_kernel(ctx, branch, arch, &not_run);
	} else if (strcmp(kernel, "none") && !sk_path_exists(kernel)) {
		not_run = sk_xstrfmt("not run: kernel image '%s' does not exist",
				     kernel);
	}
	if (not_run) {
		res = json_pack("{s:s, s:s, s:s}", "status", "not run",
				"reason", not_run, "arch", arch);
		{
			char *p = sk_path_join(outdir, "results.json");

			sk_results_save(p, res);
			free(p);
		}
		ret = SK_EXIT_CHECK;
		goto print;
	}
	if (bench > 0) {
		ret = run_bench(&res, ctx->top, arch, kernel, outdir, bench, mglru,
				use_lava ? &lava : NULL);
		goto print;
	}
	to.guest.top = ctx->top;
	to.guest.arch = arch;
	to.guest.kernel = strcmp(kernel, "none") ? kernel : NULL;
	to.guest.workdir = outdir;
	to.guest.append = append ? append : "transparent_hugepage=never";
	to.guest.timeout_s = (unsigned int)timeout;
	to.guest.accel = parse_accel(accel);
	to.guest.lava = use_lava ? &lava : NULL;
	to.guest.name = "stablekit test";
	to.src = boot_only ? NULL : srcdir;
	to.suites = suite_v;
	to.only = only_v;
	to.test_timeout_s = (unsigned int)test_timeout;
	to.retries = (unsigned int)retries;
	if (ctx->progress)
		sk_progressf("test: %s on %s, results in %s",
			     branch ? branch : kernel, arch, outdir);
	ret = sk_test_run(&res, &to) < 0 ? SK_EXIT_CHECK :
	      strcmp(json_string_value(json_object_get(res, "status")), "pass") ?
	      SK_EXIT_CHECK : SK_EXIT_OK;
print:
	if (json) {
		json_dumpf(res, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
	} else {
		print_summary(res);
	}
	json_decref(res);
out:
	sk_lava_release(&lava);
	free(not_run);
	free(built);
	free(suite_v);
	free(only_v);
	free(work);
	free(outdir);
	free(srcdir);
	sk_strvec_release(&suites);
	sk_strvec_release(&only);
	sk_strvec_clear(&added);
	return ret;
}
