#include "gate/test.h"
#include "gate/kselftest.h"
#include "gate/kselftest-results.h"
#include "core/results.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <stdlib.h>
#include <string.h>

const char *sk_test_status(const struct sk_boot_result *boot, json_t *results,
			   size_t not_built, char **why)
{
	json_t *o;
	size_t i, failed = 0, n, real;

	*why = NULL;
	if (boot->status != SK_BOOT_OK) {
		*why = sk_xstrfmt("boot: %s", boot->reason ? boot->reason :
				  sk_boot_status_name(boot->status));
		return "fail";
	}
	if (!results)
		return "pass";	/* --boot-only: the boot is the test */
	json_array_foreach(results, i, o)
		failed += sk_kselftest_failed(json_string_value(json_object_get(o,
							  "status")));
	if (failed) {
		*why = sk_xstrfmt("%zu kselftest%s failed", failed,
				  failed == 1 ? "" : "s");
		return "fail";
	}
	if (not_built) {
		*why = sk_xstrfmt("%zu kselftest binaries did not build", not_built);
		return "fail";
	}
	n = sk_kselftest_ran(results, &real);
	if (!n) {
		*why = sk_xstrdup("not run: no kselftest result in the console");
		return "not run";
	}
	if (!real) {
		*why = sk_xstrfmt("not run: every one of %zu kselftests skipped", n);
		return "not run";
	}
	return "pass";
}

static json_t *count_json(json_t *results)
{
	json_t *c = json_object(), *o;
	size_t i;

	json_array_foreach(results, i, o) {
		const char *st = json_string_value(json_object_get(o, "status"));
		json_int_t n = json_integer_value(json_object_get(c, st));

		json_object_set_new(c, st, json_integer(n + 1));
	}
	return c;
}

static int build_suites(json_t *res, struct sk_strvec *bins,
			const struct sk_test_opts *o)
{
	static const char *const dflt[] = { "cgroup", NULL };
	const char *const *s = o->suites ? o->suites : dflt;
	struct sk_strvec skipped = { 0 };
	char *outdir = sk_path_join(o->guest.workdir, "kselftest");
	int err = 0;

	for (; *s && !err; s++) {
		const struct sk_kselftest_suite *suite = sk_kselftest_suite(*s);

		if (!suite) {
			err = sk_error_set(SK_EINVALID, "unknown suite '%s'", *s);
			break;
		}
		char *sdir = sk_path_join(outdir, suite->dir);

		err = sk_kselftest_build(bins, &skipped, suite, o->src,
					 o->guest.arch, sdir);
		free(sdir);
	}
	json_object_set_new(res, "not_built", sk_strvec_json(&skipped));
	sk_strvec_clear(&skipped);
	free(outdir);
	return err;
}

/* "cgroup/test_kmem" of ".../kselftest/cgroup/test_kmem". */
static char *bin_name(const char *bin)
{
	char *suite = sk_kselftest_suite_of(bin, "cgroup");
	char *name = sk_xstrfmt("%s/%s", suite, sk_path_basename(bin));

	free(suite);
	return name;
}

/* Keep the binaries named in only ("suite/binary"); one unknown is an error. */
static int keep_only(struct sk_strvec *bins, const char *const *only)
{
	struct sk_strvec kept = { 0 };
	const char *const *w;
	size_t i;
	int err = 0;

	for (w = only; *w && !err; w++) {
		size_t found = 0;

		for (i = 0; i < bins->nr; i++) {
			char *name = bin_name(bins->items[i]);

			found += !strcmp(name, *w);
			free(name);
		}
		if (!found)
			err = sk_error_set(SK_EINVALID, "no kselftest binary '%s' "
					   "built (names are <suite>/<binary>)",
					   *w);
	}
	for (i = 0; i < bins->nr; i++) {
		char *name = bin_name(bins->items[i]);

		for (w = only; *w && strcmp(name, *w); w++)
			;
		free(name);
		if (*w && !err)
			*SK_ARRAY_PUSH(kept.items, kept.nr, kept.alloc) =
				bins->items[i];
		else
			free((char *)bins->items[i]);
	}
	free(bins->items);
	*bins = kept;
	return err;
}

