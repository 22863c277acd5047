#include "report/report.h"
#include "core/strbuf.h"

#include <math.h>
#include <string.h>

/*
 * One self-contained page: inline CSS, inline SVG, no script and nothing
 * fetched, so it opens from a results directory or a mail attachment.
 */

#define STR sk_report_str
#define NUM sk_report_num

static void esc(struct sk_strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': sk_strbuf_adds(sb, "&lt;"); break;
		case '>': sk_strbuf_adds(sb, "&gt;"); break;
		case '&': sk_strbuf_adds(sb, "&amp;"); break;
		case '"': sk_strbuf_adds(sb, "&quot;"); break;
		default: sk_strbuf_addch(sb, *s);
		}
	}
}

static void cell(struct sk_strbuf *sb, const char *s)
{
	sk_strbuf_adds(sb, "<td>");
	esc(sb, s);
	sk_strbuf_adds(sb, "</td>");
}

/* A status word, coloured by its class; "" is shown as "not run". */
static void badge(struct sk_strbuf *sb, const char *status)
{
	const char *s = status && *status ? status : "not run";
	const char *cls = !strcmp(s, "pass") ? "pass" : !strcmp(s, "fail") ||
			  !strcmp(s, "FAILED") ? "fail" : !strcmp(s, "not run") ||
			  !strcmp(s, "incomplete") ? "notrun" : "info";

	sk_strbuf_addf(sb, "<span class=\"%s\">", cls);
	esc(sb, s);
	sk_strbuf_adds(sb, "</span>");
}

static void page_start(struct sk_strbuf *sb, const char *title)
{
	sk_strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
	esc(sb, title);
	sk_strbuf_adds(sb, "</title>\n<style>\n"
		"body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}\n"
		"table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
		"td,th{border:1px solid #bbb;padding:.2em .6em;text-align:left;vertical-align:top}\n"
		"th{background:#eee}\n"
		".pass{color:#fff;background:#2a7d2a;padding:0 .3em}\n"
		".fail{color:#fff;background:#b22;padding:0 .3em}\n"
		".notrun{color:#222;background:#ddd;padding:0 .3em}\n"
		".info{color:#123;background:#def;padding:0 .3em}\n"
		".num{text-align:right;font-family:monospace}\n"
		"pre{background:#f6f6f6;padding:.5em;white-space:pre-wrap}\n"
		"</style></head><body>\n<h1>");
	esc(sb, title);
	sk_strbuf_adds(sb, "</h1>\n");
}

static void overview(struct sk_strbuf *sb, json_t *r)
{
	json_t *tree = json_object_get(r, "tree"), *why;
	size_t i;

	sk_strbuf_adds(sb, "<p id=\"verdict\">Verdict: ");
	badge(sb, STR(r, "verdict"));
	sk_strbuf_adds(sb, "</p>\n<table><tr><th>branch</th>");
	cell(sb, STR(r, "branch"));
	sk_strbuf_adds(sb, "</tr><tr><th>kind</th>");
	cell(sb, STR(tree, "kind"));
	sk_strbuf_adds(sb, "</tr><tr><th>git describe</th>");
	cell(sb, *STR(tree, "describe") ? STR(tree, "describe") : "not run (no build)");
	sk_strbuf_adds(sb, "</tr><tr><th>git commit</th>");
	cell(sb, STR(tree, "tip"));
	sk_strbuf_adds(sb, "</tr></table>\n");
	if (json_array_size(json_object_get(r, "reasons"))) {
		sk_strbuf_adds(sb, "<h2>Not passed or not run</h2>\n<ul id=\"reasons\">\n");
		json_array_foreach(json_object_get(r, "reasons"), i, why) {
			sk_strbuf_adds(sb, "<li>");
			esc(sb, json_string_value(why));
			sk_strbuf_adds(sb, "</li>\n");
		}
		sk_strbuf_adds(sb, "</ul>\n");
	}
	sk_strbuf_adds(sb, "<p id=\"tested-by\">");
	if (json_is_string(json_object_get(r, "tested_by")))
		esc(sb, STR(r, "tested_by"));
	else
		sk_strbuf_addf(sb, "No Tested-by: the verdict is %s.", STR(r, "verdict"));
	sk_strbuf_adds(sb, "</p>\n");
}

