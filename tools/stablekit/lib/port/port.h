#ifndef SK_PORT_H
#define SK_PORT_H

#include <stddef.h>
#include <git2.h>
#include "track/track.h"

struct sk_series;

/*
 * Turn the patches of a series that a branch needs into a stable queue,
 * stable/<branch>/, proven with quilt.  Per patch (with its fixlets) the
 * first method that works wins: a clean libgit2 apply; stablekit's offset
 * and fuzz layer (up to fuzz 3, each placement proven: lib/port/apply.h); a three-way cherry-pick of the upstream commits; the
 * series' semantic patches.  A patch none of them carries gets a conflict
 * report and a FAILED mail instead.  The user's repository is only read.
 */
enum sk_port_method {
	SK_PORT_CLEAN,
	SK_PORT_OFFSET,
	SK_PORT_FUZZ,
	SK_PORT_THREEWAY,
	SK_PORT_RULES,
	SK_PORT_FAILED,
	SK_PORT_SKIPPED,
	SK_PORT_BLOCKED,	/* an earlier patch of the series failed */
};

/*
 * One hunk of a patch (or of its fixlet, patch "2.fixlet1"), as the port
 * placed it: method is "clean", "offset", "fuzz", "three-way", "semantic"
 * or "failed"; rule names the rules that carry a semantic hunk; function
 * is the definition the @@ line names; reason says why a hunk failed.
 */
struct sk_port_hunk {
	char *patch;
	char *path;
	int nr;
	const char *method;
	long offset;
	int fuzz;
	char *rule;
	char *function;
	char *reason;
	char *placed;		/* how it was placed and why there (offset, fuzz) */
	char *scope;		/* the definition its changed lines landed in */
};

const char *sk_port_method_name(enum sk_port_method m);

struct sk_port_item {
	int nr;
	char *subject;
	enum sk_port_method method;
	char *how;		/* offsets, rules: what the note in the patch says */
	char *file;		/* the queue file, NULL unless queued */
	char *reason;		/* why skipped or failed */
	char *failed_mail;	/* FAILED mail text, when failed */
	size_t blocked_at;	/* where in it the list of the patches it
				   blocked goes (known once all are tried) */
	char *kept;		/* --keep: where the failed patch's files are */
	int dep_of;		/* taken only as a dependency of patch dep_of */
	int blocked_by;		/* not queued: patch blocked_by failed */
	int independent_of;	/* queued although patch independent_of failed:
				   the compile check proved it independent */
	struct sk_port_hunk *hunks;
	size_t nr_hunks, alloc_hunks;
	char upstream[41];	/* upstream commit, "" when not upstream */
};

struct sk_port_result {
	struct sk_port_item *items;
	size_t nr, alloc;
	char *target;		/* semantic-patch target picked, or NULL */
	char *no_rules;		/* none picked: "no rules for this tree (closest: ...)" */
	char *compile;		/* "compile check: ...", when something was queued */
	/*
	 * When the queue did not compile and the branch was built without it:
	 * "the queue breaks the build" or "the branch does not build these
	 * objects with this config"; else NULL.
	 */
	char *compile_verdict;
	char **fragments;	/* ci/kconfig fragments the check used (paths) */
	size_t nr_fragments;
	int fragments_shipped;	/* the shipped defaults: the project has no ci/kconfig/ */
	double spatch_seconds;
	int failed;		/* patches that could not be ported */
	char *queue;		/* stable/<branch> */
};

struct sk_port_opts {
	const char *top;
	git_repository *repo;
	struct sk_track *track;
	size_t branch;		/* index in track->branches */
	const char *slug;
	const char *signoff;	/* the backporter's "Name <address>" */
	int bracket_style;	/* "[ Upstream commit <sha> ]" */
	unsigned int timeout_ms;
	int keep;		/* a failed patch's files, with .rej, under $SK_WORK/port */
	/* each step as it starts ("patch 2/3: ..."), or NULL */
	void (*progress)(const char *step, void *data);
	void *progress_data;
	/*
	 * The series itself, when it is not series/<slug> (upstream commits
	 * made to look like a posted series: port-commits.h); NULL: loaded.
	 */
	const struct sk_series *series;
};

/*
 * Port the series to the branch; the new queue replaces stable/<branch> in
 * one step (sk_dir_swap): a reader sees the old queue or the new one.
 */
int sk_port(struct sk_port_result *out, const struct sk_port_opts *o);
void sk_port_result_release(struct sk_port_result *r);

/*
 * The commands a FAILED mail suggests to reproduce and resubmit: check out
 * tip, cherry-pick upstream (or, with none, "b4 am" the mail), commit,
 * send-email in reply to message_id.  Each is built from argv and quoted
 * with sk_shell_argv, so pasting one runs exactly that argv whatever the
 * Message-Id holds.
 */
void sk_port_failed_commands(struct sk_strbuf *out, const char *tip,
			     const char *upstream, const char *message_id,
			     int major, int minor);

#endif
