#include "builtin.h"
#include "bench.h"
#include "error.h"
#include "fsutil.h"
#include "gate.h"
#include "options.h"
#include "run.h"
#include "strbuf.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"stablekit gate --branch <b> [--arch <a>] [--runs <n>] [--skip <stage>]...\n"
	"               [--config <gate.conf>] [--out <dir>] [--json]";

static const char *const new_counters[] = {
	"pgrotate_anon", "pgrotate_file", "pgreclaim_pageout_anon",
	"pgreclaim_pageout_file", NULL
};

struct gate {
	const char *top, *branch, *arch, *outdir;
	char *self, *work, *src;
	struct sk_strlist skip;
	struct sk_gate_thresholds t;
	char *bench_env;
	json_t *stages;
	int progress;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int skipped(const struct gate *g, const char *stage)
{
	size_t i;

	for (i = 0; i < g->skip.nr; i++)
		if (!strcmp(g->skip.items[i], stage))
			return 1;
	return 0;
}

static json_t *stage(struct gate *g, const char *name, const char *status,
		     const char *reason, double seconds)
{
	json_t *o = json_pack("{s:s, s:s, s:s?, s:f}", "name", name, "status",
			      status, "reason", reason, "seconds", seconds);

	json_array_append(g->stages, o);
	if (g->progress)
		fprintf(stderr, "gate: %-10s %s%s%s (%.0f s)\n", name, status,
			reason ? ": " : "", reason ? reason : "", seconds);
	return o;
}

static void save(const struct gate *g, const char *file, json_t *o)
{
	char *p = sk_path_join(g->outdir, file);

	json_dump_file(o, p, JSON_INDENT(2) | JSON_SORT_KEYS);
	free(p);
}

/* Run this stablekit again for a sub-command; its --json output parsed. */
static json_t *run_self(struct gate *g, const char *const *args,
			const char *log_name, char **why)
{
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	const char *argv[24];
	char *errlog = sk_path_join(g->outdir, log_name);
	json_error_t jerr;
	json_t *o = NULL;
	int n = 0, err;

	argv[n++] = g->self;
	argv[n++] = "-C";
	argv[n++] = g->top;
	argv[n++] = "--json";
	while (*args && n < 23)
		argv[n++] = *args++;
	argv[n] = NULL;
	ro.argv = argv;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_CAPTURE_ERR;
	ro.timeout_ms = 3 * 3600 * 1000;
	err = sk_run(&res, &ro);
	sk_write_file_atomic(errlog, res.err.buf, res.err.len);
	if (err < 0) {
		*why = sk_xstrfmt("not run: %s", sk_error_last());
	} else {
		o = json_loads(res.out.buf, 0, &jerr);
		if (!o)
			*why = sk_xstrfmt("not run: '%s' exited %d without JSON (see %s)",
					  argv[4], res.exit_code, errlog);
		else if (res.exit_code > 1)
			*why = sk_xstrfmt("'%s' exited %d (see %s)", argv[4],
					  res.exit_code, errlog);
	}
	sk_run_result_release(&res);
	free(errlog);
	return o;
}

static json_t *first_branch(json_t *build)
{
	return json_array_get(json_object_get(build, "branches"), 0);
}

static json_t *arch_of(json_t *br, const char *arch)
{
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(br, "arches"), i, a)
		if (!strcmp(json_string_value(json_object_get(a, "arch")), arch))
			return a;
	return NULL;
}

static const char *image_of(json_t *br, const char *arch, const char *variant)
{
	return json_string_value(json_object_get(json_object_get(
		arch_of(br, arch), variant), "image"));
}