static void backports(struct sk_strbuf *sb, json_t *r)
{
	json_t *bp = json_object_get(r, "backports"), *s, *p;
	size_t i, j;

	sk_strbuf_adds(sb, "<h2>Backports</h2>\n");
	if (!json_array_size(json_object_get(bp, "series"))) {
		sk_strbuf_adds(sb, "<p>");
		esc(sb, STR(bp, "reason"));
		sk_strbuf_adds(sb, "</p>\n");
		return;
	}
	sk_strbuf_adds(sb, "<table id=\"backports\"><tr><th>patch</th><th>upstream</th>"
		       "<th>method</th><th>how</th><th>quilt push</th></tr>\n");
	json_array_foreach(json_object_get(bp, "series"), i, s)
		json_array_foreach(json_object_get(s, "patches"), j, p) {
			sk_strbuf_adds(sb, "<tr>");
			cell(sb, STR(p, "subject"));
			if (*STR(p, "upstream")) {
				cell(sb, STR(p, "upstream"));
			} else if (*STR(p, "link")) {
				sk_strbuf_adds(sb, "<td><a href=\"");
				esc(sb, STR(p, "link"));
				sk_strbuf_adds(sb, "\">lore</a></td>");
			} else {
				cell(sb, "");
			}
			sk_strbuf_adds(sb, "<td>");
			badge(sb, STR(p, "method"));
			sk_strbuf_adds(sb, "</td>");
			cell(sb, *STR(p, "how") ? STR(p, "how") : STR(p, "reason"));
			sk_strbuf_adds(sb, "<td>");
			if (json_is_string(json_object_get(p, "file")))
				badge(sb, STR(json_object_get(s, "proof"), "status"));
			else
				sk_strbuf_adds(sb, "<span class=\"notrun\">not queued</span>");
			sk_strbuf_adds(sb, "</td></tr>\n");
		}
	sk_strbuf_adds(sb, "</table>\n");
}

static void builds(struct sk_strbuf *sb, json_t *r)
{
	json_t *b, *a;
	size_t i, j;

	sk_strbuf_adds(sb, "<h2>Builds</h2>\n<table id=\"builds\"><tr><th>mode</th><th>arch</th>"
		       "<th>toolchain</th><th>status</th><th>warnings</th><th>errors</th>"
		       "<th>new warnings</th></tr>\n");
	json_array_foreach(json_object_get(r, "builds"), i, b) {
		if (!json_array_size(json_object_get(b, "arches"))) {
			sk_strbuf_adds(sb, "<tr>");
			cell(sb, STR(b, "mode"));
			sk_strbuf_adds(sb, "<td colspan=\"6\">");
			badge(sb, STR(b, "status"));
			sk_strbuf_adds(sb, " ");
			esc(sb, STR(b, "reason"));
			sk_strbuf_adds(sb, "</td></tr>\n");
			continue;
		}
		json_array_foreach(json_object_get(b, "arches"), j, a) {
			json_t *p = json_object_get(a, "patched");

			sk_strbuf_adds(sb, "<tr>");
			cell(sb, STR(b, "mode"));
			cell(sb, STR(a, "arch"));
			cell(sb, STR(a, "toolchain"));
			sk_strbuf_adds(sb, "<td>");
			badge(sb, STR(a, "status"));
			sk_strbuf_addf(sb, "</td><td class=\"num\">%.0f</td><td class=\"num\">%.0f</td>"
				       "<td class=\"num\">%zu</td></tr>\n",
				       NUM(p, "warnings"), NUM(p, "errors"),
				       json_array_size(json_object_get(a, "new_warnings")));
		}
	}
	sk_strbuf_adds(sb, "</table>\n");
}

