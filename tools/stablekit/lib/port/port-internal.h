/*
 * What the modules of `stablekit port` share and nothing else may use:
 * one port's state and one patch's work.  port.h stays the interface the
 * rest of stablekit sees.
 *
 *   port.c       the stages, the queue, its proof (quilt, the compile
 *                check) and its installation
 *   port-mail.c  the FAILED mail: what the tree has where a hunk failed,
 *                prerequisites, blocked patches, the audience, commands
 */
#ifndef SK_PORT_INTERNAL_H
#define SK_PORT_INTERNAL_H

#include "port/apply.h"
#include "port/cocci.h"
#include "port/port.h"
#include "core/sandbox.h"
#include "mail/series.h"
#include "core/strbuf.h"
#include "port/defs.h"

/* Everything one port works on, released in one place. */
struct port {
	const struct sk_port_opts *o;
	struct sk_port_result *res;
	struct sk_track_branch *tb;
	struct sk_series *series;
	const struct sk_revision *rev;
	struct sk_sandbox sb;
	struct sk_cocci cocci;
	int have_cocci;
	git_oid tip_tree;
	char *queue_dir;		/* stable/<branch> */
	struct sk_strbuf other;		/* series file lines of other series */
	char **other_files;
	size_t nr_other, alloc_other;
	const int *take;		/* per patch of rev: ported now */
	int kernel_tree;		/* the tip can be compiled (build/build.h) */
	int compile_failed;		/* the last compile check refused the queue */
	struct sk_strbuf compile_errors; /* its "file:line:col: error: msg" lines */
	char *compile_what;		/* "x86_64 defconfig + ...: objects" */
	struct sk_defs *defs;		/* the tip's definition index, once asked */
	/*
	 * The branch's repository: o->repo, or the branch's own (repo = in
	 * its [branch]) with o->repo's objects as an alternate, so that the
	 * upstream commits resolve in it too.
	 */
	git_repository *repo;
	git_repository *own_repo;
};

struct work {
	const struct sk_series_patch *sp;
	struct sk_track_patch *tp;
	struct sk_port_item *item;
	char **diffs;			/* the patch, then its fixlets */
	char **keys;			/* "2", "2.fixlet1" */
	size_t nr;
	struct sk_apply_report *reps;	/* per diff, of the offset/fuzz stage */
	struct sk_apply_report *rule_reps; /* per diff, seed hunks the rules leave */
	struct sk_strbuf tried;		/* what was tried, for a failure */
};

/*
 * What the compile check compiles for a queue (port-compile.c): objects,
 * the Kconfig symbols that guard the changed lines, and why each object
 * ("kernel/sched/build_utility.o for kernel/sched/psi.c, which it
 * #includes").
 */
struct sk_port_compile {
	char **objects;
	size_t nr_objects;
	char **configs;		/* "CONFIG_PSI" */
	size_t nr_configs;
	struct sk_strbuf why;
};

void sk_port_compile_targets(struct sk_port_compile *t, struct port *p, char **texts,
			     size_t nr_texts);
void sk_port_compile_release(struct sk_port_compile *t);

/* The FAILED mail of w's patch (the blocked list goes in at write time). */
void sk_port_failed_mail(struct sk_strbuf *out, struct port *p,
			 const struct work *w);
/*
 * The FAILED mail of a patch that applied but with which the queue does
 * not compile: each compiler error shown at the patch's hunk nearest to it.
 * patch_text is the queue file (mail header, then the diff).
 */
void sk_port_compile_mail(struct sk_strbuf *out, struct port *p,
			  const struct sk_series_patch *sp, struct sk_port_item *it,
			  const char *patch_text);
/*
 * The later patches of the series and what became of them once patch nr
 * failed, for the FAILED mail: blocked, or queued as independent.
 */
void sk_port_blocked_list(struct sk_strbuf *out, const struct sk_port_result *r,
			  int nr);

#endif
