#ifndef SK_GATE_CONFIG_H
#define SK_GATE_CONFIG_H

#include <stddef.h>
#include "gate/bench.h"

/* The gate's configuration, ci/gate.conf (git-config syntax). */

/*
 * The arches a gate boots and tests, in order (the first also runs the
 * benchmark): [gate] arch lines of the gate config, then those of
 * [gate "<branch>"]; x86_64 and arm64 when the config names none.
 */
#define SK_GATE_MAX_ARCHES 8
struct sk_gate_arches {
	const char *v[SK_GATE_MAX_ARCHES];	/* from the arch table */
	size_t nr;
};

/* path NULL: the default; an unknown arch is SK_EINVALID naming the key. */
int sk_gate_config_arches(struct sk_gate_arches *out, const char *path,
			  const char *branch);

/*
 * The benchmark a branch's gate runs: [gate "<branch>"] bench, else
 * [gate] bench, else lrulock (path NULL: lrulock).  An unknown name is
 * SK_EINVALID naming the file and key.
 */
int sk_gate_config_bench(enum sk_bench_kind *out, const char *path,
			 const char *branch);

/*
 * Read ci/gate.conf (git-config syntax) into t and the [bench] section
 * into env text for the guest ("RUNS=5\n..."); defaults where unset.
 */
int sk_gate_config(struct sk_gate_thresholds *t, char **env, const char *path);

#endif
