#include "report/report.h"
#include "core/strbuf.h"
#include "core/utf8.h"

#include <string.h>

/*
 * The mail: LKFT's sections in LKFT's order, then what only stablekit
 * knows (the backports and the benchmark gate, in LKP's row format).
 */

#define STR sk_report_str
#define NUM sk_report_num

/* "; confirm boot: baseline pass, patched fail; <reason>" of a compared test. */
static void confirm_words(struct sk_strbuf *sb, json_t *t)
{
	json_t *c = json_object_get(t, "confirm");
	const char *reason = json_string_value(json_object_get(t, "reason"));

	if (c)
		sk_strbuf_addf(sb, "; confirm boot: baseline %s, patched %s",
			       *STR(c, "baseline") ? STR(c, "baseline") : "not run",
			       *STR(c, "patched") ? STR(c, "patched") : "not run");
	if (reason)
		sk_strbuf_addf(sb, "; %s", reason);
}

static void list_names(struct sk_strbuf *sb, json_t *arr, const char *none)
{
	json_t *t;
	size_t i;

	if (!json_array_size(arr)) {
		sk_strbuf_addf(sb, "%s\n", none);
		return;
	}
	json_array_foreach(arr, i, t) {
		if (json_is_string(t)) {
			sk_strbuf_addf(sb, "* %s\n", json_string_value(t));
			continue;
		}
		sk_strbuf_addf(sb, "* %s: %s -> %s", STR(t, "name"),
			       STR(t, "baseline"), STR(t, "patched"));
		confirm_words(sb, t);
		sk_strbuf_addch(sb, '\n');
	}
}

static const char *upper(const char *status)
{
	if (!strcmp(status, "pass"))
		return "PASS";
	if (!strcmp(status, "fail"))
		return "FAIL";
	if (!strcmp(status, "incomplete"))
		return "INCOMPLETE";
	return "NOT RUN";
}

static void headers(struct sk_strbuf *sb, json_t *r)
{
	json_t *rc = json_object_get(r, "recipients"), *v;
	json_t *tree = json_object_get(r, "tree");
	size_t i;

	json_array_foreach(json_object_get(rc, "to"), i, v)
		sk_strbuf_addf(sb, "%s%s", i ? ", " : "To: ", json_string_value(v));
	if (json_array_size(json_object_get(rc, "to")))
		sk_strbuf_addch(sb, '\n');
	json_array_foreach(json_object_get(rc, "cc"), i, v)
		sk_strbuf_addf(sb, "%s%s", i ? ", " : "Cc: ", json_string_value(v));
	if (json_array_size(json_object_get(rc, "cc")))
		sk_strbuf_addch(sb, '\n');
	sk_strbuf_addf(sb, "Subject: [stablekit] %s%s%s: %zu backport%s: %s\n\n",
		       STR(r, "branch"), *STR(tree, "describe") ? " " : "",
		       STR(tree, "describe"),
		       (size_t)json_integer_value(json_object_get(json_object_get(
			       r, "backports"), "queued")),
		       json_integer_value(json_object_get(json_object_get(r,
			       "backports"), "queued")) == 1 ? "" : "s",
		       upper(STR(r, "verdict")));
	if (*STR(json_object_get(r, "gate"), "reused_from"))
		sk_strbuf_addf(sb, "Gate: the results of the gate that passed at "
			       "%s: the tip, the queue and every input are "
			       "the same, so it was not run again.\n\n",
			       STR(json_object_get(r, "gate"), "reused_from"));
}

static const char *section_status(json_t *o)
{
	const char *s = STR(o, "status");

	return *s ? s : "not run";
}