static void test_list(struct sk_strbuf *sb, json_t *t, const char *key,
		      const char *title)
{
	json_t *x;
	size_t i;

	sk_strbuf_addf(sb, "<h3>%s</h3>\n", title);
	if (!json_array_size(json_object_get(t, key))) {
		sk_strbuf_adds(sb, "<p>none</p>\n");
		return;
	}
	sk_strbuf_addf(sb, "<ul id=\"%s\">\n", key);
	json_array_foreach(json_object_get(t, key), i, x) {
		sk_strbuf_adds(sb, "<li>");
		esc(sb, json_is_string(x) ? json_string_value(x) : STR(x, "name"));
		if (!json_is_string(x)) {
			json_t *c = json_object_get(x, "confirm");

			sk_strbuf_adds(sb, ": ");
			esc(sb, STR(x, "baseline"));
			sk_strbuf_adds(sb, " &rarr; ");
			esc(sb, STR(x, "patched"));
			if (c) {
				sk_strbuf_adds(sb, "; confirm boot: baseline ");
				esc(sb, *STR(c, "baseline") ? STR(c, "baseline") :
				    "not run");
				sk_strbuf_adds(sb, ", patched ");
				esc(sb, *STR(c, "patched") ? STR(c, "patched") :
				    "not run");
			}
			if (*STR(x, "reason")) {
				sk_strbuf_adds(sb, "; ");
				esc(sb, STR(x, "reason"));
			}
		}
		sk_strbuf_adds(sb, "</li>\n");
	}
	sk_strbuf_adds(sb, "</ul>\n");
}

static void arch_row(struct sk_strbuf *sb, json_t *arches, const char *what)
{
	json_t *a;
	size_t i;

	sk_strbuf_addf(sb, "<tr><th>%s</th>", what);
	json_array_foreach(arches, i, a) {
		sk_strbuf_adds(sb, "<td>");
		badge(sb, STR(json_object_get(a, what), "status"));
		sk_strbuf_adds(sb, "</td>");
	}
	sk_strbuf_adds(sb, "</tr>\n");
}

/* A column per arch the gate booted: boot, kselftest, counts, regressions. */
static void arch_table(struct sk_strbuf *sb, json_t *arches)
{
	json_t *a;
	size_t i;

	if (!json_array_size(arches))
		return;
	sk_strbuf_adds(sb, "<table id=\"arches\">\n<tr><th></th>");
	json_array_foreach(arches, i, a) {
		sk_strbuf_adds(sb, "<th>");
		esc(sb, STR(a, "arch"));
		sk_strbuf_adds(sb, "</th>");
	}
	sk_strbuf_adds(sb, "</tr>\n");
	arch_row(sb, arches, "boot");
	arch_row(sb, arches, "kselftest");
	sk_strbuf_adds(sb, "<tr><th>pass / fail / skip</th>");
	json_array_foreach(arches, i, a) {
		json_t *c = json_object_get(a, "counts");

		if (json_is_object(c))
			sk_strbuf_addf(sb, "<td>%.0f / %.0f / %.0f</td>",
				       NUM(c, "pass"), NUM(c, "fail"),
				       NUM(c, "skip"));
		else
			sk_strbuf_adds(sb, "<td>&ndash;</td>");
	}
	sk_strbuf_adds(sb, "</tr>\n<tr><th>regressions</th>");
	/* no counts: nothing ran, so no number, not "0" */
	json_array_foreach(arches, i, a)
		if (json_is_object(json_object_get(a, "counts")))
			sk_strbuf_addf(sb, "<td>%zu</td>", json_array_size(
				       json_object_get(a, "regressions")));
		else
			sk_strbuf_adds(sb, "<td>&ndash;</td>");
	sk_strbuf_adds(sb, "</tr>\n</table>\n");
}

