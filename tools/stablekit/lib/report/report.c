#include "report/report.h"
#include "build/build-results.h"
#include "gate/bench-results.h"
#include "gate/gate-results.h"
#include "gate/kselftest-results.h"
#include "port/port-results.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/json.h"
#include "mail/maintainers.h"
#include "core/results.h"
#include "mail/series.h"
#include "track/stale.h"
#include "track/status-results.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/*
 * Each section is { status: "pass" | "fail" | "not run", reason, ... }.
 * The verdict is "pass" only when every section ran and passed.
 */
struct report {
	const struct sk_report_opts *o;
	char *dir;		/* results/<branch> */
	json_t *out, *reasons;
	json_t *input_errors;	/* results files that are not JSON */
	int failed, incomplete;
};

/*
 * Why a results reader (build-results, gate-results, port-results, ...) failed,
 * with ret its code: a file that exists but does not parse, or holds a
 * key of the wrong type, is an input error.  Caller frees.
 */
static char *input(struct report *r, int ret)
{
	if (ret == SK_EINVALID)
		json_array_append_new(r->input_errors,
				      json_string(sk_error_last()));
	return sk_xstrdup(sk_error_last());
}

const char *sk_report_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

double sk_report_num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static int is(json_t *o, const char *key, const char *value)
{
	return !strcmp(sk_report_str(o, key), value);
}

/* Record a section's outcome in the verdict and its reasons. */
static void account(struct report *r, const char *section, json_t *o)
{
	const char *st = sk_report_str(o, "status");
	const char *why = sk_report_str(o, "reason");

	if (!strcmp(st, "pass"))
		return;
	if (!strcmp(st, "fail"))
		r->failed = 1;
	else
		r->incomplete = 1;
	json_array_append_new(r->reasons, json_sprintf("%s: %s", section,
			      *why ? why : st));
}

static json_t *section(const char *status, const char *reason)
{
	return json_pack("{s:s, s:s?}", "status", status, "reason", reason);
}

static json_t *not_run(const char *why)
{
	return section("not run", why);
}

/* ---- tracking: this branch's column of the status matrix ---- */

static json_t *tracking(struct report *r)
{
	const struct sk_status_results *st = r->o->status;
	const struct sk_status_results_branch *br;
	json_t *patches, *o;
	long bi;
	size_t i;

	if (!st)
		return not_run(r->o->status_why ? r->o->status_why :
			       "not run: no status");
	bi = sk_status_results_branch_index(st, r->o->branch);
	if (bi < 0)
		return not_run("not run: the branch is not in stable/branches.conf");
	br = &st->branches[bi];
	if (br->problem)
		return not_run(br->problem);
	patches = json_array();
	for (i = 0; i < st->nr_patches; i++) {
		const struct sk_status_results_patch *p = &st->patches[i];
		const struct sk_status_results_cell *c = &p->cells[bi];

		json_array_append_new(patches, json_pack("{s:o, s:o, s:o, s:o}",
			"id", sk_json_string(p->id),
			"subject", sk_json_string(p->subject),
			"state", sk_json_string(c->state),
			"evidence", c->state ? sk_strvec_array_json(c->evidence,
					c->nr_evidence) : json_null()));
	}
	o = section("pass", NULL);
	json_object_set_new(o, "patches", patches);
	return o;
}

/* ---- backports: results/<branch>/port/<series>.json ---- */

static char *lore_link(const char *top, const char *slug, int nr)
{
	struct sk_series *s = NULL;
	const struct sk_revision *rev;
	char *link = NULL;
	size_t i;

	if (sk_series_load(&s, top, slug)) {
		sk_error_clear();
		return NULL;
	}
	rev = sk_series_latest(s);
	for (i = 0; rev && i < rev->nr_patches; i++)
		if (rev->patches[i].nr == nr && rev->patches[i].message_id)
			link = sk_xstrfmt("https://lore.kernel.org/r/%s",
					  rev->patches[i].message_id);
	sk_series_free(s);
	return link;
}

