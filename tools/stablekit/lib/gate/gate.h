#ifndef SK_GATE_H
#define SK_GATE_H

#include "core/options.h"

#include <jansson.h>

struct sk_lava;

/*
 * One branch's gate, as a graph of steps run in order of their edges:
 *
 *	objects --> kernel <arch 1> --> kselftest <arch 1>
 *	                            \-> kernel <arch 2> --> kselftest <arch 2>
 *	                            \-> bench classic, bench mglru (x86_64)
 *	everything --> store (the baseline kept for the next gate)
 *
 * Builds run as `stablekit build` runs them, each with its own log; the
 * guests run here (QEMU) or as LAVA jobs (o->lava).  Every stage's
 * result goes into gate.json as it comes, with the graph ("graph": each
 * step, what it waited for, its seconds).
 */
struct sk_gate_opts {
	const char *top, *branch;
	const char *arch;	/* this arch alone; NULL: the config's */
	const char *config;	/* gate.conf; NULL: <top>/ci/gate.conf */
	const char *outdir;	/* NULL: <work>/results/<branch>/gate */
	const struct sk_strvec *skip;	/* build, kselftest, bench, mglru */
	int runs;		/* benchmark runs a side; 0: the config's */
	int jobs;		/* make -j of the kernels; 0: the CPUs */
	int no_reuse, progress;
	int no_confirm;		/* no confirm boot of a kselftest regression */
	const struct sk_lava *lava;	/* NULL: guests in QEMU here */
};

/*
 * Run the gate.  0 with *out the gate.json object (its "verdict": pass,
 * fail or incomplete); negative, with the message set, when it could
 * not start (a bad config naming file and key, an unwritable results
 * directory).
 */
int sk_gate_run(json_t **out, const struct sk_gate_opts *o);

#endif