static void tests(struct sk_strbuf *sb, json_t *r)
{
	json_t *t = json_object_get(r, "tests"), *c = json_object_get(t, "counts");

	sk_strbuf_adds(sb, "<h2>Boot and kselftests</h2>\n<p>boot: ");
	badge(sb, STR(json_object_get(t, "boot"), "status"));
	sk_strbuf_adds(sb, " kselftest: ");
	badge(sb, STR(t, "status"));
	sk_strbuf_adds(sb, " ");
	esc(sb, STR(t, "reason"));
	sk_strbuf_adds(sb, "</p>\n");
	arch_table(sb, json_object_get(t, "arches"));
	if (!json_is_object(c))
		return;
	sk_strbuf_addf(sb, "<p id=\"test-summary\">pass %.0f, fail %.0f, skip %.0f, xfail %.0f, timeout %.0f</p>\n",
		       NUM(c, "pass"), NUM(c, "fail"), NUM(c, "skip"),
		       NUM(c, "xfail"), NUM(c, "timeout"));
	test_list(sb, t, "regressions", "Regressions (fail only with the queue)");
	test_list(sb, t, "fixed", "Fixes");
	test_list(sb, t, "known_failures", "Known failures (fail in both)");
	test_list(sb, t, "flaky",
		  "Flaky (failed, then passed on retry or in a confirm boot)");
}

/*
 * A strip chart of one metric: each run a dot, the median a bar, baseline
 * above patched on a shared axis.  Without per-run values the summary's
 * min..max range and median are drawn instead.
 */
static void runs_of(json_t *bn, const char *variant, const char *metric,
		    double *v, size_t *n, size_t cap)
{
	json_t *run;
	size_t i;

	/* a run records its throughput as pages_per_s */
	if (!strcmp(metric, "throughput_pages_per_s"))
		metric = "pages_per_s";
	*n = 0;
	json_array_foreach(json_object_get(json_object_get(bn, "runs"), variant), i, run)
		if (*n < cap && json_is_number(json_object_get(run, metric)))
			v[(*n)++] = NUM(run, metric);
}

static const char *unit_of(const char *metric)
{
	if (!strcmp(metric, "lru_lock_per_1000_scanned"))
		return "lru_lock acquisitions per 1000 pages scanned";
	if (!strcmp(metric, "lru_lock_acquisitions") ||
	    !strcmp(metric, "lru_lock_contentions"))
		return "per run";
	if (!strcmp(metric, "throughput_pages_per_s"))
		return "pages/s";
	if (!strcmp(metric, "pgscan"))
		return "pages scanned per run";
	return "events per run";
}

/*
 * The axis spans at least the threshold (or 5 %) either side of the
 * baseline's median, so that run-to-run noise of a fraction of a percent
 * does not fill the width and read as a change.
 */
static void chart_axis(json_t *m, double v[2][64], const size_t n[2],
		       double *lo, double *hi)
{
	static const char *const variants[] = { "baseline", "patched" };
	double mid = NUM(json_object_get(m, "baseline"), "median");
	double pct = json_is_number(json_object_get(m, "threshold_pct")) ?
		     NUM(m, "threshold_pct") : 5;
	double half = fabs(mid) * (pct > 5 ? pct : 5) / 100 * 1.2;
	size_t i, k;

	if (!(half > 0))
		half = 1;
	*lo = mid - half;
	*hi = mid + half;
	for (k = 0; k < 2; k++) {
		json_t *s = json_object_get(m, variants[k]);

		for (i = 0; i < n[k]; i++) {
			*lo = v[k][i] < *lo ? v[k][i] : *lo;
			*hi = v[k][i] > *hi ? v[k][i] : *hi;
		}
		*lo = NUM(s, "min") < *lo ? NUM(s, "min") : *lo;
		*hi = NUM(s, "max") > *hi ? NUM(s, "max") : *hi;
	}
}