static void build_section(struct sk_strbuf *sb, json_t *r)
{
	json_t *tree = json_object_get(r, "tree"), *bp = json_object_get(r, "backports");
	json_t *s;
	size_t i;

	sk_strbuf_adds(sb, "## Build\n");
	sk_strbuf_addf(sb, "* git branch: %s (%s)\n", STR(r, "branch"),
		       *STR(tree, "kind") ? STR(tree, "kind") : "not tracked");
	if (*STR(tree, "tip"))
		sk_strbuf_addf(sb, "* git commit: %s\n", STR(tree, "tip"));
	sk_strbuf_addf(sb, "* git describe: %s\n", *STR(tree, "describe") ?
		       STR(tree, "describe") : "not run (no build)");
	json_array_foreach(json_object_get(bp, "series"), i, s) {
		json_t *proof = json_object_get(s, "proof");

		sk_strbuf_addf(sb, "* queue: %s, series %s: quilt push: %s\n",
			       STR(s, "queue"), STR(s, "series"),
			       *STR(proof, "reason") ? STR(proof, "reason") :
			       section_status(proof));
	}
	sk_strbuf_addf(sb, "* verdict: %s\n\n", upper(STR(r, "verdict")));
}

static const char *method_words(const char *m)
{
	if (!strcmp(m, "clean"))
		return "applied cleanly";
	if (!strcmp(m, "offset"))
		return "applied with offsets";
	if (!strcmp(m, "fuzz"))
		return "applied with fuzz 1";
	if (!strcmp(m, "three-way"))
		return "three-way merge of the upstream commit";
	if (!strcmp(m, "semantic-patches"))
		return "ported with semantic patches";
	return m;
}

/* "; boot x86_64 pass, arm64 fail" */
static void arch_statuses(struct sk_strbuf *sb, json_t *arches, const char *what)
{
	json_t *a;
	size_t i;

	sk_strbuf_addf(sb, "; %s", what);
	json_array_foreach(arches, i, a)
		sk_strbuf_addf(sb, "%s %s %s", i ? "," : "", STR(a, "arch"),
			       section_status(json_object_get(a, what)));
}

static void proof_line(struct sk_strbuf *sb, json_t *r, json_t *series)
{
	json_t *builds = json_object_get(r, "builds");
	json_t *obj = json_array_get(builds, 0), *a;
	json_t *tests = json_object_get(r, "tests");
	size_t i;

	sk_strbuf_addf(sb, "  proof: quilt push %s; build", section_status(
			       json_object_get(series, "proof")));
	json_array_foreach(json_object_get(obj, "arches"), i, a)
		sk_strbuf_addf(sb, " %s %s", STR(a, "arch"), STR(a, "status"));
	if (!json_array_size(json_object_get(obj, "arches")))
		sk_strbuf_addf(sb, " %s", section_status(obj));
	if (json_array_size(json_object_get(tests, "arches")) > 1) {
		arch_statuses(sb, json_object_get(tests, "arches"), "boot");
		arch_statuses(sb, json_object_get(tests, "arches"), "kselftest");
		sk_strbuf_adds(sb, "\n");
		return;
	}
	sk_strbuf_addf(sb, "; boot %s; kselftest %s\n",
		       section_status(json_object_get(tests, "boot")),
		       section_status(tests));
}

static void backports_section(struct sk_strbuf *sb, json_t *r)
{
	json_t *bp = json_object_get(r, "backports"), *s, *p;
	size_t i, j;
	int any = 0;

	sk_strbuf_adds(sb, "## Backports\n");
	if (!json_array_size(json_object_get(bp, "series")))
		sk_strbuf_addf(sb, "%s\n", STR(bp, "reason"));
	json_array_foreach(json_object_get(bp, "series"), i, s) {
		if (json_object_get(s, "error")) {
			sk_strbuf_addf(sb, "* %s: %s\n", STR(s, "series"), STR(s, "error"));
			continue;
		}
		json_array_foreach(json_object_get(s, "patches"), j, p) {
			const char *m = STR(p, "method");

			any = 1;
			sk_strbuf_addf(sb, "* %s\n", STR(p, "subject"));
			if (*STR(p, "upstream"))
				sk_strbuf_addf(sb, "  upstream: commit %s\n", STR(p, "upstream"));
			else if (*STR(p, "link"))
				sk_strbuf_addf(sb, "  not upstream yet: %s\n", STR(p, "link"));
			if (!strcmp(m, "skipped") || !strcmp(m, "FAILED") ||
			    !strcmp(m, "blocked")) {
				sk_strbuf_addf(sb, "  %s: %s\n", m, STR(p, "reason"));
				continue;
			}
			sk_strbuf_addf(sb, "  %s\n", *STR(p, "how") ? STR(p, "how") :
				       method_words(m));
			if (json_integer_value(json_object_get(p, "dependency_of")))
				sk_strbuf_addf(sb, "  taken as a dependency of patch %d\n",
					       (int)json_integer_value(json_object_get(
						       p, "dependency_of")));
			proof_line(sb, r, s);
		}
	}
	if (!any && json_array_size(json_object_get(bp, "series")))
		sk_strbuf_adds(sb, "No patches.\n");
	sk_strbuf_addch(sb, '\n');
}