/* builds (objects, 3 arches) and the queue check that comes with them */
static void stage_objects(struct gate *g)
{
	const char *args[] = { "build", "--branch", g->branch, NULL };
	double t0 = now();
	char *why = NULL;
	json_t *o, *br;

	if (skipped(g, "build")) {
		stage(g, "queue", "not run", "not run: --skip build", 0);
		stage(g, "build", "not run", "not run: --skip build", 0);
		return;
	}
	o = run_self(g, args, "build-objects.log", &why);
	br = first_branch(o);
	if (o)
		save(g, "build-objects.json", o);
	if (!br) {
		stage(g, "queue", "not run", why ? why : "not run: no build", 0);
		stage(g, "build", "not run", why ? why : "not run: no build",
		      now() - t0);
	} else {
		const char *qs = json_string_value(json_object_get(
			json_object_get(br, "queue"), "status"));
		const char *gs = json_string_value(json_object_get(br, "gate"));

		if (!json_is_true(json_object_get(br, "buildable")))
			stage(g, "queue", "fail", json_string_value(
			      json_object_get(br, "why")), 0);
		else
			stage(g, "queue", !qs || !strcmp(qs, "applied") ||
			      !strcmp(qs, "none") ? "pass" : "fail",
			      qs && !strcmp(qs, "none") ? "no queue" :
			      qs && strcmp(qs, "applied") ? qs : NULL, 0);
		stage(g, "build", gs && !strcmp(gs, "pass") ? "pass" : "fail",
		      why, now() - t0);
	}
	free(why);
	json_decref(o);
}

static json_t *build_kernel(struct gate *g, const char *fragment,
			    const char *name, char **why)
{
	const char *args[] = { "build", "--branch", g->branch, "--mode",
			       "kernel", "--arch", g->arch, NULL, NULL, NULL };
	json_t *o;
	char *log = sk_xstrfmt("%s.log", name), *file;

	if (fragment) {
		args[7] = "--fragment";
		args[8] = fragment;
	}
	o = run_self(g, args, log, why);
	file = sk_xstrfmt("%s.json", name);
	if (o)
		save(g, file, o);
	free(log);
	free(file);
	return o;
}

static void stage_kselftest(struct gate *g, json_t *kbuild)
{
	const char *variants[] = { "baseline", "patched" };
	json_t *res[2] = { NULL, NULL }, *cmp;
	const char *wt = json_string_value(json_object_get(first_branch(kbuild),
							  "worktree"));
	double t0 = now();
	int i, failed = 0;

	for (i = 0; i < 2; i++) {
		struct sk_test_opts to = { 0 };
		const char *img = image_of(first_branch(kbuild), g->arch,
					   variants[i]);
		char *dir = sk_xstrfmt("%s/kselftest-%s", g->outdir, variants[i]);

		if (!img) {
			char *why = sk_xstrfmt("not run: no %s kernel image",
					       variants[i]);

			stage(g, "boot", "not run", why, 0);
			stage(g, "kselftest", "not run", why, 0);
			free(why);
			free(dir);
			goto cleanup;
		}
		to.guest.top = g->top;
		to.guest.arch = g->arch;
		to.guest.kernel = img;
		to.guest.workdir = dir;
		to.guest.append = "transparent_hugepage=never";
		to.guest.timeout_s = 1800;
		to.src = wt ? wt : g->src;
		to.test_timeout_s = 300;
		to.retries = 1;
		sk_test_run(&res[i], &to);
		free(dir);
	}
	for (i = 0; i < 2; i++) {
		const char *st = json_string_value(json_object_get(
			json_object_get(res[i], "boot"), "status"));

		if (!st || strcmp(st, "ok")) {
			char *why = sk_xstrfmt("%s: %s", variants[i], st ?
				json_string_value(json_object_get(json_object_get(
					res[i], "boot"), "reason")) :
				json_string_value(json_object_get(res[i], "reason")));

			stage(g, "boot", st ? "fail" : "not run", why, 0);
			free(why);
			failed = 1;
		}
	}
	if (!failed)
		stage(g, "boot", "pass", NULL, 0);
	cmp = sk_kselftest_compare(
		json_object_get(json_object_get(res[0], "kselftest"), "results"),
		json_object_get(json_object_get(res[1], "kselftest"), "results"));
	save(g, "kselftest-compare.json", cmp);
	{
		size_t nreg = json_array_size(json_object_get(cmp, "regressions"));
		char *why = sk_xstrfmt("%zu regressions, %zu known failures, %zu flaky, %zu fixed",
			nreg, json_array_size(json_object_get(cmp, "known_failures")),
			json_array_size(json_object_get(cmp, "flaky")),
			json_array_size(json_object_get(cmp, "fixed")));

		stage(g, "kselftest", nreg ? "fail" : "pass", why, now() - t0);
		free(why);
	}
	json_decref(cmp);
cleanup:
	json_decref(res[0]);
	json_decref(res[1]);
}