static json_t *port_patch(struct report *r, const char *slug,
			  const struct sk_port_results_patch *p)
{
	json_t *o = sk_port_results_patch_json(p);
	char *link = lore_link(r->o->top, slug, (int)p->nr);

	json_object_set_new(o, "link", link ? json_string(link) : json_null());
	free(link);
	return o;
}

/* The .json files of a directory, sorted; NULL when it does not exist. */
static char **json_files(const char *dir, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t alloc = 0;

	*nr = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 5 && e->d_name[0] != '.' &&
		    !strcmp(e->d_name + n - 5, ".json"))
			*SK_ARRAY_PUSH(v, *nr, alloc) = sk_xstrdup(e->d_name);
	}
	closedir(d);
	if (*nr)
		qsort(v, *nr, sizeof(*v), sk_str_cmp);
	return v;
}

static void port_series(struct report *r, json_t *arr, const char *dir,
			const char *file, int *queued, int *failed)
{
	char *path = sk_path_join(dir, file);
	struct sk_port_results in;
	const char *slug;
	json_t *s;
	size_t i;
	int ret = sk_port_results_read(&in, path);

	free(path);
	if (ret) {
		char *why = input(r, ret);

		json_array_append_new(arr, json_pack("{s:s, s:s}", "series", file,
				      "error", why));
		*failed = 1;
		free(why);
		sk_error_clear();
		return;
	}
	slug = in.series ? in.series : "";
	s = json_pack("{s:s, s:s?, s:s?, s:o*, s:o*, s:o, s:[]}", "series", slug,
		      "queue", in.queue, "target", in.target,
		      "proof", sk_port_results_proof_json(&in),
		      /* the revision the queue came from; a newer one is stale.h's */
		      "revision", in.revision ? json_integer(in.revision) : NULL,
		      "latest_revision", sk_stale_latest_json(r->o->top, slug), "patches");
	for (i = 0; i < in.nr_patches; i++) {
		json_array_append_new(json_object_get(s, "patches"),
				      port_patch(r, slug, &in.patches[i]));
		*queued += in.patches[i].file != NULL;
	}
	if ((in.proof.status && !strcmp(in.proof.status, "fail")) || in.failed)
		*failed = 1;
	json_array_append_new(arr, s);
	sk_port_results_release(&in);
}

static json_t *backports(struct report *r)
{
	char *dir = sk_path_join(r->dir, "port");
	size_t nr, i;
	char **files = json_files(dir, &nr);
	json_t *arr = json_array(), *o;
	int queued = 0, failed = 0;

	for (i = 0; i < nr; i++)
		port_series(r, arr, dir, files[i], &queued, &failed);
	if (!nr) {
		char *why = sk_xstrfmt("not run: no %s/<series>.json (stablekit port)", dir);

		o = not_run(why);
		free(why);
	} else if (failed) {
		o = section("fail", "a patch could not be ported or the queue did not push");
	} else {
		o = section("pass", NULL);
	}
	json_object_set_new(o, "queued", json_integer(queued));
	json_object_set_new(o, "series", arr);
	sk_strvec_free_array(files, nr);
	free(dir);
	return o;
}

