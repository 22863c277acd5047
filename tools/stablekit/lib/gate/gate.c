#include "gate/gate.h"
#include "build/build-branch.h"
#include "port/port-results.h"
#include "gate/batch.h"
#include "gate/bench.h"
#include "gate/bench-results.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "gate/kselftest.h"
#include "gate/kselftest-results.h"
#include "gate/lava.h"
#include "core/options.h"
#include "core/progress.h"
#include "gate/qemu.h"
#include "core/results.h"
#include "core/run.h"
#include "core/strbuf.h"
#include "core/strvec.h"
#include "gate/boot.h"
#include "gate/gate-config.h"
#include "gate/gate-results.h"
#include "gate/guest.h"
#include "gate/test.h"

#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

static const char *const variants[] = { "baseline", "patched" };

static const char *const new_counters[] = {
	"pgrotate_anon", "pgrotate_file", "pgreclaim_pageout_anon",
	"pgreclaim_pageout_file", NULL
};

struct gate {
	const char *top, *branch, *arch, *outdir;
	/*
	 * Another arch's part of the gate: its stages are named
	 * "<stage>-<arch>" in the parent's gate.json, its files go to
	 * <outdir>/<arch>; it boots and runs the kselftests, no benchmark.
	 */
	struct gate *parent;
	const char *busybox;	/* the guest's, when known before the key */
	const struct sk_lava *lava;	/* NULL: the guests run here */
	char *work, *src;
	const struct sk_strvec *skip;
	struct sk_gate_thresholds t;
	char *bench_env;
	struct sk_gate_results *res;	/* the parent's: gate.json */
	int progress, runs, jobs;
	unsigned int guests;	/* side by side */
	/*
	 * The baseline's results (kselftests, benchmark consoles) are kept in
	 * <work>/results/<branch>/gate-baseline/<arch> with the key of what
	 * they depend on; a later gate with the same key reuses them and
	 * builds and runs the patched side only.  staging collects this
	 * run's baseline until the end.
	 */
	int no_reuse, reuse;
	int no_confirm;	/* a regression stands without a confirm boot */
	char *cache, *staging, *inputs, *cached_tip, *tip, *reuse_why;
};

/* The benchmark's workload (usemem) is built for x86_64 alone. */
static int bench_here(const struct gate *g)
{
	return !g->parent && !strcmp(g->arch, "x86_64");
}

static int skipped(const struct gate *g, const char *stage)
{
	size_t i;

	if (!strcmp(stage, "bench") && !bench_here(g))
		return 1;
	for (i = 0; g->skip && i < g->skip->nr; i++)
		if (!strcmp(g->skip->items[i], stage))
			return 1;
	return 0;
}

/*
 * gate.json after every stage, so that a gate that is stopped leaves what
 * it did: the verdict says it did not finish until the last one is in.
 */
static void save_partial(const struct gate *g)
{
	char *p = sk_path_join(g->outdir, "gate.json");
	char *reason = "not finished: the gate was running or stopped";
	struct sk_gate_results partial = { 0 };

	/* the stages so far, borrowed; the rest of the file comes at the end */
	partial.branch = (char *)g->branch;
	partial.arch = (char *)g->arch;
	partial.verdict = "incomplete";
	partial.reasons = &reason;
	partial.nr_reasons = 1;
	partial.stages = g->res->stages;
	partial.nr_stages = g->res->nr_stages;
	sk_gate_results_write(p, &partial);
	free(p);
}

static void stage(struct gate *g, const char *name, const char *status,
		  const char *reason, double seconds)
{
	char *full = g->parent ? sk_xstrfmt("%s-%s", name, g->arch) : NULL;
	const struct sk_gate_results_stage *s;

	s = sk_gate_results_add_stage(g->res, full ? full : name, status,
				      reason, seconds, g->arch);
	name = s->name;
	free(full);
	save_partial(g->parent ? g->parent : g);
	if (g->progress && reason && !strncmp(reason, status, strlen(status)))
		sk_progressf("gate: %-10s %s (%.0f s)", name, reason, seconds);
	else if (g->progress)
		sk_progressf("gate: %-10s %s%s%s (%.0f s)", name, status,
			     reason ? ": " : "", reason ? reason : "", seconds);
}

static void save(const struct gate *g, const char *file, json_t *o)
{
	char *p = sk_path_join(g->outdir, file);

	/* atomic: a reader (the report) never sees half a file */
	sk_results_save(p, o);
	free(p);
}

/* A file with a schema of its own, written only as that schema reads it. */
static int save_typed(const struct gate *g, const char *file, json_t *o,
		      int (*write)(const char *path, json_t *o))
{
	char *p = sk_path_join(g->outdir, file);
	int ret = write(p, o);

	free(p);
	return ret;
}

struct build_log {
	FILE *f;
	const char *branch;
};

static void log_progress(const char *arch, const char *variant,
			 const char *what, void *data)
{
	struct build_log *l = data;
	char *line = sk_build_branch_progress_line(l->branch, arch, variant,
						   what);

	fprintf(l->f, "%s\n", line);
	fflush(l->f);
	free(line);
}

/* A build's results in <outdir>/<file> as `stablekit build --json` prints them. */
static void save_build(const struct gate *g, const char *file,
		       const struct sk_build_results *b)
{
	json_t *o = json_pack("{s:[o]}", "branches", sk_build_results_to_json(b));

	save(g, file, o);
	json_decref(o);
}

/*
 * The branch built as `stablekit build --branch <b>` builds it (the same
 * checkouts, results and reuse), in this process, its progress written
 * to <outdir>/<log_name> as it comes; what its build.json holds, or NULL
 * when it could not start.  *why says what kept it from a clean run.
 */
static struct sk_build_results *run_build(struct gate *g,
					  const struct sk_build_opts *opts,
					  const char *log_name, char **why)
{
	struct sk_build_branch_opts bo = { 0 };
	char *logpath = sk_path_join(g->outdir, log_name), *results = NULL;
	char *not_ported;
	struct build_log l = { fopen(logpath, "we"), g->branch };
	struct sk_build_results *o = NULL;
	struct sk_build job;
	int ret;

	bo.build = *opts;
	bo.build.top = g->top;
	if (l.f) {
		bo.build.progress = log_progress;
		bo.build.progress_data = &l;
	}
	if (g->progress)
		sk_progressf("gate: build %s ... (its progress in %s)",
			     sk_build_mode_name(opts->mode), logpath);
	bo.build.not_ported = not_ported = sk_port_results_not_ported(g->top, g->branch);
	ret = sk_build_branch_named(&job, &o, &results, g->branch, &bo);
	free(not_ported);
	if (ret < 0 && !o)
		*why = sk_xstrfmt("not run: build: %s", sk_error_last());
	else if (ret < 0)
		*why = sk_xstrfmt("build: %s", sk_error_last());
	else if (!job.buildable && !job.not_run)
		*why = sk_xstrfmt("build: '%s' is not buildable: %s", g->branch,
				  job.why);
	if (l.f) {
		if (*why)
			fprintf(l.f, "error: %s\n", *why);
		fclose(l.f);
	}
	sk_build_release(&job);
	free(results);
	free(logpath);
	return o;
}

/* The blob id of a file's content, or "missing". */
static char *file_oid(const char *path)
{
	char hex[GIT_OID_HEXSZ + 1];
	git_oid oid;

	if (!path || git_odb_hashfile(&oid, path, GIT_OBJECT_BLOB) < 0)
		return sk_xstrdup("missing");
	git_oid_tostr(hex, sizeof(hex), &oid);
	return sk_xstrdup(hex);
}