static void stage_bench(struct gate *g, json_t *kbuild, const char *mode)
{
	struct sk_bench b[2] = { SK_BENCH_INIT, SK_BENCH_INIT };
	const char *variants[] = { "baseline", "patched" };
	const char *img[2];
	char *usemem = NULL, *env = NULL, *why = NULL, *name;
	double t0 = now();
	int runs = 0, r, i, err = 0;
	json_t *cmp;
	const char *p;

	name = sk_xstrfmt("bench-%s", mode);
	for (i = 0; i < 2; i++)
		img[i] = image_of(first_branch(kbuild), g->arch, variants[i]);
	if (!img[0] || !img[1]) {
		stage(g, name, "not run", "not run: no LOCK_STAT kernel images", 0);
		goto cleanup;
	}
	usemem = sk_bench_build_usemem(g->top, g->outdir);
	if (!usemem) {
		stage(g, name, "not run", "not run: usemem did not build (gcc -static)", 0);
		goto cleanup;
	}
	p = strstr(g->bench_env, "RUNS=");
	runs = p ? atoi(p + 5) : 5;
	/* one run per boot, baseline and patched interleaved */
	env = sk_xstrfmt("%sRUNS=1\n%s", g->bench_env,
			 strcmp(mode, "mglru") ? "" : "LRU_GEN=y\n");
	for (r = 1; r <= runs && !err; r++) {
		for (i = 0; i < 2 && !err; i++) {
			char *dir = sk_xstrfmt("%s/%s/%s-%d", g->outdir, name,
					       variants[i], r);

			if (g->progress)
				fprintf(stderr, "gate: %s %s run %d/%d\n", name,
					variants[i], r, runs);
			err = sk_bench_guest(&b[i], g->top, g->arch, img[i], usemem,
					     env, dir);
			free(dir);
		}
	}
	if (err) {
		why = sk_xstrfmt("fail: %s", sk_error_last());
		stage(g, name, "fail", why, now() - t0);
		goto cleanup;
	}
	if (!strcmp(mode, "mglru")) {
		struct sk_gate_thresholds t = g->t;

		t.lock_ratio_pct = 1e12;	/* cost path does not run */
		cmp = sk_bench_compare(&b[0], &b[1], &t, new_counters);
	} else {
		cmp = sk_bench_compare(&b[0], &b[1], &g->t, new_counters);
	}
	json_object_set_new(cmp, "mode", json_string(mode));
	json_object_set_new(cmp, "lru_gen", json_string(b[0].lru_gen ?
			    b[0].lru_gen : "unknown"));
	{
		char *file = sk_xstrfmt("%s.json", name);

		save(g, file, cmp);
		free(file);
	}
	stage(g, name, json_string_value(json_object_get(cmp, "verdict")),
	      NULL, now() - t0);
	json_decref(cmp);
cleanup:
	sk_bench_release(&b[0]);
	sk_bench_release(&b[1]);
	free(usemem);
	free(env);
	free(why);
	free(name);
}

static const char *verdict(json_t *stages, json_t *reasons)
{
	const char *v = "pass", *why;
	json_t *s;
	size_t i;

	json_array_foreach(stages, i, s) {
		const char *st = json_string_value(json_object_get(s, "status"));

		if (!strcmp(st, "pass"))
			continue;
		why = json_string_value(json_object_get(s, "reason"));
		if (why && !strncmp(why, st, strlen(st)))
			json_array_append_new(reasons, json_sprintf("%s: %s",
				json_string_value(json_object_get(s, "name")), why));
		else
			json_array_append_new(reasons, json_sprintf("%s: %s%s%s",
				json_string_value(json_object_get(s, "name")), st,
				why ? ": " : "", why ? why : ""));
		if (!strcmp(st, "fail"))
			v = "fail";
		else if (strcmp(v, "fail"))
			v = "incomplete";
	}
	return v;
}