/* ---- builds: results/<branch>/build/<mode>/build.json ---- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *variant(const struct sk_build_results_variant *v)
{
	json_t *o = json_object();

	json_object_set_new(o, "status", str_or_null(v->status));
	json_object_set_new(o, "warnings", v->has_warnings ?
			    json_integer(v->warnings) : json_null());
	json_object_set_new(o, "errors", v->has_errors ?
			    json_integer(v->errors) : json_null());
	json_object_set_new(o, "duration", v->has_duration ?
			    json_real(v->duration) : json_null());
	json_object_set_new(o, "note", str_or_null(v->note));
	return o;
}

static json_t *new_warnings(const struct sk_build_results_arch *a)
{
	json_t *arr;
	size_t i;

	if (!a->has_new_warnings)
		return json_null();
	arr = json_array();
	for (i = 0; i < a->nr_new_warnings; i++)
		json_array_append_new(arr, sk_build_results_warning_json(
				      &a->new_warnings[i]));
	return arr;
}

static int status_is(const char *status, const char *value)
{
	return !strcmp(status ? status : "", value);
}

static json_t *build_arch(const struct sk_build_results_arch *a)
{
	const char *st = a->patched.status ? a->patched.status : "";
	const char *why = a->gate_why;

	if (a->gate_failed)
		st = "fail";
	else if (!strcmp(st, "pass") && status_is(a->baseline.status, "skipped"))
		why = "no baseline built, warnings not compared";
	else if (!strcmp(st, "pass") && !status_is(a->baseline.status, "pass"))
		why = "the baseline did not build";
	else if (!strcmp(st, "skipped") || !*st)
		st = "not run";
	return json_pack("{s:o, s:o, s:s, s:s?, s:o, s:o, s:o}",
			 "arch", str_or_null(a->arch),
			 "toolchain", str_or_null(a->toolchain),
			 "status", st, "reason", why,
			 "baseline", variant(&a->baseline),
			 "patched", variant(&a->patched),
			 "new_warnings", new_warnings(a));
}

static json_t *build_mode(struct report *r, const char *mode)
{
	char *path = sk_xstrfmt("%s/build/%s/build.json", r->dir, mode);
	struct sk_build_results in;
	json_t *o, *arches;
	size_t i;
	int fail = 0, ran = 0, ret;

	ret = sk_build_results_read(&in, path);
	if (ret) {
		char *why = input(r, ret);
		char *w = sk_xstrfmt("%s (stablekit build --mode %s)", why, mode);

		o = not_run(w);
		free(w);
		free(why);
		goto out;
	}
	if (in.not_run) {
		o = not_run(in.not_run);
		goto out;
	}
	if (!in.buildable) {
		char *w = sk_xstrfmt("not run: not buildable: %s",
				     in.why ? in.why : "");

		o = not_run(w);
		free(w);
		goto out;
	}
	arches = json_array();
	for (i = 0; i < in.nr_arches; i++) {
		json_t *ar = build_arch(&in.arches[i]);

		fail |= is(ar, "status", "fail");
		ran += is(ar, "status", "pass") || is(ar, "status", "fail");
		json_array_append_new(arches, ar);
	}
	/* nothing queued is nothing tested: never a fail, never a pass */
	if (status_is(in.queue_status, "none"))
		o = section("not run", "not run: nothing queued (every patch "
			    "present or not eligible); the baseline alone was "
			    "built");
	else if (!status_is(in.queue_status, "applied"))
		o = section("fail", "the queue does not apply");
	else if (fail)
		o = section("fail", "new warnings or errors with the queue");
	else if (!ran)
		o = section("not run", "not run: no arch was built");
	else
		o = section(status_is(in.gate, "pass") ? "pass" : "fail", NULL);
	json_object_set_new(o, "arches", arches);
	json_object_set_new(o, "describe", str_or_null(in.describe));
	json_object_set_new(o, "tip", str_or_null(in.tip));
	json_object_set_new(o, "kconfig", str_or_null(in.kconfig));
	json_object_set_new(o, "fragments",
			    sk_strvec_array_json(in.fragments, in.nr_fragments));
out:
	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "results", json_string(path));
	sk_build_results_release(&in);
	free(path);
	return o;
}

/* ---- the gate: results/<branch>/gate/ ---- */