static void add_oid(struct sk_strbuf *sb, const char *name, const char *path)
{
	char *oid = file_oid(path);

	sk_strbuf_addf(sb, "%s %s\n", name, oid);
	free(oid);
}

/* The kselftests of the gate, their per-binary limit and retries. */
static const char *const gate_suites[] = { "cgroup", "mm", NULL };
#define GATE_TEST_TIMEOUT_S 300
#define GATE_TEST_RETRIES 1

/* The kselftest job this program writes (its tests' names only). */
static void add_job_oid(struct sk_strbuf *sb)
{
	struct sk_strvec bins = { 0 };
	char hex[GIT_OID_HEXSZ + 1], *job;
	const char *const *s, *const *t;
	git_oid oid;

	for (s = gate_suites; *s; s++) {
		const struct sk_kselftest_suite *suite = sk_kselftest_suite(*s);

		for (t = suite->tests; *t; t++)
			*SK_ARRAY_PUSH(bins.items, bins.nr, bins.alloc) =
				sk_xstrfmt("kselftest/%s/%s", *s, *t);
		sk_strbuf_addf(sb, "kselftest-optimize %s %s\n", *s,
			       suite->optimize);
	}
	job = sk_kselftest_job(gate_suites[0], &bins, GATE_TEST_TIMEOUT_S,
			       GATE_TEST_RETRIES);
	if (git_odb_hash(&oid, job, strlen(job), GIT_OBJECT_BLOB) < 0)
		strcpy(hex, "missing");
	else
		git_oid_tostr(hex, sizeof(hex), &oid);
	sk_strbuf_addf(sb, "kselftest-job %s\n", hex);
	sk_strvec_clear(&bins);
	free(job);
}

/*
 * What the baseline's results depend on, the branch tip aside: the kernel
 * fragments, the guest, the workload, the kselftest job this program
 * writes, busybox and the benchmark parameters but the number of runs.
 * (The stored benchmark consoles are parsed again when reused.)
 */
static char *inputs_key(const struct gate *g)
{
	/* the names as the checkout has them, the key of earlier runs */
	static const char *const files[] = {
		"ci/kconfig/gate-kernel.config", "ci/kconfig/gate-lockstat.config",
		"ci/guest/init", "ci/guest/bench.sh",
		"tools/stablekit/helpers/usemem.c",
		"tools/stablekit/helpers/wsbench.c", NULL
	};
	static const char tools[] = "tools/stablekit/";
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char *const *f;
	const char *line, *end;

	sk_strbuf_addf(&sb, "branch %s\narch %s\n", g->branch, g->arch);
	for (f = files; *f; f++) {
		char *path = strncmp(*f, tools, sizeof(tools) - 1) ?
			     sk_datadir_find(g->top, *f, NULL) :
			     sk_datadir_path(*f + sizeof(tools) - 1);

		add_oid(&sb, *f, path);
		free(path);
	}
	add_job_oid(&sb);
	add_oid(&sb, "busybox", g->busybox ? g->busybox :
		sk_guest_busybox(g->arch));
	for (line = g->bench_env; *line; line = end) {
		end = strchr(line, '\n');
		end = end ? end + 1 : line + strlen(line);
		if (strncmp(line, "RUNS=", 5))
			sk_strbuf_addf(&sb, "env %.*s", (int)(end - line), line);
	}
	return sk_strbuf_detach(&sb);
}

/* sk_copy_file, with to's directory made first. */
static int copy_file(const char *from, const char *to)
{
	char *dir = sk_xstrdup(to), *slash = strrchr(dir, '/');
	int err = 0;

	if (slash) {
		*slash = '\0';
		err = sk_mkdir_p(dir, 0755);
	}
	if (!err)
		err = sk_copy_file(from, to);
	free(dir);
	return err;
}

/* Copy <from>/<rel> to <to>/<rel>; a missing source is not an error. */
static int copy_rel(const char *from, const char *to, const char *rel)
{
	char *a = sk_path_join(from, rel), *b = sk_path_join(to, rel);
	int err = sk_path_exists(a) ? copy_file(a, b) : 0;

	free(a);
	free(b);
	return err;
}

static int bench_modes(const struct gate *g, const char **modes)
{
	int n = 0;

	if (skipped(g, "bench"))
		return 0;
	modes[n++] = "classic";
	if (!skipped(g, "mglru"))
		modes[n++] = "mglru";
	return n;
}

static char *cached_run_log(const char *root, const char *mode, int run)
{
	return sk_xstrfmt("%s/bench-%s/baseline-%d/console.log", root, mode, run);
}

/* Whether the stored baseline covers what this gate runs; why when not. */
static char *reuse_missing(const struct gate *g)
{
	const char *modes[2];
	char *p = sk_path_join(g->cache, "kselftest-baseline/results.json");
	int i, r, n = bench_modes(g, modes);

	if (!skipped(g, "kselftest") && !sk_path_exists(p))
		return p;
	free(p);
	for (i = 0; i < n; i++) {
		for (r = 1; r <= g->runs; r++) {
			p = cached_run_log(g->cache, modes[i], r);
			if (!sk_path_exists(p))
				return p;
			free(p);
		}
	}
	return NULL;
}

static void reuse_check(struct gate *g)
{
	struct sk_strbuf key = SK_STRBUF_INIT;
	char *path = sk_path_join(g->cache, "key"), *missing = NULL;
	char *kselftests = sk_path_join(g->cache, "kselftest-baseline/results.json");
	size_t n = strlen(g->inputs);

	g->reuse = 0;
	if (g->no_reuse) {
		g->reuse_why = sk_xstrdup("--no-reuse");
	} else if (sk_read_file(&key, path) < 0) {
		sk_error_clear();
		g->reuse_why = sk_xstrdup("no stored baseline");
	} else if (key.len <= n + 4 || strncmp(key.buf, g->inputs, n) ||
		   strncmp(key.buf + n, "tip ", 4)) {
		g->reuse_why = sk_xstrdup("the baseline's inputs changed");
	} else if ((missing = reuse_missing(g))) {
		g->reuse_why = sk_xstrfmt("the stored baseline lacks %s", missing);
	} else if (!skipped(g, "kselftest") &&
		   (missing = sk_kselftest_stored_unbuilt(kselftests))) {
		/* an earlier stablekit may have built them differently */
		g->reuse_why = missing;
		missing = NULL;
	} else {
		sk_strbuf_rtrim(&key);
		g->cached_tip = sk_xstrdup(key.buf + n + 4);
		g->reuse = 1;
	}
	/* this run's baseline is collected afresh (nothing when all skipped) */
	if (!g->reuse && (!skipped(g, "kselftest") || !skipped(g, "bench")))
		sk_rmrf(g->staging);
	free(missing);
	free(kselftests);
	free(path);
	sk_strbuf_release(&key);
}

/* The tip the builds saw; a reused baseline of another tip is dropped. */
static int tip_agrees(struct gate *g, const struct sk_build_results *build)
{
	const char *tip = build->tip;

	if (tip && !g->tip)
		g->tip = sk_xstrdup(tip);
	if (!g->reuse || !tip || !strcmp(tip, g->cached_tip))
		return 1;
	free(g->reuse_why);
	g->reuse_why = sk_xstrfmt("the tip moved from %.12s to %.12s",
				  g->cached_tip, tip);
	g->reuse = 0;
	sk_rmrf(g->staging);
	return 0;
}