int cmd_gate(int argc, const char **argv, struct sk_context *ctx)
{
	const char *branch = NULL, *arch = "x86_64", *config = NULL, *out = NULL;
	int runs = 0, json = ctx->json, ret;
	struct gate g = { 0 };
	char *conf_path, *outdir, *why = NULL;
	json_t *kbuild = NULL, *lockbuild = NULL, *res, *reasons;
	const char *v;
	double t0 = now();
	const struct sk_option opts[] = {
		SK_OPT_STRING_(0, "branch", &branch, "b", "the stable branch"),
		SK_OPT_STRING_(0, "arch", &arch, "a", "arch to boot (default x86_64)"),
		SK_OPT_INT_(0, "runs", &runs, "n", "benchmark runs per side"),
		SK_OPT_LIST_(0, "skip", &g.skip, "stage", "build, kselftest, bench or mglru"),
		SK_OPT_STRING_(0, "config", &config, "file", "thresholds (ci/gate.conf)"),
		SK_OPT_STRING_(0, "out", &out, "dir", "results directory"),
		SK_OPT_BOOL_(0, "json", &json, "print the results as JSON"),
		SK_OPT_END_()
	};

	argc = sk_parse_options(argc, argv, opts, usage);
	if (argc == -2)
		return SK_EXIT_OK;
	if (argc != 0 || !branch) {
		if (argc >= 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	g.top = ctx->top;
	g.branch = branch;
	g.arch = arch;
	g.progress = ctx->progress || getenv("SK_GATE_PROGRESS");
	g.self = realpath("/proc/self/exe", NULL);
	g.work = getenv("SK_WORK") ? sk_xstrdup(getenv("SK_WORK")) :
		 sk_path_join(ctx->top, "work");
	g.src = sk_path_join(g.work, "linux");
	outdir = out ? sk_xstrdup(out) :
		 sk_xstrfmt("%s/results/%s/gate", g.work, branch);
	g.outdir = outdir;
	g.stages = json_array();
	conf_path = config ? sk_xstrdup(config) :
		    sk_path_join(ctx->top, "ci/gate.conf");
	if (sk_mkdir_p(outdir, 0755) < 0 ||
	    sk_gate_config(&g.t, &g.bench_env, sk_path_exists(conf_path) ?
			   conf_path : NULL) < 0) {
		ret = sk_die_lib(SK_ERROR);
		goto cleanup;
	}
	if (runs > 0) {
		char *e = sk_xstrfmt("%sRUNS=%d\n", g.bench_env, runs);

		free(g.bench_env);
		g.bench_env = e;
	}
	stage_objects(&g);
	if (skipped(&g, "kselftest")) {
		stage(&g, "boot", "not run", "not run: --skip kselftest", 0);
		stage(&g, "kselftest", "not run", "not run: --skip kselftest", 0);
	} else {
		double tk = now();

		kbuild = build_kernel(&g, NULL, "build-kernel", &why);
		stage(&g, "kernel", image_of(first_branch(kbuild), arch, "patched") ?
		      "pass" : "not run", image_of(first_branch(kbuild), arch,
		      "patched") ? NULL : why ? why : "not run: no image",
		      now() - tk);
		free(why);
		why = NULL;
		stage_kselftest(&g, kbuild);
	}
	if (skipped(&g, "bench")) {
		stage(&g, "bench-classic", "not run", "not run: --skip bench", 0);
	} else {
		char *frag = sk_path_join(ctx->top, "ci/kconfig/gate-lockstat.config");

		lockbuild = build_kernel(&g, frag, "build-kernel-lockstat", &why);
		free(frag);
		free(why);
		why = NULL;
		stage_bench(&g, lockbuild, "classic");
		if (!skipped(&g, "mglru"))
			stage_bench(&g, lockbuild, "mglru");
	}
	reasons = json_array();
	v = verdict(g.stages, reasons);
	res = json_pack("{s:s, s:s, s:s, s:o, s:o, s:f, s:s}", "branch", branch,
			"arch", arch, "verdict", v, "reasons", reasons,
			"stages", json_incref(g.stages), "seconds", now() - t0,
			"results", outdir);
	save(&g, "gate.json", res);
	if (json) {
		json_dumpf(res, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
	} else {
		json_t *r;
		size_t i;

		printf("gate %s: %s (%.0f s)\n", branch, v, now() - t0);
		json_array_foreach(reasons, i, r)
			printf("  %s\n", json_string_value(r));
		printf("results: %s\n", outdir);
	}
	ret = strcmp(v, "pass") ? SK_EXIT_CHECK : SK_EXIT_OK;
	json_decref(res);
cleanup:
	json_decref(kbuild);
	json_decref(lockbuild);
	json_decref(g.stages);
	sk_strlist_release(&g.skip);
	free(g.bench_env);
	free(g.self);
	free(g.work);
	free(g.src);
	free(outdir);
	free(conf_path);
	return ret;
}