static void chart(struct sk_strbuf *sb, json_t *bn, json_t *m)
{
	static const char *const variants[] = { "baseline", "patched" };
	double v[2][64], lo, hi, mid;
	size_t n[2], i, k;
	const char *name = STR(m, "name");

	for (k = 0; k < 2; k++)
		runs_of(bn, variants[k], name, v[k], &n[k], 64);
	chart_axis(m, v, n, &lo, &hi);
	mid = NUM(json_object_get(m, "baseline"), "median");
	sk_strbuf_adds(sb, "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"130\" role=\"img\" class=\"chart\" aria-label=\"");
	esc(sb, name);
	sk_strbuf_adds(sb, "\">\n");
#define X(val) (120.0 + 480.0 * ((val) - lo) / (hi - lo))
	if (json_is_number(json_object_get(m, "threshold_pct"))) {
		double pct = NUM(m, "threshold_pct") / 100;
		/* the side on which the metric gets worse */
		double at = mid * (!strcmp(name, "throughput_pages_per_s") ?
				   1 - pct : 1 + pct);

		if (at >= lo && at <= hi)
			sk_strbuf_addf(sb, "<line class=\"threshold\" x1=\"%.1f\" x2=\"%.1f\" y1=\"10\" y2=\"90\" stroke=\"#b22\" stroke-dasharray=\"4 3\"/>"
				       "<text x=\"%.1f\" y=\"9\" font-size=\"10\" text-anchor=\"middle\" fill=\"#b22\">threshold</text>\n",
				       X(at), X(at), X(at));
	}
	for (k = 0; k < 2; k++) {
		json_t *s = json_object_get(m, variants[k]);
		double y = 30 + 40.0 * (double)k;

		sk_strbuf_addf(sb, "<text x=\"4\" y=\"%.0f\" font-size=\"13\">%s</text>\n",
			       y + 4, variants[k]);
		if (n[k]) {
			for (i = 0; i < n[k]; i++)
				sk_strbuf_addf(sb, "<circle class=\"run %s\" cx=\"%.1f\" cy=\"%.0f\" r=\"4\" fill=\"%s\" fill-opacity=\"0.6\"/>\n",
					       variants[k], X(v[k][i]), y,
					       k ? "#c60" : "#36c");
		} else {
			sk_strbuf_addf(sb, "<line class=\"range %s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"6\"/>\n",
				       variants[k], X(NUM(s, "min")), X(NUM(s, "max")), y, y,
				       k ? "#c60" : "#36c");
		}
		sk_strbuf_addf(sb, "<line class=\"median\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#000\" stroke-width=\"2\"/>\n",
			       X(NUM(s, "median")), X(NUM(s, "median")), y - 12, y + 12);
	}
	sk_strbuf_adds(sb, "<line x1=\"120\" x2=\"600\" y1=\"92\" y2=\"92\" stroke=\"#888\"/>\n");
	for (i = 0; i <= 4; i++) {
		double at = lo + (hi - lo) * (double)i / 4;

		sk_strbuf_addf(sb, "<line class=\"tick\" x1=\"%.1f\" x2=\"%.1f\" y1=\"92\" y2=\"96\" stroke=\"#888\"/>"
			       "<text class=\"tick\" x=\"%.1f\" y=\"107\" font-size=\"11\" text-anchor=\"middle\">%.4g</text>\n",
			       X(at), X(at), X(at), at);
	}
#undef X
	sk_strbuf_adds(sb, "<text class=\"unit\" x=\"360\" y=\"124\" font-size=\"11\" text-anchor=\"middle\">");
	esc(sb, unit_of(name));
	sk_strbuf_adds(sb, "</text>\n</svg><figcaption>");
	esc(sb, name);
	sk_strbuf_addf(sb, ": median %.2f &rarr; %.2f ", NUM(json_object_get(m, "baseline"), "median"),
		       NUM(json_object_get(m, "patched"), "median"));
	esc(sb, unit_of(name));
	sk_strbuf_addf(sb, " (%+.1f%%, p=%.3f); %s</figcaption></figure>\n",
		       NUM(m, "change_pct"), NUM(m, "p"),
		       n[0] || n[1] ? "each dot is one run" :
		       "bars: min to max of the runs (per-run values not in the results)");
}