/* This run's baseline becomes the stored one (the key is written last). */
static void store_baseline(struct gate *g)
{
	char *key = sk_path_join(g->staging, "key");
	char *text;

	if (g->reuse)
		goto out;
	if (!g->tip || !sk_is_dir(g->staging))
		goto out;	/* no kernel built, nothing ran */
	text = sk_xstrfmt("%stip %s\n", g->inputs, g->tip);
	if (sk_write_file_atomic(key, text, strlen(text)) < 0 ||
	    (sk_rmrf(g->cache) < 0 && sk_path_exists(g->cache)) ||
	    rename(g->staging, g->cache) < 0)
		fprintf(stderr, "gate: baseline not stored in %s: %s\n",
			g->cache, sk_error_last());
	free(text);
out:
	free(key);
}

/* builds (objects, 3 arches) and the queue check that comes with them */
static void stage_objects(struct gate *g)
{
	struct sk_build_opts bo = { 0 };
	double t0 = sk_now();
	char *why = NULL;
	struct sk_build_results *br;

	if (skipped(g, "build")) {
		stage(g, "queue", "not run", "not run: --skip build", 0);
		stage(g, "build", "not run", "not run: --skip build", 0);
		return;
	}
	bo.mode = SK_BUILD_OBJECTS;
	br = run_build(g, &bo, "build-objects.log", &why);
	if (br)
		save_build(g, "build-objects.json", br);
	if (!br) {
		stage(g, "queue", "not run", why ? why : "not run: no build", 0);
		stage(g, "build", "not run", why ? why : "not run: no build",
		      sk_now() - t0);
	} else {
		const char *qs = br->queue_status;
		const char *gs = br->gate;
		const char *nr = br->not_run;

		if (nr) {
			/* the selected series did not port: nothing to gate */
			stage(g, "queue", "not run", nr, 0);
			stage(g, "build", "not run", nr, sk_now() - t0);
			free(why);
			sk_build_results_free(br);
			return;
		}
		if (!br->buildable)
			stage(g, "queue", "fail", br->why, 0);
		else
			stage(g, "queue", !qs || !strcmp(qs, "applied") ||
			      !strcmp(qs, "none") ? "pass" : "fail",
			      qs && !strcmp(qs, "none") ? "no queue" :
			      qs && strcmp(qs, "applied") ? qs : NULL, 0);
		stage(g, "build", gs && !strcmp(gs, "pass") ? "pass" : "fail",
		      why, sk_now() - t0);
	}
	free(why);
	sk_build_results_free(br);
}

static struct sk_build_results *build_kernel_once(struct gate *g,
						  const char *fragment,
						  const char *name, char **why)
{
	struct sk_build_opts bo = { 0 };
	char *arches[] = { (char *)g->arch }, *fragments[] = { (char *)fragment };
	char *log = sk_xstrfmt("%s.log", name), *file;
	struct sk_build_results *o;

	bo.mode = SK_BUILD_KERNEL;
	bo.arches = arches;
	bo.nr_arches = 1;
	bo.jobs = g->jobs > 0 ? g->jobs : 0;
	if (fragment) {
		bo.fragments = fragments;
		bo.nr_fragments = 1;
	}
	bo.no_baseline = g->reuse;
	o = run_build(g, &bo, log, why);
	file = sk_xstrfmt("%s.json", name);
	if (o)
		save_build(g, file, o);
	free(log);
	free(file);
	return o;
}

/*
 * The images into <out>/<name>-<variant>.img, and the JSON pointed there:
 * the next stablekit build of the branch (this gate's or another's)
 * writes the same results path.
 */
static void keep_images(struct gate *g, struct sk_build_results *build,
			const char *name)
{
	struct sk_build_results_arch *a =
		build ? sk_build_results_arch(build, g->arch) : NULL;
	size_t i;

	for (i = 0; a && i < 2; i++) {
		char **img = i ? &a->patched.image : &a->baseline.image;
		char *to;

		if (!*img)
			continue;
		to = sk_xstrfmt("%s/%s-%s.img", g->outdir, name, variants[i]);
		if (!copy_file(*img, to)) {
			free(*img);
			*img = to;
			continue;
		}
		sk_error_clear();
		free(to);
	}
}

/*
 * The kernels; the baseline only when it is not reused, and again with it
 * when the tip turns out not to be the stored baseline's.
 */
static struct sk_build_results *build_kernel(struct gate *g,
					     const char *fragment,
					     const char *name, char **why)
{
	struct sk_build_results *o = build_kernel_once(g, fragment, name, why);

	if (o && !tip_agrees(g, o)) {
		sk_build_results_free(o);
		free(*why);
		*why = NULL;
		o = build_kernel_once(g, fragment, name, why);
	}
	keep_images(g, o, name);
	return o;
}

/*
 * One pair of kernels for the kselftests and the benchmark: the boot
 * config with LOCK_STAT, whose lockdep the kselftests run under too.  Two
 * configs would be four cold kernel builds, the gate's largest cost.
 */
static void stage_kernel(struct gate *g, struct sk_build_results **kbuild)
{
	char *frag, *why = NULL;
	const char *img;
	double t0 = sk_now();

	if (skipped(g, "kselftest") && skipped(g, "bench")) {
		stage(g, "kernel", "not run", !bench_here(g) ?
		      "not run: --skip kselftest (and no benchmark here)" :
		      "not run: --skip kselftest and --skip bench", 0);
		return;
	}
	frag = sk_datadir_find(g->top, "ci/kconfig/gate-lockstat.config", NULL);
	*kbuild = build_kernel(g, frag, "build-kernel", &why);
	img = sk_build_results_image(*kbuild, g->arch, "patched");
	stage(g, "kernel", img ? "pass" : "not run",
	      img ? NULL : why ? why : "not run: no image", sk_now() - t0);
	free(frag);
	free(why);
}

/* The stored baseline's kselftest results, copied into this run's. */
static json_t *kselftest_reused(struct gate *g, const char *dir)
{
	char *from = sk_path_join(g->cache, "kselftest-baseline");
	char *file = sk_path_join(dir, "results.json");
	json_t *res = NULL;

	if (!copy_rel(from, dir, "results.json") &&
	    !copy_rel(from, dir, "console.log"))
		res = json_load_file(file, 0, NULL);
	if (res)
		json_object_set_new(res, "reused", json_string(g->cache));
	free(from);
	free(file);
	return res;
}

/*
 * One side's boot and kselftests; NULL when there is no image.  With
 * only, a confirm boot of those binaries alone (never reused or stored).
 */