/* The binaries not built ("suite/binary: why") that only asked for. */
static void only_not_built(json_t *not_built, const char *const *only)
{
	const char *const *w;
	size_t i = 0;

	while (i < json_array_size(not_built)) {
		const char *nb = json_string_value(json_array_get(not_built, i));

		for (w = only; nb && *w; w++)
			if (!strncmp(nb, *w, strlen(*w)) && nb[strlen(*w)] == ':')
				break;
		if (nb && *w)
			i++;
		else
			json_array_remove(not_built, i);
	}
}

/* The job of --boot-only: the guest reaching it is the test. */
static const char boot_only_job[] =
	"#!/bin/sh\n# stablekit test --boot-only: reaching this is the test\nexit 0\n";

int sk_test_run(json_t **out, const struct sk_test_opts *o)
{
	struct sk_guest_opts g = o->guest;
	struct sk_boot_result boot;
	struct sk_strvec bins = { 0 };
	struct sk_strbuf log = SK_STRBUF_INIT;
	json_t *res = json_object(), *ks = json_object(), *results = NULL;
	char *job = NULL, *logpath = NULL, *path = NULL, *why = NULL;
	const char *status = "not run";
	int err;

	json_object_set_new(res, "arch", json_string(g.arch ? g.arch : "x86_64"));
	json_object_set_new(res, "kernel", g.kernel ? json_string(g.kernel) :
			    json_null());
	json_object_set_new(res, "kselftest", ks);
	g.job = boot_only_job;
	if (o->src && g.kernel) {
		err = build_suites(ks, &bins, o);
		if (err < 0) {
			json_object_set_new(res, "reason", json_sprintf(
				"not run: kselftest build: %s", sk_error_last()));
			goto done;
		}
		if (o->only && keep_only(&bins, o->only) < 0) {
			json_object_set_new(res, "reason", json_sprintf(
				"not run: %s", sk_error_last()));
			goto done;
		}
		if (o->only)
			only_not_built(json_object_get(ks, "not_built"), o->only);
		if (!bins.nr) {
			/* nothing to run is no pass */
			json_object_set_new(res, "reason", json_string(
				"not run: no kselftest binary built (see "
				"kselftest.not_built)"));
			goto done;
		}
		job = sk_kselftest_job(o->suites ? o->suites[0] : "cgroup",
				       &bins, o->test_timeout_s ?
				       o->test_timeout_s : 300, o->retries);
		g.job = job;
		g.files = bins.items;
		g.nr_files = bins.nr;
	}
	err = sk_guest_run(&boot, &g);
	json_object_set_new(res, "boot", sk_boot_result_json(&boot));
	if (err < 0) {
		json_object_set_new(res, "reason", json_sprintf("not run: %s",
				    boot.reason ? boot.reason : sk_error_last()));
		sk_boot_result_release(&boot);
		goto done;
	}
	logpath = sk_path_join(g.workdir, "console.log");
	json_object_set_new(res, "log", json_string(logpath));
	if (job) {
		struct sk_ktap k;

		sk_read_file(&log, logpath);
		sk_ktap_parse(&k, log.buf, log.len);
		results = sk_kselftest_results(&k);
		if (k.nr_errors)
			json_object_set_new(ks, "parse_errors",
					    sk_ktap_errors_json(&k));
		json_object_set_new(ks, "counts", count_json(results));
		json_object_set_new(ks, "results", results);
		if (k.nr_totals)
			json_object_set_new(ks, "totals", json_pack(
				"{s:i, s:i, s:i, s:i, s:i, s:i}",
				"pass", k.totals.pass, "fail", k.totals.fail,
				"xfail", k.totals.xfail, "xpass", k.totals.xpass,
				"skip", k.totals.skip, "error", k.totals.error));
		sk_ktap_release(&k);
	}
	/* from "not run": a pass needs an ok boot and, with tests, results */
	status = sk_test_status(&boot, results, json_array_size(
				json_object_get(ks, "not_built")), &why);
	if (why)
		json_object_set_new(res, "reason", json_string(why));
	sk_boot_result_release(&boot);
	err = 0;
done:
	json_object_set_new(res, "status", json_string(status));
	path = sk_path_join(g.workdir, "results.json");
	if (sk_kselftest_run_write(path, res) < 0 && !err)
		err = SK_ERROR;
	*out = res;
	sk_strvec_clear(&bins);
	sk_strbuf_release(&log);
	free(job);
	free(why);
	free(logpath);
	free(path);
	return err;
}