/*
 * A pass or fail always with the threshold it was held to; a metric that
 * gates nothing says so, and why, instead of wearing a pass.
 */
static void metric_verdict(struct sk_strbuf *sb, json_t *m)
{
	const char *v = STR(m, "verdict");

	if (json_is_number(json_object_get(m, "threshold_pct")) &&
	    (!strcmp(v, "pass") || !strcmp(v, "fail"))) {
		badge(sb, v);
		sk_strbuf_addf(sb, " threshold %.0f%%", NUM(m, "threshold_pct"));
	} else if (json_is_false(json_object_get(m, "gated"))) {
		sk_strbuf_adds(sb, "<span class=\"info\">not gated</span> ");
		esc(sb, STR(m, "not_gated"));
	} else {
		badge(sb, "info");
	}
}

static void metric_table(struct sk_strbuf *sb, json_t *bn)
{
	json_t *m;
	size_t i;

	sk_strbuf_addf(sb, "<table class=\"metrics\" id=\"metrics-%s\"><tr><th>base</th><th>&plusmn;stddev</th>"
		       "<th>%%change</th><th>patched</th><th>&plusmn;stddev</th><th>metric</th>"
		       "<th>p</th><th>verdict</th></tr>\n", STR(bn, "mode"));
	json_array_foreach(json_object_get(bn, "metrics"), i, m) {
		json_t *b = json_object_get(m, "baseline"), *p = json_object_get(m, "patched");

		if (!b || !p) {
			sk_strbuf_adds(sb, "<tr><td colspan=\"5\"></td>");
			cell(sb, STR(m, "name"));
			sk_strbuf_adds(sb, "<td></td><td>");
			badge(sb, STR(m, "status"));
			sk_strbuf_adds(sb, "</td></tr>\n");
			continue;
		}
		sk_strbuf_addf(sb, "<tr><td class=\"num\">%.2f</td><td class=\"num\">%.0f%%</td>"
			       "<td class=\"num\">%+.1f%%</td><td class=\"num\">%.2f</td>"
			       "<td class=\"num\">%.0f%%</td>",
			       NUM(b, "median"), NUM(b, "stddev_pct"), NUM(m, "change_pct"),
			       NUM(p, "median"), NUM(p, "stddev_pct"));
		cell(sb, STR(m, "name"));
		sk_strbuf_addf(sb, "<td class=\"num\">%.3f</td><td>", NUM(m, "p"));
		metric_verdict(sb, m);
		sk_strbuf_adds(sb, "</td></tr>\n");
	}
	sk_strbuf_adds(sb, "</table>\n");
}

static void benchmarks(struct sk_strbuf *sb, json_t *r)
{
	json_t *bn, *m;
	size_t i, j;

	json_array_foreach(json_object_get(r, "benchmarks"), i, bn) {
		sk_strbuf_adds(sb, "<h2>Benchmark: ");
		esc(sb, STR(bn, "mode"));
		sk_strbuf_adds(sb, " LRU</h2>\n<p>");
		badge(sb, STR(bn, "status"));
		sk_strbuf_adds(sb, " ");
		esc(sb, STR(bn, "reason"));
		sk_strbuf_adds(sb, "</p>\n");
		if (json_is_true(json_object_get(bn, "baseline_reused")))
			sk_strbuf_adds(sb, "<p class=\"reused\">The baseline runs were "
				       "reused from an earlier gate run of the same tip "
				       "and inputs: counts are compared, time is not "
				       "gated.</p>\n");
		if (!json_array_size(json_object_get(bn, "metrics")))
			continue;
		metric_table(sb, bn);
		json_array_foreach(json_object_get(bn, "metrics"), j, m)
			if (json_object_get(m, "gated") ||
			    json_object_get(m, "threshold_pct") ||
			    !strcmp(STR(m, "name"), "pgscan"))
				chart(sb, bn, m);
	}
}