static json_t *kselftest_side(struct gate *g,
			      const struct sk_build_results *kbuild,
			      const char *variant, const char *wt,
			      const char *const *only)
{
	struct sk_test_opts to = { 0 };
	const char *img = sk_build_results_image(kbuild, g->arch, variant);
	const char *suffix = only ? "-confirm" : "";
	char *dir = sk_xstrfmt("%s/kselftest-%s%s", g->outdir, variant, suffix);
	char *name = NULL;
	json_t *res = NULL;
	int base = !strcmp(variant, "baseline");

	if (base && g->reuse && !only) {
		res = kselftest_reused(g, dir);
		goto out;
	}
	if (!img)
		goto out;
	to.guest.top = g->top;
	to.guest.arch = g->arch;
	to.guest.kernel = img;
	to.guest.workdir = dir;
	to.guest.append = "transparent_hugepage=never";
	to.guest.timeout_s = 1800;
	to.guest.lava = g->lava;
	to.guest.name = name = sk_xstrfmt("stablekit %s %s kselftest-%s%s",
					  g->branch, g->arch, variant, suffix);
	to.src = wt ? wt : g->src;
	to.suites = gate_suites;
	to.test_timeout_s = GATE_TEST_TIMEOUT_S;
	to.retries = GATE_TEST_RETRIES;
	to.only = only;
	sk_test_run(&res, &to);
	if (base && !only) {
		char *into = sk_path_join(g->staging, "kselftest-baseline");

		if (copy_rel(dir, into, "results.json") < 0 ||
		    copy_rel(dir, into, "console.log") < 0)
			sk_error_clear();
		free(into);
	}
out:
	free(name);
	free(dir);
	return res;
}

struct kselftest_batch {
	struct gate *g;
	const struct sk_build_results *kbuild;
	json_t *res[2];
	const char *wt;
	const char *const *only;	/* a confirm boot's binaries */
};

static void kselftest_one(void *data, size_t i)
{
	struct kselftest_batch *kb = data;

	kb->res[i] = kselftest_side(kb->g, kb->kbuild, variants[i], kb->wt,
				    kb->only);
}

static json_t *kselftest_results(json_t *res)
{
	return json_object_get(json_object_get(res, "kselftest"), "results");
}

static json_t *kselftest_not_built(json_t *res)
{
	return json_object_get(json_object_get(res, "kselftest"), "not_built");
}

/* One boot stage for both sides: fail when one failed, else not run. */
static void stage_boot(struct gate *g, json_t **res)
{
	struct sk_strbuf why = SK_STRBUF_INIT;
	const char *status = "pass";
	int i;

	for (i = 0; i < 2; i++) {
		json_t *boot = json_object_get(res[i], "boot");
		const char *st = json_string_value(json_object_get(boot, "status"));
		const char *r;

		if (st && !strcmp(st, "ok"))
			continue;
		r = json_string_value(json_object_get(st ? boot : res[i], "reason"));
		sk_strbuf_addf(&why, "%s%s: %s", why.len ? "; " : "", variants[i],
			       r ? r : "no reason given");
		if (st)
			status = "fail";
		else if (strcmp(status, "fail"))
			status = "not run";
	}
	stage(g, "boot", status, why.len ? why.buf : NULL, 0);
	sk_strbuf_release(&why);
}

/* A confirm boot in a line: its status and reason; NULL: it never ran. */
static json_t *side_summary(json_t *res)
{
	if (!res)
		return NULL;
	return json_pack("{s:O?, s:O*}", "status", json_object_get(res, "status"),
			 "reason", json_object_get(res, "reason"));
}

/*
 * A regression seen in one boot may be the guest's load, not the queue
 * (TCG beside other work: reclaim and OOM tests time out or get killed):
 * boot both sides again with only the regressed binaries, and keep as a
 * regression what fails again with the queue and passes again without.
 */
static const char *confirm(struct gate *g, const struct kselftest_batch *kb,
			   json_t *cmp, char **why)
{
	struct kselftest_batch again = *kb;
	struct sk_strvec bins = { 0 };
	const char **only;
	const char *st;
	size_t i;

	sk_kselftest_regressed(&bins, cmp);
	only = sk_xcalloc(bins.nr + 1, sizeof(*only));
	for (i = 0; i < bins.nr; i++)
		only[i] = bins.items[i];
	again.only = only;
	again.res[0] = again.res[1] = NULL;
	if (g->progress)
		sk_progressf("gate: %s: %zu regressed kselftest binaries, "
			     "a confirm boot a side", g->arch, bins.nr);
	sk_batch_run(2, g->guests, kselftest_one, NULL, &again);
	sk_kselftest_confirm(cmp, kselftest_results(again.res[0]),
			     kselftest_results(again.res[1]));
	json_object_set_new(cmp, "confirm", json_pack("{s:o, s:o*, s:o*}",
		"binaries", sk_strvec_json(&bins),
		"baseline", side_summary(again.res[0]),
		"patched", side_summary(again.res[1])));
	st = sk_kselftest_tally(cmp, why);
	json_decref(again.res[0]);
	json_decref(again.res[1]);
	free(only);
	sk_strvec_clear(&bins);
	return st;
}

/*
 * The kselftest stage from both sides' results: "not run" when a side has
 * none (its own reason then, when it never ran), never 0 regressions.
 */
static void stage_kselftest_verdict(struct gate *g,
				    const struct kselftest_batch *kb, double t0)
{
	json_t *const *res = kb->res;
	const char *st, *r;
	json_t *cmp;
	char *why;
	int i;

	st = sk_kselftest_verdict(kselftest_results(res[0]),
				  kselftest_results(res[1]), &cmp, &why);
	if (cmp && !strcmp(st, "fail") && !g->no_confirm) {
		free(why);
		st = confirm(g, kb, cmp, &why);
	}
	if (cmp)
		st = sk_kselftest_not_built(kselftest_not_built(res[0]),
					    kselftest_not_built(res[1]), st, &why);
	if (cmp && save_typed(g, "kselftest-compare.json", cmp,
			      sk_kselftest_compare_write) < 0) {
		free(why);
		why = sk_xstrfmt("not run: %s", sk_error_last());
		st = "not run";
		sk_error_clear();
	}
	for (i = 0; !cmp && i < 2; i++) {
		r = json_string_value(json_object_get(res[i], "reason"));
		if (json_is_array(kselftest_results(res[i])) || !r)
			continue;
		if (!strncmp(r, "not run: ", 9))
			r += 9;
		free(why);
		why = sk_xstrfmt("not run: %s: %s", variants[i], r);
		break;
	}
	stage(g, "kselftest", st, why, sk_now() - t0);
	free(why);
	json_decref(cmp);
}

static void stage_kselftest(struct gate *g, const struct sk_build_results *kbuild)
{
	struct kselftest_batch kb = { g, kbuild, { NULL, NULL }, NULL, NULL };
	json_t **res = kb.res;
	double t0 = sk_now();
	int i;

	kb.wt = kbuild ? kbuild->worktree : NULL;
	/* both guests at once; a reused baseline is only a copy */
	sk_batch_run(2, g->reuse ? 1 : g->guests, kselftest_one, NULL, &kb);
	for (i = 0; i < 2; i++) {
		if (!res[i]) {
			char *why = sk_xstrfmt("not run: no %s kernel image",
					       variants[i]);

			stage(g, "boot", "not run", why, 0);
			stage(g, "kselftest", "not run", why, 0);
			free(why);
			goto cleanup;
		}
	}
	stage_boot(g, res);
	stage_kselftest_verdict(g, &kb, t0);
cleanup:
	json_decref(res[0]);
	json_decref(res[1]);
}

/* A stored baseline run: its console parsed and copied into dir. */
static int bench_reused(struct gate *g, struct sk_bench *out,
			const char *mode, int run, const char *dir)
{
	char *from = cached_run_log(g->cache, mode, run);
	char *to = sk_path_join(dir, "console.log");
	struct sk_strbuf log = SK_STRBUF_INIT;
	int err = copy_file(from, to);

	if (!err)
		err = sk_read_file(&log, to);
	if (!err)
		sk_bench_append_log(out, log.buf, log.len);
	sk_strbuf_release(&log);
	free(from);
	free(to);
	return err;
}