static json_t *gate_section(const struct sk_gate_results *gate,
			    const char *gate_why)
{
	json_t *o;

	if (!gate) {
		char *w = sk_xstrfmt("%s (stablekit gate)", gate_why);

		o = not_run(w);
		free(w);
		return o;
	}
	o = section(status_is(gate->verdict, "pass") ? "pass" :
		    status_is(gate->verdict, "fail") ? "fail" : "not run",
		    status_is(gate->verdict, "pass") || !gate->nr_reasons ?
		    NULL : gate->reasons[0]);
	json_object_set_new(o, "verdict", str_or_null(gate->verdict));
	if (gate->has_reasons)
		json_object_set_new(o, "reasons", sk_strvec_array_json(
				    gate->reasons, gate->nr_reasons));
	if (gate->has_stages)
		json_object_set_new(o, "stages", sk_gate_results_stages_json(gate));
	if (gate->has_seconds)
		json_object_set_new(o, "seconds", json_real(gate->seconds));
	json_object_set_new(o, "arch", str_or_null(gate->arch));
	if (gate->reused_from)
		json_object_set_new(o, "reused_from",
				    json_string(gate->reused_from));
	return o;
}

/* A stage that did not pass decides the section's status. */
static json_t *from_stage(const struct sk_gate_results *gate, const char *name,
			  const char *gate_why)
{
	const struct sk_gate_results_stage *s =
		gate ? sk_gate_results_stage(gate, name) : NULL;
	char *w;
	json_t *o;

	if (s)
		return section(status_is(s->status, "pass") ? "pass" :
			       status_is(s->status, "fail") ? "fail" : "not run",
			       s->reason);
	/* a gate.json without the stage: the gate stopped before it */
	w = gate ? sk_xstrfmt("interrupted/not run: the gate recorded no %s "
			      "stage (it stopped before it, or skipped it)",
			      name) :
		   sk_xstrfmt("%s (stablekit gate)", gate_why);
	o = not_run(w);
	free(w);
	return o;
}

/*
 * A side's results.json and the comparison; a file there that does not
 * read is an input error, one not there is nothing to say.
 */
static int load_run(struct report *r, struct sk_kselftest_run *run,
		    const char *dir, const char *file)
{
	char *path = sk_path_join(dir, file);
	int ret = sk_kselftest_run_read(run, path);

	if (ret)
		free(input(r, ret));
	sk_error_clear();
	free(path);
	return !ret;
}

static int load_compare(struct report *r, struct sk_kselftest_compare *cmp,
			const char *dir)
{
	char *path = sk_path_join(dir, "kselftest-compare.json");
	int ret = sk_kselftest_compare_read(cmp, path);

	if (ret)
		free(input(r, ret));
	sk_error_clear();
	free(path);
	return !ret;
}

/*
 * One arch's boot and kselftests: the gate's first arch has the stages
 * "boot" and "kselftest" and its files in gate/, another arch
 * "boot-<arch>", "kselftest-<arch>" and gate/<arch>/.
 */
static json_t *arch_tests(struct report *r, const struct sk_gate_results *gate,
			  const char *gate_why, const char *arch, int first)
{
	char *gdir = sk_path_join(r->dir, "gate");
	char *dir = first ? sk_xstrdup(gdir) : sk_path_join(gdir, arch);
	char *boot = first ? sk_xstrdup("boot") : sk_xstrfmt("boot-%s", arch);
	char *ks = first ? sk_xstrdup("kselftest") :
		   sk_xstrfmt("kselftest-%s", arch);
	json_t *o = json_pack("{s:s}", "arch", arch), *counts;
	struct sk_kselftest_compare cmp;
	struct sk_kselftest_run res;

	json_object_set_new(o, "boot", from_stage(gate, boot, gate_why));
	json_object_set_new(o, "kselftest", from_stage(gate, ks, gate_why));
	if (gate && load_run(r, &res, dir, "kselftest-patched/results.json")) {
		if ((counts = sk_kselftest_counts_json(&res)))
			json_object_set_new(o, "counts", counts);
		sk_kselftest_run_release(&res);
	}
	if (gate && load_compare(r, &cmp, dir)) {
		json_object_set_new(o, "regressions",
				    sk_kselftest_changes_json(&cmp.regressions));
		sk_kselftest_compare_release(&cmp);
	}
	free(ks);
	free(boot);
	free(dir);
	free(gdir);
	return o;
}