static void recipients(struct sk_strbuf *sb, json_t *r)
{
	json_t *rc = json_object_get(r, "recipients"), *v;
	size_t i;

	sk_strbuf_adds(sb, "<h2>Recipients</h2>\n<p>To: ");
	json_array_foreach(json_object_get(rc, "to"), i, v) {
		sk_strbuf_adds(sb, i ? ", " : "");
		esc(sb, json_string_value(v));
	}
	sk_strbuf_adds(sb, "<br>Cc: ");
	json_array_foreach(json_object_get(rc, "cc"), i, v) {
		sk_strbuf_adds(sb, i ? ", " : "");
		esc(sb, json_string_value(v));
	}
	sk_strbuf_adds(sb, "</p>\n");
}

static void tracking(struct sk_strbuf *sb, json_t *r)
{
	json_t *t = json_object_get(r, "tracking"), *p;
	size_t i;

	sk_strbuf_adds(sb, "<h2>Status of the series on this branch</h2>\n");
	if (!json_array_size(json_object_get(t, "patches"))) {
		sk_strbuf_adds(sb, "<p>");
		esc(sb, STR(t, "reason"));
		sk_strbuf_adds(sb, "</p>\n");
		return;
	}
	sk_strbuf_adds(sb, "<table id=\"tracking\"><tr><th>patch</th><th>state</th><th>evidence</th></tr>\n");
	json_array_foreach(json_object_get(t, "patches"), i, p) {
		sk_strbuf_adds(sb, "<tr>");
		cell(sb, STR(p, "subject"));
		cell(sb, STR(p, "state"));
		cell(sb, json_string_value(json_array_get(json_object_get(p, "evidence"), 0)));
		sk_strbuf_adds(sb, "</tr>\n");
	}
	sk_strbuf_adds(sb, "</table>\n");
}

char *sk_report_html(json_t *r)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *title = sk_xstrfmt("stablekit report: %s", STR(r, "branch"));

	page_start(&sb, title);
	overview(&sb, r);
	if (*STR(json_object_get(r, "gate"), "reused_from")) {
		sk_strbuf_adds(&sb, "<p class=\"reused\">The gate's results are "
			       "those of the gate that passed at ");
		esc(&sb, STR(json_object_get(r, "gate"), "reused_from"));
		sk_strbuf_adds(&sb, ": the tip, the queue and every input are "
			       "the same, so it was not run again.</p>\n");
	}
	backports(&sb, r);
	builds(&sb, r);
	tests(&sb, r);
	benchmarks(&sb, r);
	tracking(&sb, r);
	recipients(&sb, r);
	sk_strbuf_adds(&sb, "<p><small>schema ");
	esc(&sb, STR(r, "schema"));
	sk_strbuf_adds(&sb, "; results in ");
	esc(&sb, STR(r, "results"));
	sk_strbuf_adds(&sb, "</small></p>\n</body></html>\n");
	free(title);
	return sk_strbuf_detach(&sb);
}

static void matrix(struct sk_strbuf *sb, json_t *status)
{
	json_t *branches = json_object_get(status, "branches"), *b, *p;
	size_t i, j;

	sk_strbuf_adds(sb, "<table id=\"matrix\"><tr><th>patch</th>");
	json_array_foreach(branches, j, b) {
		sk_strbuf_adds(sb, "<th>");
		esc(sb, STR(b, "name"));
		sk_strbuf_adds(sb, "</th>");
	}
	sk_strbuf_adds(sb, "</tr>\n");
	json_array_foreach(json_object_get(status, "patches"), i, p) {
		sk_strbuf_adds(sb, "<tr>");
		cell(sb, STR(p, "subject"));
		json_array_foreach(branches, j, b)
			cell(sb, STR(json_object_get(json_object_get(p, "branches"),
						     STR(b, "name")), "state"));
		sk_strbuf_adds(sb, "</tr>\n");
	}
	sk_strbuf_adds(sb, "</table>\n");
}