static void tests_sections(struct sk_strbuf *sb, json_t *r)
{
	json_t *t = json_object_get(r, "tests");
	json_t *c = json_object_get(t, "counts");
	const char *base = STR(json_object_get(r, "tree"), "describe");
	int ran = json_is_object(c);

	sk_strbuf_addf(sb, "## Test Regressions (compared to the baseline%s%s)\n",
		       *base ? ", " : "", base);
	if (ran)
		list_names(sb, json_object_get(t, "regressions"),
			   "No test regressions found.");
	else
		sk_strbuf_addf(sb, "%s\n", STR(t, "reason"));
	sk_strbuf_addf(sb, "\n## Test Fixes (compared to the baseline%s%s)\n",
		       *base ? ", " : "", base);
	if (ran)
		list_names(sb, json_object_get(t, "fixed"), "No test fixes found.");
	else
		sk_strbuf_adds(sb, "not run\n");
	if (json_array_size(json_object_get(t, "known_failures"))) {
		sk_strbuf_adds(sb, "\nKnown failures (fail with and without the queue):\n");
		list_names(sb, json_object_get(t, "known_failures"), "");
	}
	if (json_array_size(json_object_get(t, "flaky"))) {
		sk_strbuf_adds(sb, "\nFlaky (failed, then passed on retry or in a confirm boot):\n");
		list_names(sb, json_object_get(t, "flaky"), "");
	}
	sk_strbuf_adds(sb, "\n## Test result summary\n");
	if (ran)
		sk_strbuf_addf(sb, "total: %.0f, pass: %.0f, fail: %.0f, skip: %.0f, xfail: %.0f, timeout: %.0f\n\n",
			       NUM(c, "pass") + NUM(c, "fail") + NUM(c, "skip") +
			       NUM(c, "xfail") + NUM(c, "timeout") + NUM(c, "flaky"),
			       NUM(c, "pass"), NUM(c, "fail"), NUM(c, "skip"),
			       NUM(c, "xfail"), NUM(c, "timeout"));
	else
		sk_strbuf_addf(sb, "%s\n\n", STR(t, "reason"));
}

/*
 * A spread relative to a mean near zero says nothing ("0.00 ±200%"):
 * then the absolute standard deviation is shown.
 */
static void spread(struct sk_strbuf *sb, json_t *v)
{
	if (NUM(v, "stddev_pct") <= 100)
		sk_strbuf_addf(sb, " ±%3.0f%%", NUM(v, "stddev_pct"));
	else
		sk_strbuf_addf(sb, " ±%-4.2g", NUM(v, "stddev"));
}

/* LKP's row: base ±stddev %change patched ±stddev metric. */
static void metric_row(struct sk_strbuf *sb, json_t *m)
{
	json_t *b = json_object_get(m, "baseline"), *p = json_object_get(m, "patched");
	const char *v = STR(m, "verdict");

	if (!b || !p) {
		sk_strbuf_addf(sb, "%58s  %s: %s\n", "", STR(m, "name"),
			       STR(m, "status"));
		return;
	}
	sk_strbuf_addf(sb, "%14.2f", NUM(b, "median"));
	spread(sb, b);
	sk_strbuf_addf(sb, "  %+9.1f%%  %14.2f", NUM(m, "change_pct"), NUM(p, "median"));
	spread(sb, p);
	sk_strbuf_addf(sb, "  %s", STR(m, "name"));
	if (json_is_number(json_object_get(m, "threshold_pct")) &&
	    (!strcmp(v, "pass") || !strcmp(v, "fail")))
		sk_strbuf_addf(sb, "  (p=%.3f%s, %s, threshold %.0f%%)\n", NUM(m, "p"),
			       json_is_true(json_object_get(m, "significant")) ?
			       " significant" : "", v, NUM(m, "threshold_pct"));
	else if (json_is_false(json_object_get(m, "gated")))
		sk_strbuf_addf(sb, "  (p=%.3f, not gated: %s)\n", NUM(m, "p"),
			       STR(m, "not_gated"));
	else
		sk_strbuf_addch(sb, '\n');
}