static json_t *arches_tests(struct report *r, const struct sk_gate_results *gate,
			    const char *gate_why)
{
	json_t *arr = json_array();
	size_t i;

	if (!gate)
		return arr;
	/* a gate.json from before the arches were listed has one */
	if (!gate->nr_arches && gate->arch)
		json_array_append_new(arr, arch_tests(r, gate, gate_why,
						      gate->arch, 1));
	for (i = 0; i < gate->nr_arches; i++)
		json_array_append_new(arr, arch_tests(r, gate, gate_why,
						      gate->arches[i], i == 0));
	return arr;
}

/* The first arch is the tests section itself; the others by name. */
static void account_arches(struct report *r, json_t *arches)
{
	json_t *a;
	size_t i;

	json_array_foreach(arches, i, a) {
		char *boot, *ks;

		if (!i)
			continue;
		boot = sk_xstrfmt("boot %s", sk_report_str(a, "arch"));
		ks = sk_xstrfmt("kselftest %s", sk_report_str(a, "arch"));
		account(r, boot, json_object_get(a, "boot"));
		account(r, ks, json_object_get(a, "kselftest"));
		free(ks);
		free(boot);
	}
}

static void compare_lists(json_t *o, const struct sk_kselftest_compare *cmp)
{
	json_object_set_new(o, "regressions",
			    sk_kselftest_changes_json(&cmp->regressions));
	json_object_set_new(o, "fixed", sk_kselftest_changes_json(&cmp->fixed));
	json_object_set_new(o, "known_failures",
			    sk_kselftest_changes_json(&cmp->known_failures));
	json_object_set_new(o, "flaky", sk_kselftest_changes_json(&cmp->flaky));
	json_object_set_new(o, "new_tests", sk_kselftest_new_tests_json(cmp));
}

static json_t *tests(struct report *r, const struct sk_gate_results *gate,
		     const char *gate_why)
{
	char *dir = sk_path_join(r->dir, "gate");
	json_t *o = from_stage(gate, "kselftest", gate_why), *v;
	struct sk_kselftest_compare cmp;
	struct sk_kselftest_run res;

	if (load_compare(r, &cmp, dir)) {
		compare_lists(o, &cmp);
		sk_kselftest_compare_release(&cmp);
	}
	if (load_run(r, &res, dir, "kselftest-patched/results.json")) {
		if ((v = sk_kselftest_counts_json(&res)))
			json_object_set_new(o, "counts", v);
		if ((v = sk_kselftest_entries_json(&res)))
			json_object_set_new(o, "results", v);
		sk_kselftest_run_release(&res);
	}
	if (load_run(r, &res, dir, "kselftest-baseline/results.json")) {
		if ((v = sk_kselftest_counts_json(&res)))
			json_object_set_new(o, "baseline_counts", v);
		sk_kselftest_run_release(&res);
	}
	json_object_set_new(o, "boot", from_stage(gate, "boot", gate_why));
	json_object_set_new(o, "arches", arches_tests(r, gate, gate_why));
	free(dir);
	return o;
}

static const char *const gating_metrics[] = { "lru_lock_per_1000_scanned",
	"lru_lock_acquisitions", "pgscan", "throughput_pages_per_s",
	"lru_lock_contentions", NULL };

static int is_gating_metric(const char *name)
{
	const char *const *g;

	for (g = gating_metrics; *g; g++)
		if (!strcmp(*g, name))
			return 1;
	return 0;
}

static void metric_row(json_t *rows, const struct sk_bench_results_metric *m)
{
	json_t *row = sk_bench_results_metric_json(m);

	json_object_set_new(row, "name", json_string(m->name));
	json_array_append_new(rows, row);
}