static void status_matrix(struct sk_strbuf *sb, json_t *s)
{
	if (json_is_object(json_object_get(s, "status")))
		matrix(sb, json_object_get(s, "status"));
	else
		esc(sb, STR(s, "status_reason"));
}

/* The first reason a branch did not pass; its report has them all. */
static void first_reason(struct sk_strbuf *sb, json_t *b)
{
	json_t *why = json_array_get(json_object_get(b, "reasons"), 0);
	size_t n = json_array_size(json_object_get(b, "reasons"));

	if (!why)
		return;
	esc(sb, json_string_value(why));
	if (n > 1)
		sk_strbuf_addf(sb, " (and %zu more in its report)", n - 1);
}

char *sk_report_summary_html(json_t *s)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	json_t *b;
	size_t i;

	page_start(&sb, "stablekit: all branches");
	if (*STR(s, "generated")) {
		sk_strbuf_adds(&sb, "<p id=\"generated\">Made ");
		esc(&sb, STR(s, "generated"));
		sk_strbuf_adds(&sb, "</p>\n");
	}
	sk_strbuf_adds(&sb, "<h2>Branches</h2>\n<table id=\"branches\"><tr><th>branch</th><th>tip</th>"
		       "<th>verdict</th><th>why</th><th>backports</th><th>build</th><th>gate</th>"
		       "<th>Tested-by</th><th>report</th></tr>\n");
	json_array_foreach(json_object_get(s, "branches"), i, b) {
		sk_strbuf_adds(&sb, "<tr><td>");
		esc(&sb, STR(b, "branch"));
		if (*STR(b, "project")) {
			sk_strbuf_adds(&sb, " <small>(");
			esc(&sb, STR(b, "project"));
			sk_strbuf_adds(&sb, ")</small>");
		}
		sk_strbuf_adds(&sb, "</td><td>");
		esc(&sb, *STR(b, "describe") ? STR(b, "describe") : STR(b, "kind"));
		if (*STR(b, "tip")) {
			sk_strbuf_adds(&sb, " <code>");
			sk_strbuf_add(&sb, STR(b, "tip"), strnlen(STR(b, "tip"), 12));
			sk_strbuf_adds(&sb, "</code>");
		}
		sk_strbuf_adds(&sb, "</td><td>");
		badge(&sb, STR(b, "verdict"));
		sk_strbuf_adds(&sb, "</td><td class=\"why\">");
		first_reason(&sb, b);
		sk_strbuf_adds(&sb, "</td><td>");
		badge(&sb, STR(b, "backports"));
		sk_strbuf_adds(&sb, "</td><td>");
		badge(&sb, STR(b, "build"));
		sk_strbuf_adds(&sb, "</td><td>");
		badge(&sb, STR(b, "gate"));
		sk_strbuf_adds(&sb, "</td><td>");
		esc(&sb, json_is_string(json_object_get(b, "tested_by")) ?
		    STR(b, "tested_by") : "no");
		sk_strbuf_adds(&sb, "</td><td><a class=\"report\" href=\"");
		if (*STR(b, "report")) {
			esc(&sb, STR(b, "report"));
		} else {
			/* index.html is results/report/, a branch's results/<b>/report/ */
			sk_strbuf_adds(&sb, "../");
			esc(&sb, STR(b, "branch"));
			sk_strbuf_adds(&sb, "/report/report.html");
		}
		sk_strbuf_adds(&sb, "\">report</a></td></tr>\n");
	}
	sk_strbuf_adds(&sb, "</table>\n<h2>Status</h2>\n");
	status_matrix(&sb, s);
	json_array_foreach(json_object_get(s, "included"), i, b) {
		sk_strbuf_adds(&sb, "<h2>Status in ");
		esc(&sb, STR(b, "results"));
		sk_strbuf_adds(&sb, "</h2>\n");
		status_matrix(&sb, b);
	}
	sk_strbuf_adds(&sb, "</body></html>\n");
	return sk_strbuf_detach(&sb);
}