static void bench_stage_log(struct gate *g, const char *mode, int run,
			    const char *dir)
{
	char *from = sk_path_join(dir, "console.log");
	char *to = cached_run_log(g->staging, mode, run);

	if (copy_file(from, to) < 0)
		sk_error_clear();
	free(from);
	free(to);
}

/* The reasons of a result as one line ("; "), or NULL. */
static char *reasons_text(json_t *reasons)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	json_t *r;
	size_t i;

	json_array_foreach(reasons, i, r)
		sk_strbuf_addf(&sb, "%s%s", i ? "; " : "", json_string_value(r));
	if (!sb.len) {
		sk_strbuf_release(&sb);
		return NULL;
	}
	return sk_strbuf_detach(&sb);
}

/* Say why a measured metric gates nothing, beside its numbers. */
static void not_gated(json_t *cmp, const char *metric, const char *why)
{
	json_t *m = json_object_get(json_object_get(cmp, "metrics"), metric);

	if (m)
		json_object_set_new(m, "not_gated", json_string(why));
}

/*
 * The comparison of the runs so far, with every run, into bench-<mode>.json;
 * before the last run it says how many are done.
 */
static json_t *bench_result(struct gate *g, const struct sk_bench *b,
			    const char *mode, int done, int runs)
{
	struct sk_gate_thresholds t = g->t;
	char *file = sk_xstrfmt("bench-%s.json", mode);
	json_t *cmp;

	int lrulock = t.kind == SK_BENCH_LRULOCK;

	if (!strcmp(mode, "mglru"))
		t.lock_ratio_pct = INFINITY;
	/*
	 * Time from another gate run (another load on the machine) is no
	 * baseline: a stored one gates the counts, not the throughput.
	 */
	if (g->reuse)
		t.throughput_pct = t.fastpath_pct = INFINITY;
	/* series A's counters are what the lrulock benchmark checks */
	cmp = sk_bench_compare(&b[0], &b[1], &t, lrulock ? new_counters : NULL);
	if (!strcmp(mode, "mglru") && lrulock)
		not_gated(cmp, "lru_lock_per_1000_scanned", "MGLRU does not run "
			  "the cost path: measured, no threshold");
	if (g->reuse)
		not_gated(cmp, lrulock ? "throughput_pages_per_s" :
			  "stat_fastpath_pages_per_s", "the baseline was "
			  "reused from an earlier gate run (another load on the "
			  "machine): measured, not gated");
	json_object_set_new(cmp, "mode", json_string(mode));
	json_object_set_new(cmp, "lru_gen", json_string(b[0].lru_gen ?
			    b[0].lru_gen : "unknown"));
	json_object_set_new(cmp, "thp", json_string(b[0].thp ? b[0].thp :
			    "unknown"));
	json_object_set_new(cmp, "baseline_reused", json_boolean(g->reuse));
	json_object_set_new(cmp, "throughput_gated", json_boolean(!g->reuse));
	json_object_set_new(cmp, "runs", json_pack("{s:o, s:o}",
			    "baseline", sk_bench_runs_json(&b[0]),
			    "patched", sk_bench_runs_json(&b[1])));
	if (b[0].error || b[1].error)
		json_object_set_new(cmp, "guest_error", json_string(
				    b[1].error ? b[1].error : b[0].error));
	if (done < runs) {
		json_object_set_new(cmp, "verdict", json_string("not run"));
		json_array_insert_new(json_object_get(cmp, "reasons"), 0,
			json_sprintf("not finished: %d of %d runs per side",
				     done, runs));
	}
	if (save_typed(g, file, cmp, sk_bench_results_write) < 0) {
		json_object_set_new(cmp, "verdict", json_string("not run"));
		json_array_insert_new(json_object_get(cmp, "reasons"), 0,
			json_sprintf("not run: %s", sk_error_last()));
		sk_error_clear();
	}
	free(file);
	return cmp;
}

/* One boot of the benchmark: a side's run, into its own sk_bench. */
struct bench_task {
	int side, run, err;
	char *why;
	struct sk_bench b;
};

struct bench_batch {
	struct gate *g;
	const char *mode, *img[2], *env, *name;
	const char *const *files;	/* the workloads */
	size_t nr_files;
	struct bench_task *tasks;
	struct sk_bench *b;	/* [2]: the runs so far, in task order */
	int runs, err;
	char *why;
};

static void bench_one(void *data, size_t i)
{
	struct bench_batch *bb = data;
	struct bench_task *t = &bb->tasks[i];
	struct gate *g = bb->g;
	char *dir;

	if (bb->err)
		return;		/* an earlier batch failed */
	dir = sk_xstrfmt("%s/%s/%s-%d", g->outdir, bb->name,
			 variants[t->side], t->run);
	if (g->progress)
		sk_progressf("gate: %s %s run %d/%d", bb->name,
			     variants[t->side], t->run, bb->runs);
	t->err = sk_bench_guest_files(&t->b, g->top, g->arch, bb->img[t->side],
				      bb->files, bb->nr_files, bb->env, dir,
				      g->lava);
	if (t->err)
		t->why = sk_xstrdup(sk_error_last());
	else if (t->side == 0)
		bench_stage_log(g, bb->mode, t->run, dir);
	free(dir);
}

/* After a batch: its runs in order, and what is in so far saved. */
static void bench_batch_done(void *data, size_t first, size_t count)
{
	struct bench_batch *bb = data;
	size_t i, done;

	for (i = first; i < first + count; i++) {
		struct bench_task *t = &bb->tasks[i];

		if (t->err && !bb->err) {
			bb->err = t->err;
			bb->why = sk_xstrfmt("fail: %s", t->why);
		}
		sk_bench_move(&bb->b[t->side], &t->b);
		free(t->why);
	}
	done = bb->b[0].nr < bb->b[1].nr ? bb->b[0].nr : bb->b[1].nr;
	if (!bb->err && done < (size_t)bb->runs)
		json_decref(bench_result(bb->g, bb->b, bb->mode, (int)done,
					 bb->runs));
}

/*
 * The boots: baseline and patched of each run side by side, in run order
 * (interleaved when one guest runs at a time); a reused baseline is read
 * from the store first and only the patched runs boot.
 */
static int bench_boots(struct bench_batch *bb)
{
	struct gate *g = bb->g;
	size_t n = 0;
	int r, i;

	bb->tasks = sk_xcalloc(2 * (size_t)bb->runs, sizeof(*bb->tasks));
	for (r = 1; r <= bb->runs && !bb->err; r++) {
		for (i = 0; i < 2; i++) {
			if (i == 0 && g->reuse) {
				char *dir = sk_xstrfmt("%s/%s/baseline-%d",
						       g->outdir, bb->name, r);

				if (bench_reused(g, &bb->b[0], bb->mode, r, dir) < 0) {
					bb->err = -1;
					bb->why = sk_xstrfmt("fail: %s", sk_error_last());
				}
				free(dir);
				continue;
			}
			bb->tasks[n].side = i;
			bb->tasks[n++].run = r;
		}
	}
	if (!bb->err)
		sk_batch_run(n, g->guests, bench_one, bench_batch_done, bb);
	free(bb->tasks);
	return bb->err;
}