static void metric_sections(struct sk_strbuf *sb, json_t *r)
{
	json_t *benches = json_object_get(r, "benchmarks"), *bn, *m, *why;
	size_t i, j;
	int regress = 0, fixes = 0, measured = 0;

	sk_strbuf_adds(sb, "## Metric Regressions (compared to the baseline)\n");
	json_array_foreach(benches, i, bn)
		measured += json_array_size(json_object_get(bn, "metrics")) > 0;
	if (!measured) {
		sk_strbuf_adds(sb, "not run: no benchmark results\n\n"
			       "## Metric Fixes (compared to the baseline)\nnot run\n\n");
		return;
	}
	json_array_foreach(benches, i, bn)
		json_array_foreach(json_object_get(bn, "metrics"), j, m)
			if (!strcmp(STR(m, "verdict"), "fail")) {
				sk_strbuf_addf(sb, "* %s %s: %+.1f%% (p=%.3f)\n",
					       STR(bn, "mode"), STR(m, "name"),
					       NUM(m, "change_pct"), NUM(m, "p"));
				regress = 1;
			}
	if (!regress)
		sk_strbuf_adds(sb, "No metric regressions found.\n");
	sk_strbuf_adds(sb, "\n## Metric Fixes (compared to the baseline)\n");
	json_array_foreach(benches, i, bn)
		json_array_foreach(json_object_get(bn, "reasons"), j, why)
			if (strstr(json_string_value(why), " improved ")) {
				sk_strbuf_addf(sb, "* %s %s\n", STR(bn, "mode"),
					       json_string_value(why));
				fixes = 1;
			}
	if (!fixes)
		sk_strbuf_adds(sb, "No metric fixes found.\n");
	sk_strbuf_addch(sb, '\n');
}

/*
 * A new warning as build prints it: a plain string as it is, an object
 * (what the build writes) as "file:line:column: severity: message".
 */
static void new_warning(struct sk_strbuf *sb, json_t *w)
{
	if (json_is_string(w)) {
		sk_strbuf_addf(sb, "  new warning: %s\n", json_string_value(w));
		return;
	}
	sk_strbuf_addf(sb, "  new warning: %s:%.0f:%.0f: %s: %s", STR(w, "file"),
		       NUM(w, "line"), NUM(w, "column"),
		       *STR(w, "severity") ? STR(w, "severity") : "warning",
		       STR(w, "message"));
	if (*STR(w, "function"))
		sk_strbuf_addf(sb, " (in %s)", STR(w, "function"));
	if (json_is_true(json_object_get(w, "allowed")))
		sk_strbuf_adds(sb, " (allowed by ci/build-allowlist)");
	sk_strbuf_addch(sb, '\n');
}

static void build_summary(struct sk_strbuf *sb, json_t *r)
{
	json_t *b, *a, *w;
	size_t i, j, k;

	sk_strbuf_adds(sb, "## Build Summary\n");
	json_array_foreach(json_object_get(r, "builds"), i, b) {
		if (!json_array_size(json_object_get(b, "arches"))) {
			sk_strbuf_addf(sb, "* %s: %s\n", STR(b, "mode"), STR(b, "reason"));
			continue;
		}
		json_array_foreach(json_object_get(b, "arches"), j, a) {
			json_t *p = json_object_get(a, "patched");

			sk_strbuf_addf(sb, "* %s (%s, %s): %s, %.0f warnings, %.0f errors%s%s\n",
				       STR(a, "arch"), STR(b, "mode"), STR(a, "toolchain"),
				       STR(a, "status"), NUM(p, "warnings"),
				       NUM(p, "errors"), *STR(a, "reason") ? ": " : "",
				       STR(a, "reason"));
			json_array_foreach(json_object_get(a, "new_warnings"), k, w)
				new_warning(sb, w);
		}
	}
	sk_strbuf_addch(sb, '\n');
}

