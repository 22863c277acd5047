#ifndef SK_RESULTS_H
#define SK_RESULTS_H

#include <jansson.h>

/*
 * Where the commands leave what they found, for `stablekit report` and for
 * people:  $SK_WORK/results/<branch>/
 *	port/<series>.json		stablekit port
 *	build/<mode>/build.json		stablekit build (objects, kernel)
 *	gate/gate.json, gate/<stage>.json	stablekit gate
 *	report/				stablekit report
 * and $SK_WORK/results/status.json from stablekit status, via the report.
 * Each file another stage reads is read and written through its module
 * (build/build-results, port/port-results, gate/gate-results,
 * gate/kselftest-results, gate/bench-results), its schema in one place.
 */

/* $SK_WORK, else <top>/work; caller frees. */
char *sk_work_dir(const char *top);

/* $SK_WORK/results (or <top>/work/results); caller frees. */
char *sk_results_dir(const char *top);

/*
 * Read one results file.  NULL with *why set (caller frees) when there is
 * none ("not run: no <path>") or it is not JSON ("unreadable: <path>:<line>:
 * <message>").
 */
json_t *sk_results_load(const char *path, char **why);

/*
 * The same for a typed reader: 0 and *out, or SK_ENOTFOUND ("not run: no
 * <path>") or SK_EINVALID ("unreadable: ...") as the error.
 */
int sk_results_read_json(json_t **out, const char *path);

/* Write o as indented JSON to path, atomically, creating its directory. */
int sk_results_save(const char *path, json_t *o);

#endif