static void stage_bench(struct gate *g, const struct sk_build_results *kbuild,
			const char *mode)
{
	struct sk_bench b[2] = { SK_BENCH_INIT, SK_BENCH_INIT };
	struct bench_batch bb = { 0 };
	char *files[2] = { NULL, NULL }, *env = NULL, *name, *reason;
	double t0 = sk_now();
	int i, shadow = g->t.kind == SK_BENCH_SHADOW;
	json_t *cmp;

	name = sk_xstrfmt("bench-%s", mode);
	bb.g = g;
	bb.mode = mode;
	bb.name = name;
	bb.b = b;
	for (i = 0; i < 2; i++)
		bb.img[i] = sk_build_results_image(kbuild, g->arch, variants[i]);
	if ((!bb.img[0] && !g->reuse) || !bb.img[1]) {
		stage(g, name, "not run", "not run: no kernel images", 0);
		goto cleanup;
	}
	files[0] = sk_bench_build_helper(g->top, g->outdir, "usemem");
	if (shadow && files[0])
		files[1] = sk_bench_build_helper(g->top, g->outdir, "wsbench");
	if (!files[0] || (shadow && !files[1])) {
		reason = sk_xstrfmt("not run: %s did not build (gcc -static)",
				    files[0] ? "wsbench" : "usemem");
		stage(g, name, "not run", reason, 0);
		free(reason);
		goto cleanup;
	}
	/* one run per boot */
	env = sk_xstrfmt("%sRUNS=1\n%s", g->bench_env,
			 strcmp(mode, "mglru") ? "" : "LRU_GEN=y\n");
	bb.files = (const char *const *)files;
	bb.nr_files = shadow ? 2 : 1;
	bb.env = env;
	bb.runs = g->runs;
	if (bench_boots(&bb)) {
		stage(g, name, "fail", bb.why, sk_now() - t0);
		goto cleanup;
	}
	cmp = bench_result(g, b, mode, g->runs, g->runs);
	reason = reasons_text(json_object_get(cmp, "reasons"));
	stage(g, name, json_string_value(json_object_get(cmp, "verdict")),
	      reason, sk_now() - t0);
	free(reason);
	json_decref(cmp);
cleanup:
	sk_bench_release(&b[0]);
	sk_bench_release(&b[1]);
	free(bb.why);
	free(files[0]);
	free(files[1]);
	free(env);
	free(name);
}

/* RUNS= of the benchmark's environment, the last one winning. */
static int env_runs(const char *env)
{
	const char *p = env, *last = NULL;

	while ((p = strstr(p, "RUNS="))) {
		if (p == env || p[-1] == '\n')
			last = p;
		p += 5;
	}
	return last ? atoi(last + 5) : 5;
}

/* The verdict of res's stages, with a reason for each that did not pass. */
static const char *verdict(struct sk_gate_results *res)
{
	const char *v = "pass", *why;
	size_t i, alloc = 0;
	char *line;

	for (i = 0; i < res->nr_stages; i++) {
		const struct sk_gate_results_stage *s = &res->stages[i];
		const char *st = s->status;

		if (!strcmp(st, "pass"))
			continue;
		why = s->reason;
		if (why && !strncmp(why, st, strlen(st)))
			line = sk_xstrfmt("%s: %s", s->name, why);
		else
			line = sk_xstrfmt("%s: %s%s%s", s->name, st,
					  why ? ": " : "", why ? why : "");
		*SK_ARRAY_PUSH(res->reasons, res->nr_reasons, alloc) = line;
		if (!strcmp(st, "fail"))
			v = "fail";
		else if (strcmp(v, "fail"))
			v = "incomplete";
	}
	return v;
}


/* --- the graph --- */

enum step_kind { STEP_OBJECTS, STEP_KERNEL, STEP_KSELFTEST, STEP_BENCH,
		 STEP_STORE };

/* the store step waits for every guest step: kselftests and benches */
#define STEP_MAX_AFTER (SK_GATE_MAX_ARCHES + 2)

struct step {
	enum step_kind kind;
	char *name;
	size_t arch;		/* index into the job's arches */
	const char *mode;	/* bench: classic, mglru */
	int after[STEP_MAX_AFTER];	/* steps first; -1 ends */
	int done;
	double seconds;
};

/* One arch's part: the first arch's is the gate itself. */
struct arch_part {
	struct gate g;
	struct sk_build_results *kbuild;	/* its kernels' build */
	char *busybox;
	int unusable;		/* its stages already said "not run" */
};

struct graph {
	struct gate *g;		/* the first arch's */
	struct arch_part parts[SK_GATE_MAX_ARCHES];
	size_t nr_parts;
	struct step *steps;
	size_t nr_steps, alloc_steps;
};

