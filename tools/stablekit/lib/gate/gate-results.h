#ifndef SK_GATE_RESULTS_H
#define SK_GATE_RESULTS_H

#include <jansson.h>

/*
 * results/<branch>/gate/gate.json: what one `stablekit gate` of a branch
 * found.  Its schema is here and nowhere else: the gate fills the struct
 * and writes it through sk_gate_results_write (after every stage, then
 * at the end), the report reads it through sk_gate_results_read.
 *
 * While the gate runs the file is partial: branch, arch, verdict
 * "incomplete", reasons and the stages so far.  At the end it has
 * everything below.  Strings are NULL when the file has null or nothing
 * there; what an older or hand-written file may lack has a has_ flag.
 */

/* One stage: "queue", "build", "kernel", "boot", "kselftest",
 * "bench-<mode>", "store"; another arch's as "<stage>-<arch>". */
struct sk_gate_results_stage {
	char *name;
	char *status;		/* pass, fail, not run, ... */
	char *reason;		/* NULL: null */
	double seconds;
	int has_seconds;
	char *arch;		/* NULL: not written (an older file) */
};

/* One step of the graph the gate ran. */
struct sk_gate_results_step {
	char *step;
	char **after;		/* the steps it waited for */
	size_t nr_after;
	int done;
	double seconds;
};

struct sk_gate_results {
	int complete;		/* 0: the partial file, written as it runs */
	char *branch;
	char *arch;		/* the first arch */
	char *verdict;		/* pass, fail, incomplete */
	char **reasons;
	size_t nr_reasons;
	int has_reasons;
	struct sk_gate_results_stage *stages;
	size_t nr_stages, alloc_stages;
	int has_stages;
	/* the rest: complete files only */
	char *bench;		/* the benchmark's kind */
	double seconds;
	int has_seconds;
	char *results;		/* the gate's directory */
	int baseline_reused;
	char *baseline_why_not;	/* reused: NULL */
	char *baseline_tip;
	char *baseline_store;
	char **arches;		/* every arch; an older file has none */
	size_t nr_arches;
	char *runner;		/* local, lava */
	/*
	 * The ci/gate.conf read and where from: "option" (--config),
	 * "project" (its own), "shipped" (the installed defaults; its
	 * sections for a branch are the embedded default's and not read);
	 * NULL: none, the built-in defaults.
	 */
	char *config, *config_from;
	struct sk_gate_results_step *graph;
	size_t nr_graph;
	/*
	 * When this run found the branch's tip, queue and every input of
	 * the gate those of an earlier gate that passed: when that gate
	 * finished ("YYYY-MM-DDTHH:MM:SSZ"), whose stages these are.  NULL:
	 * the stages ran in this run.
	 */
	char *reused_from;
};

void sk_gate_results_release(struct sk_gate_results *r);

/* Add a stage (strings copied; reason and arch may be NULL). */
struct sk_gate_results_stage *sk_gate_results_add_stage(
	struct sk_gate_results *r, const char *name, const char *status,
	const char *reason, double seconds, const char *arch);
/* The stage named name, or NULL. */
const struct sk_gate_results_stage *sk_gate_results_stage(
	const struct sk_gate_results *r, const char *name);

/* gate.json's object of r, and of its stages alone. */
json_t *sk_gate_results_to_json(const struct sk_gate_results *r);
json_t *sk_gate_results_stages_json(const struct sk_gate_results *r);

/*
 * Fill *out (zeroed first; released on error too) from o, checking the
 * type of every key it knows; SK_EINVALID names file and the key.
 */
int sk_gate_results_from_json(struct sk_gate_results *out, json_t *o,
			      const char *file);

/* Write r to path, atomically. */
int sk_gate_results_write(const char *path, const struct sk_gate_results *r);

/*
 * Read path.  SK_ENOTFOUND with the message "not run: no <path>" when it
 * does not exist; SK_EINVALID with "unreadable: <path>..." when it is not
 * JSON ("<path>:<line>: <message>") or a key holds the wrong type
 * ("<path>: key '<key>': expected ...").
 */
int sk_gate_results_read(struct sk_gate_results *out, const char *path);

#endif
