#ifndef SK_COCCI_H
#define SK_COCCI_H

#include <stddef.h>
#include <git2.h>
#include "port/apply.h"
#include "core/sandbox.h"
#include "core/strbuf.h"

/*
 * The semantic-patch stage of a port: semantic-patches/<slug>/manifest.conf
 * (see semantic-patches/README) names probes of the target tree, the
 * targets they pick, and per "TARGET:PATCH" the seed hunks to drop, the
 * Coccinelle rules to run and the plain hunks to apply.
 */
struct sk_cocci_port {
	char **drops;		/* "PATH:K" */
	size_t nr_drops;
	char **rules;		/* paths of .cocci files */
	size_t nr_rules;
	char **hunks;		/* paths of plain hunk files */
	size_t nr_hunks;
};

struct sk_cocci {
	char *dir;		/* semantic-patches/<slug> */
	char *target;		/* picked by probing, or NULL */
	char *closest;		/* none picked: "closest: T, differs in: ..." */
	double spatch_seconds;	/* spent in spatch so far */
	struct sk_strbuf log;	/* which rules ran, and what they said */
};

/* SK_ENOTFOUND when the series has no manifest. */
int sk_cocci_open(struct sk_cocci *c, const char *top, const char *slug);
void sk_cocci_release(struct sk_cocci *c);

/*
 * Probe the tree and pick the one target whose probes hold.  SK_ENOTFOUND
 * "no rules for this tree (closest: T, differs in: P (absent), ...)" when
 * none does (closest is set); SK_EINVALID when two do, or when a target
 * has no probe that must hold.
 */
int sk_cocci_pick_target(struct sk_cocci *c, git_repository *repo,
			 const git_oid *tree);

/* The port spec of a patch ("2", "2.fixlet1"); an empty one if none. */
int sk_cocci_port_spec(struct sk_cocci_port *out, const struct sk_cocci *c,
		       const char *patch_key);
void sk_cocci_port_release(struct sk_cocci_port *p);

/* Files a port spec reads or writes besides the diff's own (rule targets). */
int sk_cocci_port_files(char ***out, size_t *nr, const struct sk_cocci_port *p);

/*
 * Carry one patch by its spec: the diff minus the dropped hunks (offsets
 * and fuzz 1 allowed, as in the offset stage; rep gets where each kept
 * hunk went), then the rules, then the plain hunks (no fuzz), on the
 * sandbox files.  A failure names the kept hunks that did not apply.
 */
int sk_cocci_port_patch(struct sk_cocci *c, struct sk_sandbox *sb,
			const struct sk_cocci_port *spec, const char *diff,
			struct sk_apply_report *rep, unsigned int timeout_ms);

/*
 * The diff without the listed hunks ("PATH:K", K counted from 1 per file);
 * a file whose hunks are all dropped goes whole.  SK_EINVALID when the
 * diff does not parse (lib/core/diff.h).
 */
int sk_cocci_drop_hunks(struct sk_strbuf *out, const char *diff,
		       char *const *drops, size_t nr);

#endif