static int add_step(struct graph *job, enum step_kind kind, size_t arch,
		    const char *mode, const int *after, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static int add_step(struct graph *job, enum step_kind kind, size_t arch,
		    const char *mode, const int *after, const char *fmt, ...)
{
	struct step *s = SK_ARRAY_PUSH(job->steps, job->nr_steps,
				       job->alloc_steps);
	struct sk_strbuf name = SK_STRBUF_INIT;
	va_list ap;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->arch = arch;
	s->mode = mode;
	va_start(ap, fmt);
	sk_strbuf_vaddf(&name, fmt, ap);
	va_end(ap);
	s->name = sk_strbuf_detach(&name);
	for (i = 0; i < STEP_MAX_AFTER; i++)
		s->after[i] = -1;
	for (i = 0; after && i < STEP_MAX_AFTER && after[i] >= 0; i++)
		s->after[i] = after[i];
	return (int)(job->nr_steps - 1);
}

/*
 * The steps of this gate.  The kernels wait for each other and for the
 * objects build because they share the branch's worktree (one quilt
 * stack); the guests of an arch wait for its kernels only.
 */
static void plan(struct graph *job)
{
	int objects, kernel0, prev, k, all[STEP_MAX_AFTER + 1];
	size_t i, nall = 0;

	objects = add_step(job, STEP_OBJECTS, 0, NULL, NULL, "objects");
	kernel0 = add_step(job, STEP_KERNEL, 0, NULL, (int[]){ objects, -1 },
			   "kernel %s", job->g->arch);
	add_step(job, STEP_KSELFTEST, 0, NULL, (int[]){ kernel0, -1 },
		 "kselftest %s", job->g->arch);
	prev = kernel0;
	for (i = 1; i < job->nr_parts; i++) {
		k = add_step(job, STEP_KERNEL, i, NULL, (int[]){ prev, -1 },
			     "kernel %s", job->parts[i].g.arch);
		add_step(job, STEP_KSELFTEST, i, NULL, (int[]){ k, -1 },
			 "kselftest %s", job->parts[i].g.arch);
		prev = k;
	}
	add_step(job, STEP_BENCH, 0, "classic", (int[]){ kernel0, -1 },
		 "bench classic");
	add_step(job, STEP_BENCH, 0, "mglru", (int[]){ kernel0, -1 },
		 "bench mglru");
	for (i = 0; i < job->nr_steps; i++)
		if (job->steps[i].kind == STEP_KSELFTEST ||
		    job->steps[i].kind == STEP_BENCH)
			all[nall++] = (int)i;
	all[nall] = -1;
	add_step(job, STEP_STORE, 0, NULL, all, "store");
}

static void graph_results(struct sk_gate_results *res, const struct graph *job)
{
	size_t i, j;

	res->graph = sk_xcalloc(job->nr_steps + 1, sizeof(*res->graph));
	for (i = 0; i < job->nr_steps; i++) {
		const struct step *s = &job->steps[i];
		struct sk_gate_results_step *out = &res->graph[res->nr_graph++];

		out->step = sk_xstrdup(s->name);
		out->after = sk_xcalloc(STEP_MAX_AFTER + 1, sizeof(*out->after));
		for (j = 0; j < STEP_MAX_AFTER && s->after[j] >= 0; j++)
			out->after[out->nr_after++] = sk_xstrdup(
				job->steps[s->after[j]].name);
		out->done = s->done;
		out->seconds = s->seconds;
	}
}

/*
 * An arch after the first: its own outdir and stored baseline, and its
 * userland found (or fetched) before its kernels are built, since
 * without one they would be built for nothing.
 */
static void part_init(struct arch_part *p, struct gate *g, const char *arch)
{
	struct gate *a = &p->g;

	*a = *g;
	a->parent = g;
	a->arch = arch;
	a->outdir = sk_path_join(g->outdir, arch);
	a->cache = sk_xstrfmt("%s/results/%s/gate-baseline/%s", g->work,
			      g->branch, arch);
	a->staging = sk_xstrfmt("%s.new", a->cache);
	a->cached_tip = a->tip = a->reuse_why = a->inputs = NULL;
	a->res = g->res;
}

static void part_not_run(struct arch_part *p, const char *why)
{
	stage(&p->g, "kernel", "not run", why, 0);
	stage(&p->g, "boot", "not run", why, 0);
	stage(&p->g, "kselftest", "not run", why, 0);
	p->unusable = 1;
}

static int part_prepare(struct arch_part *p)
{
	struct gate *a = &p->g;
	char *why;

	if (skipped(a, "kselftest")) {
		part_not_run(p, "not run: --skip kselftest");
		return -1;
	}
	if (sk_mkdir_p(a->outdir, 0755) < 0 ||
	    sk_guest_userland(&p->busybox, a->work, a->arch) < 0) {
		why = sk_xstrfmt("not run: %s", sk_error_last());
		part_not_run(p, why);
		free(why);
		return -1;
	}
	a->busybox = p->busybox;
	a->inputs = inputs_key(a);
	reuse_check(a);
	if (a->progress)
		sk_progressf("gate: %s: baseline %s", a->arch,
			     a->reuse ? "reused" : a->reuse_why);
	return 0;
}

static void part_release(struct arch_part *p, int first)
{
	sk_build_results_free(p->kbuild);
	free(p->busybox);
	free(p->g.cached_tip);
	free(p->g.tip);
	free(p->g.reuse_why);
	free(p->g.inputs);
	free(p->g.staging);
	free(p->g.cache);
	if (!first)
		free((char *)p->g.outdir);
}

static void run_kernel(struct arch_part *p, size_t i)
{
	if (i > 0 && part_prepare(p) < 0)
		return;
	stage_kernel(&p->g, &p->kbuild);
}

static void run_kselftest(struct arch_part *p)
{
	if (p->unusable)
		return;
	if (skipped(&p->g, "kselftest")) {
		stage(&p->g, "boot", "not run", "not run: --skip kselftest", 0);
		stage(&p->g, "kselftest", "not run", "not run: --skip kselftest", 0);
		return;
	}
	stage_kselftest(&p->g, p->kbuild);
}

static void run_bench(struct graph *job, const char *mode)
{
	struct gate *g = job->g;
	char *why;

	if (!strcmp(mode, "mglru") &&
	    (!bench_here(g) || skipped(g, "bench") || skipped(g, "mglru")))
		return;	/* said once, by the classic step */
	if (!bench_here(g)) {
		why = sk_xstrfmt("not run: the benchmark runs on x86_64, "
				 "and this gate's first arch is %s", g->arch);
		stage(g, "bench-classic", "not run", why, 0);
		free(why);
	} else if (skipped(g, "bench")) {
		stage(g, "bench-classic", "not run", "not run: --skip bench", 0);
	} else {
		stage_bench(g, job->parts[0].kbuild, mode);
	}
}

static void run_step(struct graph *job, struct step *s)
{
	struct arch_part *p = &job->parts[s->arch];
	size_t i;

	switch (s->kind) {
	case STEP_OBJECTS:
		stage_objects(job->g);
		break;
	case STEP_KERNEL:
		run_kernel(p, s->arch);
		break;
	case STEP_KSELFTEST:
		run_kselftest(p);
		break;
	case STEP_BENCH:
		run_bench(job, s->mode);
		break;
	case STEP_STORE:
		for (i = job->nr_parts; i-- > 0;)
			if (!job->parts[i].unusable)
				store_baseline(&job->parts[i].g);
		break;
	}
}

/* In order: plan() adds a step after those it waits for. */
static void execute(struct graph *job)
{
	size_t i, j;

	for (i = 0; i < job->nr_steps; i++) {
		struct step *s = &job->steps[i];
		double t0 = sk_now();

		for (j = 0; j < STEP_MAX_AFTER && s->after[j] >= 0; j++)
			if (!job->steps[s->after[j]].done)
				sk_progressf("gate: %s before %s (a bug)", s->name,
					     job->steps[s->after[j]].name);
		run_step(job, s);
		s->seconds = sk_now() - t0;
		s->done = 1;
	}
}

/*
 * A gate is not run again when nothing it depends on has changed since
 * one that passed: the branch's tip, its queue, every input of the
 * baseline's key, the arches, the gate config, the options that change
 * what runs or how it is judged, and this stablekit.  The key is written
 * to <outdir>/gate.key after gate.json, and removed before a gate runs.
 */
static void add_queue(struct sk_strbuf *sb, const char *dir)
{
	struct sk_strvec names = { 0 };
	struct dirent *d;
	DIR *dh = opendir(dir);
	size_t i;

	while (dh && (d = readdir(dh)))
		if (d->d_name[0] != '.')
			sk_strvec_push(&names, d->d_name);
	if (dh)
		closedir(dh);
	if (names.nr > 1)
		qsort(names.items, names.nr, sizeof(*names.items), sk_str_cmp);
	for (i = 0; i < names.nr; i++) {
		char *path = sk_path_join(dir, names.items[i]);
		char *name = sk_xstrfmt("queue/%s", names.items[i]);

		if (sk_is_dir(path))
			sk_strbuf_addf(sb, "%s dir\n", name);
		else
			add_oid(sb, name, path);
		free(path);
		free(name);
	}
	sk_strvec_clear(&names);
}

static char *gate_key(const struct gate *g, const struct sk_gate_opts *o,
		      const struct sk_gate_arches *arches,
		      const char *conf_path, const char *tip)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *queue = sk_xstrfmt("%s/stable/%s", o->top, o->branch);
	size_t i;

	sk_strbuf_adds(&sb, g->inputs);
	for (i = 0; i < arches->nr; i++)
		sk_strbuf_addf(&sb, "gate-arch %s\n", arches->v[i]);
	sk_strbuf_addf(&sb, "tip %s\n", tip);
	add_queue(&sb, queue);
	add_oid(&sb, "gate.conf", conf_path);
	for (i = 0; g->skip && i < g->skip->nr; i++)
		sk_strbuf_addf(&sb, "skip %s\n", g->skip->items[i]);
	sk_strbuf_addf(&sb, "runs %d\nconfirm %d\nrunner %s\n", g->runs,
		       !g->no_confirm, o->lava ? "lava" : "local");
	add_oid(&sb, "stablekit", "/proc/self/exe");
	free(queue);
	return sk_strbuf_detach(&sb);
}