static void bench_section(struct sk_strbuf *sb, json_t *r)
{
	json_t *bn, *m, *c;
	const char *name;
	size_t i, j;

	json_array_foreach(json_object_get(r, "benchmarks"), i, bn) {
		sk_strbuf_addf(sb, "## Benchmark: %s LRU%s%s: %s\n", STR(bn, "mode"),
			       *STR(bn, "lru_gen") ? ", lru_gen " : "",
			       STR(bn, "lru_gen"), section_status(bn));
		if (!json_array_size(json_object_get(bn, "metrics"))) {
			sk_strbuf_addf(sb, "%s\n\n", STR(bn, "reason"));
			continue;
		}
		if (json_is_true(json_object_get(bn, "baseline_reused")))
			sk_strbuf_adds(sb, "baseline: reused from an earlier gate run of "
				       "the same tip and inputs (counts compared, time "
				       "not gated)\n");
		sk_strbuf_addf(sb, "%14s %5s  %10s  %14s %5s  %s\n", "base", "±stddev",
			       "%change", "patched", "±stddev", "metric");
		json_array_foreach(json_object_get(bn, "metrics"), j, m)
			metric_row(sb, m);
		json_object_foreach(json_object_get(bn, "counters"), name, c)
			sk_strbuf_addf(sb, "counter %s: /proc/vmstat %s (+%.0f), memory.stat %s (+%.0f)\n",
				       name, json_is_true(json_object_get(json_object_get(
					       c, "vmstat"), "present")) ? "present" : "MISSING",
				       NUM(json_object_get(c, "vmstat"), "delta"),
				       json_is_true(json_object_get(json_object_get(
					       c, "memstat"), "present")) ? "present" : "MISSING",
				       NUM(json_object_get(c, "memstat"), "delta"));
		sk_strbuf_addch(sb, '\n');
	}
}

static void not_run_section(struct sk_strbuf *sb, json_t *r)
{
	json_t *why;
	size_t i;

	if (!json_array_size(json_object_get(r, "reasons")))
		return;
	sk_strbuf_adds(sb, "## Not passed or not run\n");
	json_array_foreach(json_object_get(r, "reasons"), i, why)
		sk_strbuf_addf(sb, "* %s\n", json_string_value(why));
	sk_strbuf_addch(sb, '\n');
}

/*
 * The text is mail: its headers and lines come from results files, series
 * and branch names, so every string of the JSON is made one line first
 * (core/utf8.h's rule) and no value forges a header or a line of its own.
 * A copy: report.json keeps what the files said.
 */
static void one_line(json_t *v)
{
	const char *key;
	json_t *e;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, key, e) {
			if (json_is_string(e)) {
				json_t *s = json_stringn(json_string_value(e),
							 json_string_length(e));

				sk_utf8_one_line((char *)json_string_value(s),
						 json_string_length(s));
				json_object_set_new(v, key, s);
			} else {
				one_line(e);
			}
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e) {
			if (json_is_string(e)) {
				json_t *s = json_stringn(json_string_value(e),
							 json_string_length(e));

				sk_utf8_one_line((char *)json_string_value(s),
						 json_string_length(s));
				json_array_set_new(v, i, s);
			} else {
				one_line(e);
			}
		}
	}
}

static json_t *one_line_copy(json_t *r)
{
	json_t *c = json_deep_copy(r);

	one_line(c);
	return c;
}

static char *report_text(json_t *r)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	headers(&sb, r);
	build_section(&sb, r);
	backports_section(&sb, r);
	tests_sections(&sb, r);
	metric_sections(&sb, r);
	build_summary(&sb, r);
	bench_section(&sb, r);
	not_run_section(&sb, r);
	if (json_is_string(json_object_get(r, "tested_by")))
		sk_strbuf_addf(&sb, "%s\n", STR(r, "tested_by"));
	else
		sk_strbuf_addf(&sb, "No Tested-by: the verdict is %s.\n",
			       STR(r, "verdict"));
	sk_strbuf_addf(&sb, "\n--\nstablekit report, results in %s\n", STR(r, "results"));
	return sk_strbuf_detach(&sb);
}

char *sk_report_text(json_t *r)
{
	json_t *c = one_line_copy(r);
	char *text = report_text(c);

	json_decref(c);
	return text;
}

