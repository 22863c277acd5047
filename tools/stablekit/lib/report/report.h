#ifndef SK_REPORT_H
#define SK_REPORT_H

#include <jansson.h>
#include "track/status-results.h"

/*
 * A per-branch report assembled from the results files of port, build and
 * gate (see results.h) and the tracking run (track/status-results.h); the schema is
 * Documentation/report-schema.json ("stablekit.report/1").  Nothing is
 * measured or recomputed here: a number in the report is a number from a
 * results file, and a section without one is "not run" with the reason.
 */
#define SK_REPORT_SCHEMA "stablekit.report/1"
#define SK_REPORT_SUMMARY_SCHEMA "stablekit.report-summary/1"

struct sk_report_opts {
	const char *top;	/* the project: series/, stable/ */
	const char *results;	/* the results root */
	const char *branch;
	const struct sk_status_results *status;	/* or NULL */
	const char *status_why;	/* why status is NULL */
	const char *tester;	/* "Name <address>" for Tested-by: */
	const char *maintainers;	/* the branch's MAINTAINERS text, or NULL */
	const char *maintainers_name;	/* where that text came from */
};

/* The report of one branch (schema stablekit.report/1); never NULL. */
json_t *sk_report_branch(const struct sk_report_opts *o);

/* All branches at once: the status matrix and each branch's verdict. */
json_t *sk_report_summary(const struct sk_status_results *status,
			  const char *status_why, json_t *const *branches,
			  size_t nr);

/* The mail text (LKFT's sections, and the backports) of a branch report. */
char *sk_report_text(json_t *report);
char *sk_report_summary_text(json_t *summary);

/* A static HTML page, with SVG charts of the benchmark runs. */
char *sk_report_html(json_t *report);
char *sk_report_summary_html(json_t *summary);

/* Shared by the text and HTML writers. */
const char *sk_report_str(json_t *o, const char *key);	/* "" when absent */
double sk_report_num(json_t *o, const char *key);	/* 0 when absent */

#endif