/* When the file was last written, as gate.json's reused_from says it. */
static char *mtime_text(const char *path)
{
	struct stat st;
	struct tm tm;
	char buf[32];

	if (stat(path, &st) < 0 || !gmtime_r(&st.st_mtime, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return sk_xstrdup("an unknown time");
	return sk_xstrdup(buf);
}

/*
 * The earlier gate of g->outdir, read into *prev, when it passed with
 * this key: 1.  0 (and *prev empty) when it must run again.
 */
static int earlier_gate(struct sk_gate_results *prev, const struct gate *g,
			const char *key)
{
	struct sk_strbuf old = SK_STRBUF_INIT;
	char *kpath = sk_path_join(g->outdir, "gate.key");
	char *jpath = sk_path_join(g->outdir, "gate.json");
	int same = sk_read_file(&old, kpath) >= 0 && !strcmp(old.buf, key);

	memset(prev, 0, sizeof(*prev));
	if (same && !sk_gate_results_read(prev, jpath) && prev->complete &&
	    prev->verdict && !strcmp(prev->verdict, "pass")) {
		if (!prev->reused_from)
			prev->reused_from = mtime_text(jpath);
	} else {
		sk_gate_results_release(prev);
		same = 0;
	}
	sk_error_clear();
	sk_strbuf_release(&old);
	free(kpath);
	free(jpath);
	return same;
}

/* The guest's workload; in the inputs key, so a stored baseline is its. */
static void add_workload(struct gate *g)
{
	char *e = sk_xstrfmt("%sWORKLOAD=%s\n", g->bench_env,
			     sk_bench_kind_name(g->t.kind));

	free(g->bench_env);
	g->bench_env = e;
}

int sk_gate_run(json_t **out, const struct sk_gate_opts *o)
{
	struct sk_gate_arches arches = { { NULL }, 0 };
	struct graph job = { 0 };
	struct gate *g = &job.parts[0].g;
	struct sk_gate_results res = { 0 };
	char *conf_path = NULL, *path;
	const char *conf_branch, *v;
	double t0 = sk_now();
	char tip[GIT_OID_HEXSZ + 1], *key = NULL, *key_path = NULL;
	size_t i;
	int err = 0, shipped = 0;

	*out = NULL;
	job.g = g;
	g->top = o->top;
	g->branch = o->branch;
	g->progress = o->progress;
	g->guests = sk_batch_guest_slots();
	g->skip = o->skip;
	g->jobs = o->jobs;
	g->no_reuse = o->no_reuse;
	g->no_confirm = o->no_confirm;
	g->lava = o->lava;
	g->work = sk_work_dir(o->top);
	g->src = sk_path_join(g->work, "linux");
	g->outdir = o->outdir ? sk_xstrdup(o->outdir) :
		    sk_xstrfmt("%s/results/%s/gate", g->work, o->branch);
	g->res = &res;
	/*
	 * The project's ci/gate.conf, else the shipped defaults; the shipped
	 * file's sections for a branch are the embedded default's branches,
	 * not this project's.
	 */
	conf_path = o->config ? sk_xstrdup(o->config) :
		    sk_datadir_find(o->top, "ci/gate.conf", &shipped);
	if (!sk_path_exists(conf_path)) {
		free(conf_path);
		conf_path = NULL;
	}
	conf_branch = shipped ? NULL : o->branch;
	if (o->arch)
		arches.v[arches.nr++] = o->arch;
	else
		err = sk_gate_config_arches(&arches, conf_path, conf_branch);
	if (!err)
		err = sk_mkdir_p(g->outdir, 0755);
	if (!err)
		err = sk_gate_config(&g->t, &g->bench_env, conf_path);
	if (!err)
		err = sk_gate_config_bench(&g->t.kind, conf_path, conf_branch);
	if (err)
		goto cleanup;
	add_workload(g);
	g->arch = arches.v[0];
	if (o->runs > 0) {
		char *e = sk_xstrfmt("%sRUNS=%d\n", g->bench_env, o->runs);

		free(g->bench_env);
		g->bench_env = e;
	}
	g->runs = o->runs > 0 ? o->runs : env_runs(g->bench_env);
	g->cache = sk_xstrfmt("%s/results/%s/gate-baseline/%s", g->work,
			      o->branch, g->arch);
	g->staging = sk_xstrfmt("%s.new", g->cache);
	g->inputs = inputs_key(g);
	if (!sk_build_branch_tip(tip, o->top, o->branch))
		key = gate_key(g, o, &arches, conf_path, tip);
	sk_error_clear();
	if (key && !o->no_reuse && earlier_gate(&res, g, key)) {
		if (g->progress)
			sk_progressf("gate: reused: the tip, the queue and every "
				     "input are those of the gate that passed "
				     "at %s (--no-reuse runs it again)",
				     res.reused_from);
		goto write;
	}
	key_path = sk_path_join(g->outdir, "gate.key");
	if (unlink(key_path) < 0 && errno != ENOENT) {
		err = sk_error_errno(key_path);
		goto cleanup;
	}
	reuse_check(g);
	if (g->progress)
		sk_progressf("gate: baseline %s", g->reuse ? "reused" : g->reuse_why);
	job.nr_parts = arches.nr;
	for (i = 1; i < arches.nr; i++)
		part_init(&job.parts[i], g, arches.v[i]);
	plan(&job);
	execute(&job);

	res.reasons = sk_xcalloc(1, sizeof(*res.reasons));
	res.has_reasons = 1;
	v = verdict(&res);
	res.complete = 1;
	res.branch = sk_xstrdup(o->branch);
	res.arch = sk_xstrdup(g->arch);
	res.bench = sk_xstrdup(sk_bench_kind_name(g->t.kind));
	res.verdict = sk_xstrdup(v);
	res.seconds = sk_now() - t0;
	res.has_seconds = 1;
	res.results = sk_xstrdup(g->outdir);
	res.baseline_reused = g->reuse;
	res.baseline_why_not = !g->reuse && g->reuse_why ?
			       sk_xstrdup(g->reuse_why) : NULL;
	res.baseline_tip = g->tip ? sk_xstrdup(g->tip) : NULL;
	res.baseline_store = sk_xstrdup(g->cache);
	res.arches = sk_xcalloc(arches.nr + 1, sizeof(*res.arches));
	for (i = 0; i < arches.nr; i++)
		res.arches[res.nr_arches++] = sk_xstrdup(arches.v[i]);
	res.runner = sk_xstrdup(o->lava ? "lava" : "local");
	if (conf_path) {
		res.config = sk_xstrdup(conf_path);
		res.config_from = sk_xstrdup(o->config ? "option" :
					     shipped ? "shipped" : "project");
	}
	graph_results(&res, &job);
write:
	path = sk_path_join(g->outdir, "gate.json");
	/* atomic: a reader (the report) never sees half a file */
	err = sk_gate_results_write(path, &res);
	free(path);
	/* the key after the results it describes, never before */
	if (!err && key && !res.reused_from &&
	    sk_write_file_atomic(key_path, key, strlen(key)) < 0)
		err = -1;
	if (!err)
		*out = sk_gate_results_to_json(&res);
cleanup:
	for (i = 0; i < job.nr_parts || i < 1; i++)
		part_release(&job.parts[i], i == 0);
	for (i = 0; i < job.nr_steps; i++)
		free(job.steps[i].name);
	free(job.steps);
	sk_gate_results_release(&res);
	free(g->bench_env);
	free(g->work);
	free(g->src);
	free((char *)g->outdir);
	free(conf_path);
	free(key);
	free(key_path);
	return err;
}
