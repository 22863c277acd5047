#ifndef SK_BUILD_H
#define SK_BUILD_H

#include <git2.h>
#include <jansson.h>
#include "project/branches.h"
#include "build/build-results.h"
#include "build/kbuild.h"

/*
 * One `stablekit build` of a branch: a private checkout of the branch tip
 * (libgit2, never the user's work tree, index or refs), kbuild out of tree
 * per arch for the baseline, then the queue pushed with quilt and the same
 * builds again, diagnostics compared.
 *
 *   <work>/src            the checkout; src.stamp: the tree it holds;
 *                         src.applied: files the pushed queue changed
 *   <work>/<arch>-<mode>-{baseline,patched}   kbuild O= directories
 *   <results>/<arch>/{baseline,patched}/{metadata.json,build.log,config}
 *   <results>/build.json  the summary
 */

enum sk_build_mode {
	SK_BUILD_OBJECTS,	/* prepare, then the objects the queue touches */
	SK_BUILD_KERNEL,	/* tinyconfig + gate fragment, a bootable image */
};

const char *sk_build_mode_name(enum sk_build_mode m);
int sk_build_mode_parse(enum sk_build_mode *out, const char *s);

struct sk_kbuild_target {
	char *name;		/* config, prepare, objects, kernel */
	char *status;		/* pass, fail */
	double duration;
};

struct sk_build_variant {
	const char *name;	/* "baseline" or "patched" */
	char *status;		/* pass, fail, toolchain-missing, skipped */
	char *note;		/* why skipped or failed early, how it was built, or NULL */
	double duration;
	struct sk_kbuild_target *targets;
	size_t nr_targets, alloc_targets;
	struct sk_kbuild_diags diags;
	char **kconfig_unmet;	/* fragment lines olddefconfig dropped */
	size_t nr_unmet, alloc_unmet;
	char *outdir;		/* O= */
	char *resdir;
	char *image;		/* kernel mode: the image copied to resdir */
	char *reproducer;
};

struct sk_build_archres {
	const struct sk_arch *arch;
	char *cross;		/* CROSS_COMPILE */
	char *cc;		/* "<cross>gcc" */
	char *cc_version;	/* first line of --version, or NULL: missing */
	char **objects;
	size_t nr_objects, alloc_objects;
	struct sk_build_variant base, patched;
	struct sk_kbuild_diags new_warnings;
	int *allowed;		/* per new warning: allow-listed */
	int gate_failed;
	char *gate_why;
};

typedef void (*sk_kbuild_progress_cb)(const char *arch, const char *variant,
				      const char *what, void *data);

struct sk_build_opts {
	git_repository *repo;
	const char *top;		/* the project: stable/, ci/ */
	const struct sk_branch *branch;
	enum sk_build_mode mode;
	char *const *arches;
	size_t nr_arches;
	const char *work;		/* checkout and O= directories */
	const char *results;		/* this branch's results for this mode */
	char *const *cross;		/* "arch=prefix" overrides */
	size_t nr_cross;
	char *const *fragments;		/* extra kconfig fragments */
	size_t nr_fragments;
	char *const *objects;		/* objects mode: instead of the queue's */
	size_t nr_objects;
	int jobs;			/* total make jobs (0: online CPUs) */
	int parallel;			/* arches at once (0: default) */
	int no_ccache;
	int no_baseline;
	const char *distcc_hosts;	/* [build] distcc-hosts, or NULL */
	unsigned int timeout_s;		/* per make run (0: 2 hours) */
	/*
	 * The queue to build instead of <top>/stable/<branch> (stablekit
	 * port's compile check, before the queue is installed); with it
	 * not_ported is not consulted.
	 */
	const char *queue_dir;
	/*
	 * stable/<branch> as it was when the build started: read, applied
	 * and popped from this copy, so that a port during the build changes
	 * neither what is built nor what the results say was built.
	 */
	const char *queue_copy;
	/*
	 * The series of the branch that did not port (the caller reads the
	 * port results: port/port-results.h, sk_port_results_not_ported), or
	 * NULL: the build is then not run, as what the branch should have is
	 * not known.
	 */
	const char *not_ported;
	sk_kbuild_progress_cb progress;
	void *progress_data;
};

struct sk_build {
	char *branch;
	char *mode;
	int buildable;
	char *why;			/* not buildable: why */
	/*
	 * "not run: the selected series did not port: ...": a series the
	 * branch takes has a failed or blocked patch (stablekit port's
	 * results/<branch>/port/<series>.json), so nothing is built and the
	 * gate is "not run", never a pass.
	 */
	char *not_run;
	char tip[41];
	char *describe;
	char *worktree;
	int worktree_reused;
	double checkout_s;
	char **patches;
	size_t nr_patches;
	char **files;			/* touched by the queue */
	size_t nr_files, alloc_files;
	char *queue_status;		/* none, applied, apply-failed */
	char *queue_log;
	char **fragments;		/* kconfig fragments used (paths) */
	size_t nr_fragments, alloc_fragments;
	/*
	 * The first nr_kconfig of them are ci/kconfig's: the project's, or
	 * with kconfig_shipped the shipped defaults (core/datadir.h); the
	 * rest are opts' fragments.
	 */
	size_t nr_kconfig;
	int kconfig_shipped;
	char *kconfig_base;		/* defconfig or tinyconfig */
	struct sk_build_archres *arches;
	size_t nr_arches;
	int jobs_per_make, parallel;
	char *distcc_hosts;		/* compiled over distcc on these */
	double duration;
	int gate_failed;
};

/*
 * 0 with out filled (a branch that cannot be built has buildable 0 and
 * why), negative on errors (checkout, quilt missing, results not writable).
 */
int sk_build_run(struct sk_build *out, const struct sk_build_opts *o);

/*
 * Is tree a kernel tree kbuild can build (Makefile, merge_config.sh,
 * arch/x86/Kconfig, mm/Makefile)?  1 yes; 0 no, *missing the first path
 * it lacks (a model repository).
 */
int sk_build_kernel_tree(git_tree *tree, const char **missing);
void sk_build_release(struct sk_build *job);

/* What build.json says of job (build/build-results.h); release it. */
void sk_build_summary(struct sk_build_results *out, const struct sk_build *job);
json_t *sk_build_variant_metadata(const struct sk_build *job,
				   const struct sk_build_archres *ar,
				   const struct sk_build_variant *v);

#endif