/* Metrics as an array in a fixed order: the gating ones first. */
static json_t *metric_rows(const struct sk_bench_results *in)
{
	json_t *rows = json_array();
	const char *const *g;
	size_t i;

	for (g = gating_metrics; *g; g++)
		for (i = 0; i < in->nr_metrics; i++)
			if (!strcmp(in->metrics[i].name, *g))
				metric_row(rows, &in->metrics[i]);
	for (i = 0; i < in->nr_metrics; i++)
		if (!is_gating_metric(in->metrics[i].name))
			metric_row(rows, &in->metrics[i]);
	return rows;
}

static json_t *benchmark(struct report *r, const struct sk_gate_results *gate,
			 const char *gate_why, const char *mode)
{
	char *dir = sk_path_join(r->dir, "gate"), *stage_name, *file, *path;
	struct sk_bench_results in;
	json_t *o, *v;
	int ret;

	stage_name = sk_xstrfmt("bench-%s", mode);
	file = sk_xstrfmt("%s.json", stage_name);
	path = sk_path_join(dir, file);
	o = from_stage(gate, stage_name, gate_why);
	json_object_set_new(o, "mode", json_string(mode));
	ret = sk_bench_results_read(&in, path);
	if (ret) {
		free(input(r, ret));
		sk_error_clear();
	} else {
		json_object_set_new(o, "lru_gen", in.lru_gen ?
				    json_string(in.lru_gen) : json_null());
		if ((v = sk_bench_results_reasons_json(&in)))
			json_object_set_new(o, "reasons", v);
		json_object_set_new(o, "metrics", metric_rows(&in));
		if ((v = sk_bench_results_counters_json(&in)))
			json_object_set_new(o, "counters", v);
		if ((v = sk_bench_results_runs_json(&in)))
			json_object_set_new(o, "runs", v);
		if (in.has_baseline_reused)
			json_object_set_new(o, "baseline_reused",
					    json_boolean(in.baseline_reused));
		json_object_set_new(o, "results", json_string(file));
		sk_bench_results_release(&in);
	}
	free(path);
	free(file);
	free(stage_name);
	free(dir);
	return o;
}

static json_t *benchmarks(struct report *r, const struct sk_gate_results *gate,
			  const char *gate_why)
{
	json_t *arr = json_array();

	json_array_append_new(arr, benchmark(r, gate, gate_why, "classic"));
	if (!gate || sk_gate_results_stage(gate, "bench-mglru"))
		json_array_append_new(arr, benchmark(r, gate, gate_why, "mglru"));
	return arr;
}

/* ---- recipients, the way get_maintainer.pl and the stable team do it ---- */

static void add_trailers(struct sk_recipients *rc, const struct sk_series_patch *p)
{
	static const char *const keys[] = { "Signed-off-by", "Acked-by",
		"Reviewed-by", "Tested-by", "Cc", NULL };
	const char *const *k;
	size_t i;

	for (i = 0; i < p->nr_trailers; i++)
		for (k = keys; *k; k++)
			if (!strcasecmp(p->trailers[i].key, *k)) {
				char *v = sk_xstrdup(p->trailers[i].value);
				char *hash = strstr(v, " #");

				if (hash)
					*hash = '\0';
				if (strchr(v, '@'))
					sk_recipients_add(rc, 0, v);
				free(v);
			}
}