/* The status matrix: one row per patch, one column per branch. */
static void matrix(struct sk_strbuf *sb, json_t *status)
{
	json_t *branches = json_object_get(status, "branches"), *b, *p;
	size_t i, j;

	sk_strbuf_addf(sb, "%-58s", "patch");
	json_array_foreach(branches, j, b)
		sk_strbuf_addf(sb, " %-14s", STR(b, "name"));
	sk_strbuf_addch(sb, '\n');
	json_array_foreach(json_object_get(status, "patches"), i, p) {
		sk_strbuf_addf(sb, "%-58.58s", STR(p, "id"));
		json_array_foreach(branches, j, b)
			sk_strbuf_addf(sb, " %-14s", STR(json_object_get(
				json_object_get(p, "branches"), STR(b, "name")),
				"state"));
		sk_strbuf_addch(sb, '\n');
	}
}

static void status_matrix(struct sk_strbuf *sb, json_t *s)
{
	if (json_is_object(json_object_get(s, "status")))
		matrix(sb, json_object_get(s, "status"));
	else
		sk_strbuf_addf(sb, "%s\n", STR(s, "status_reason"));
}

/* "linux-7.1.y", or "linux-7.1.y (model)" for a row of an included project. */
static const char *branch_label(json_t *b, struct sk_strbuf *buf)
{
	sk_strbuf_reset(buf);
	sk_strbuf_adds(buf, STR(b, "branch"));
	if (*STR(b, "project"))
		sk_strbuf_addf(buf, " (%s)", STR(b, "project"));
	return buf->buf;
}

static char *summary_text(json_t *s)
{
	struct sk_strbuf label = SK_STRBUF_INIT;
	struct sk_strbuf sb = SK_STRBUF_INIT;
	json_t *b, *why;
	size_t i;

	sk_strbuf_adds(&sb, "## Status\n");
	status_matrix(&sb, s);
	json_array_foreach(json_object_get(s, "included"), i, b) {
		sk_strbuf_addf(&sb, "\n## Status in %s\n", STR(b, "results"));
		status_matrix(&sb, b);
	}
	if (*STR(s, "generated"))
		sk_strbuf_addf(&sb, "\nMade %s\n", STR(s, "generated"));
	sk_strbuf_addf(&sb, "\n## Branches\n%-24s %-12.12s %-11s %-10s %-8s %-8s %s\n",
		       "branch", "tip", "verdict", "backports", "build", "gate", "tested");
	json_array_foreach(json_object_get(s, "branches"), i, b)
		sk_strbuf_addf(&sb, "%-24s %-12.12s %-11s %-10s %-8s %-8s %s\n",
			       branch_label(b, &label), *STR(b, "tip") ? STR(b, "tip") : "-",
			       upper(STR(b, "verdict")),
			       *STR(b, "backports") ? STR(b, "backports") : "not run",
			       *STR(b, "build") ? STR(b, "build") : "not run",
			       *STR(b, "gate") ? STR(b, "gate") : "not run",
			       json_is_string(json_object_get(b, "tested_by")) ?
			       "Tested-by" : "-");
	json_array_foreach(json_object_get(s, "branches"), i, b)
		if (*STR(b, "gate_reused_from"))
			sk_strbuf_addf(&sb, "%s: gate reused: the one that passed "
				       "at %s (the same tip, queue and inputs)\n",
				       branch_label(b, &label),
				       STR(b, "gate_reused_from"));
	/* the first reason; the branch's report has them all */
	json_array_foreach(json_object_get(s, "branches"), i, b) {
		size_t n = json_array_size(json_object_get(b, "reasons"));

		why = json_array_get(json_object_get(b, "reasons"), 0);
		if (!why)
			continue;
		sk_strbuf_addf(&sb, "%s: %s", branch_label(b, &label),
			       json_string_value(why));
		if (n > 1)
			sk_strbuf_addf(&sb, " (and %zu more in its report)", n - 1);
		sk_strbuf_addch(&sb, '\n');
	}
	sk_strbuf_release(&label);
	return sk_strbuf_detach(&sb);
}

char *sk_report_summary_text(json_t *s)
{
	json_t *c = one_line_copy(s);
	char *text = summary_text(c);

	json_decref(c);
	return text;
}