static void series_recipients(struct report *r, struct sk_recipients *rc,
			      const struct sk_maintainers *m, json_t *series)
{
	struct sk_series *s = NULL;
	const struct sk_revision *rev;
	json_t *p;
	size_t i, j;
	int ret;

	/* a series gone is no recipient; one that does not load is said */
	ret = sk_series_load(&s, r->o->top, sk_report_str(series, "series"));
	if (ret) {
		char *why = sk_xstrfmt("recipients: %s", sk_error_last());

		if (ret != SK_ENOTFOUND)
			json_array_append_new(r->input_errors,
					      sk_json_string(why));
		free(why);
		sk_error_clear();
		return;
	}
	rev = sk_series_latest(s);
	json_array_foreach(json_object_get(series, "patches"), i, p) {
		if (!json_is_string(json_object_get(p, "file")) &&
		    !is(p, "method", "FAILED"))
			continue;
		for (j = 0; rev && j < rev->nr_patches; j++) {
			const struct sk_series_patch *sp = &rev->patches[j];
			struct sk_recipients mr;
			size_t k;

			if (sp->nr != json_integer_value(json_object_get(p, "nr")))
				continue;
			sk_recipients_add(rc, 1, sp->author);
			if (m) {
				sk_maintainers_recipients(&mr, m,
					(const char *const *)sp->files, sp->nr_files);
				for (k = 0; k < mr.nr_to; k++)
					sk_recipients_add(rc, 1, mr.to[k]);
				for (k = 0; k < mr.nr_cc; k++)
					sk_recipients_add(rc, 0, mr.cc[k]);
				sk_recipients_release(&mr);
			}
			add_trailers(rc, sp);
		}
	}
	sk_series_free(s);
}

static json_t *recipients(struct report *r, json_t *ports)
{
	struct sk_maintainers m;
	struct sk_recipients rc = { 0 };
	const struct sk_status_results_branch *st =
		sk_status_results_branch(r->o->status, r->o->branch);
	json_t *s, *o;
	int have_m = 0;
	size_t i;

	if (r->o->maintainers) {
		if (sk_maintainers_parse(&m, r->o->maintainers_name,
					 r->o->maintainers))
			sk_error_clear();
		else
			have_m = 1;
	}
	json_array_foreach(json_object_get(ports, "series"), i, s)
		series_recipients(r, &rc, have_m ? &m : NULL, s);
	if (st && st->kind && !strcmp(st->kind, "stable"))
		sk_recipients_add(&rc, 0, "stable@vger.kernel.org");
	o = json_pack("{s:o, s:o, s:s?}",
		      "to", json_array(), "cc", json_array(), "maintainers",
		      have_m ? r->o->maintainers_name :
		      "none: the branch has no MAINTAINERS");
	for (i = 0; i < rc.nr_to; i++)
		json_array_append_new(json_object_get(o, "to"), json_string(rc.to[i]));
	/* a mail with nobody in To: (nothing queued, so no author) goes to its Cc: */
	for (i = 0; i < rc.nr_cc; i++)
		json_array_append_new(json_object_get(o, rc.nr_to ? "cc" : "to"),
				      json_string(rc.cc[i]));
	sk_recipients_release(&rc);
	if (have_m)
		sk_maintainers_release(&m);
	return o;
}

/* ---- the whole ---- */

static json_t *tree(struct report *r, json_t *builds)
{
	const struct sk_status_results_branch *st =
		sk_status_results_branch(r->o->status, r->o->branch);
	json_t *b;
	size_t i;
	const char *describe = NULL;

	json_array_foreach(builds, i, b)
		if (!describe && json_is_string(json_object_get(b, "describe")))
			describe = sk_report_str(b, "describe");
	return json_pack("{s:s?, s:s?, s:s?, s:s?, s:s?}",
			 "kind", st ? st->kind : NULL,
			 "version", st ? st->version : NULL,
			 "base", st ? st->base : NULL,
			 "tip", st ? st->tip : NULL,
			 "describe", describe);
}

static void tested_by(struct report *r)
{
	const char *who = r->o->tester;

	if (!r->failed && !r->incomplete && who && *who)
		json_object_set_new(r->out, "tested_by",
				    json_sprintf("Tested-by: %s", who));
	else
		json_object_set_new(r->out, "tested_by", json_null());
}

json_t *sk_report_branch(const struct sk_report_opts *o)
{
	struct report r = { 0 };
	struct sk_gate_results gate_in;
	const struct sk_gate_results *gate = NULL;
	char *gate_path, *gate_why = NULL;
	json_t *builds, *ports, *t, *b;
	size_t i;
	int ret;

	r.o = o;
	r.dir = sk_path_join(o->results, o->branch);
	r.reasons = json_array();
	gate_path = sk_xstrfmt("%s/gate/gate.json", r.dir);
	r.input_errors = json_array();
	ret = sk_gate_results_read(&gate_in, gate_path);
	if (!ret)
		gate = &gate_in;
	else
		gate_why = input(&r, ret);
	r.out = json_pack("{s:s, s:s, s:s}", "schema", SK_REPORT_SCHEMA,
			  "branch", o->branch, "results", r.dir);

	t = tracking(&r);
	account(&r, "tracking", t);
	json_object_set_new(r.out, "tracking", t);
	ports = backports(&r);
	account(&r, "backports", ports);
	json_object_set_new(r.out, "backports", ports);
	builds = json_array();
	json_array_append_new(builds, build_mode(&r, "objects"));
	json_array_append_new(builds, build_mode(&r, "kernel"));
	/* the gate builds its own kernels: only objects must have run */
	account(&r, "build objects", json_array_get(builds, 0));
	if (is(json_array_get(builds, 1), "status", "fail"))
		account(&r, "build kernel", json_array_get(builds, 1));
	json_object_set_new(r.out, "builds", builds);
	json_object_set_new(r.out, "tree", tree(&r, builds));
	t = tests(&r, gate, gate_why);
	account(&r, "boot", json_object_get(t, "boot"));
	account(&r, "kselftest", t);
	account_arches(&r, json_object_get(t, "arches"));
	json_object_set_new(r.out, "tests", t);
	b = benchmarks(&r, gate, gate_why);
	json_array_foreach(b, i, t) {
		char *name = sk_xstrfmt("benchmark %s", sk_report_str(t, "mode"));

		account(&r, name, t);
		free(name);
	}
	json_object_set_new(r.out, "benchmarks", b);
	t = gate_section(gate, gate_why);
	account(&r, "gate", t);
	json_object_set_new(r.out, "gate", t);
	json_object_set_new(r.out, "recipients", recipients(&r, ports));
	json_object_set_new(r.out, "verdict", json_string(r.failed ? "fail" :
			    r.incomplete ? "incomplete" : "pass"));
	json_object_set_new(r.out, "reasons", r.reasons);
	json_object_set_new(r.out, "input_errors", r.input_errors);
	tested_by(&r);
	sk_gate_results_release(&gate_in);
	free(gate_why);
	free(gate_path);
	free(r.dir);
	return r.out;
}

json_t *sk_report_summary(const struct sk_status_results *status,
			  const char *status_why, json_t *const *branches,
			  size_t nr)
{
	json_t *rows = json_array();
	size_t i;

	for (i = 0; i < nr; i++) {
		json_t *b = branches[i], *builds = json_object_get(b, "builds");

		json_t *tree = json_object_get(b, "tree"), *row, *from;

		row = json_pack(
			"{s:O, s:O, s:O, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?, s:O?}",
			"branch", json_object_get(b, "branch"),
			"kind", json_object_get(tree, "kind"),
			"tip", json_object_get(tree, "tip"),
			"describe", json_object_get(tree, "describe"),
			"verdict", json_object_get(b, "verdict"),
			"reasons", json_object_get(b, "reasons"),
			"backports", json_object_get(json_object_get(b,
					"backports"), "status"),
			"queued", json_object_get(json_object_get(b,
					"backports"), "queued"),
			"build", json_object_get(json_array_get(builds, 0),
					"status"),
			"gate", json_object_get(json_object_get(b, "gate"),
					"status"),
			"tested_by", json_object_get(b, "tested_by"));
		from = json_object_get(json_object_get(b, "gate"),
				       "reused_from");
		if (from)
			json_object_set(row, "gate_reused_from", from);
		json_array_append_new(rows, row);
	}
	return json_pack("{s:s, s:o?, s:s?, s:o}", "schema",
			 SK_REPORT_SUMMARY_SCHEMA, "status",
			 status ? sk_status_results_to_json(status) : NULL,
			 "status_reason", status ? NULL : status_why,
			 "branches", rows);
}
