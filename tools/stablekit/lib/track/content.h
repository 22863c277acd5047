#ifndef SK_CONTENT_H
#define SK_CONTENT_H

#include <stddef.h>
#include <git2.h>
#include "core/strbuf.h"
#include "core/strvec.h"

/*
 * Tracking on a tree without history (a distribution's source imported as
 * one commit): no commit can prove a landing there, so the code is the
 * evidence.  A series is judged as a whole and in order, as it lands:
 *
 *   - the longest prefix 1..k whose patches reverse-apply one after the
 *     other from the last (k, k-1, ..., 1) landed verbatim ("by content");
 *   - then each later patch is applied forward on the tree with the
 *     patches before it that applied: one that applies is not there (its
 *     pre-image is: "the fixed code is there" for a Fixes: it cannot
 *     resolve); one that does not is judged hunk by hunk: the post-image
 *     in place, the pre-image in place, every added line in place with
 *     other context, or none of these.  No hunk's pre-image left, and
 *     most added lines in place (or a quarter of them with two hunks or
 *     more verbatim) is "landed as a later revision", shown with the
 *     interdiff between the stored revision and what the tree has.
 *
 * A patch whose post-image is in place although an earlier patch of its
 * series is not there is a coincidence (old code that the series' first
 * patch changed and a later one restores), never a landing.
 *
 * Hunks are found as git apply finds them without fuzz: the exact lines,
 * the nearest place to the header's line, after the file's previous hunk.
 */

enum sk_content_verdict {
	SK_CONTENT_NONE,	/* no diff to compare */
	SK_CONTENT_LANDED,	/* reverse-applies, in series order */
	SK_CONTENT_LINES,	/* every hunk's added lines in place */
	SK_CONTENT_REVISION,	/* another revision: most added lines */
	SK_CONTENT_PREIMAGE,	/* applies, in series order: not there */
	SK_CONTENT_PARTIAL,	/* some hunks there, some not */
	SK_CONTENT_COINCIDENCE,	/* its post-image, not its series' start */
	SK_CONTENT_NEITHER,	/* neither image */
};

enum sk_hunk_state {
	SK_HUNK_POST,		/* the post-image is in place */
	SK_HUNK_ADDED,		/* its added lines are, the context differs */
	SK_HUNK_PRE,		/* the pre-image is in place */
	SK_HUNK_NEITHER,
	SK_HUNK_NOFILE,		/* the tree has no such file */
};

struct sk_content_hunk {
	char *path;
	int nr;			/* 1-based within its file */
	long line;		/* where found, 1-based; 0: nowhere */
	enum sk_hunk_state state;
	char *funcname;		/* of its @@ line, or NULL */
};

struct sk_content_patch {
	enum sk_content_verdict verdict;
	struct sk_content_hunk *hunks;	/* judged one by one (not LANDED) */
	size_t nr_hunks, alloc_hunks;
	size_t added, added_found;	/* non-blank added lines, in place */
	/* stored post-image against the tree's code, hunk by hunk */
	char *interdiff;
};

struct sk_content_series {
	struct sk_content_patch *patches;
	size_t nr;
	size_t landed;		/* the prefix that reverse-applies */
};

/*
 * One step per patch: the patch's diff, then its fixlets' (diffs[i] holds
 * nr_diffs[i] texts).  Judged on commit's tree.  0 or negative with
 * sk_error_set() (a diff that does not parse, the commit not found).
 */
int sk_content_check(struct sk_content_series *out, git_repository *repo,
		     const git_oid *commit, char **const *diffs,
		     const size_t *nr_diffs, size_t nr);
void sk_content_series_release(struct sk_content_series *s);

const char *sk_content_verdict_name(enum sk_content_verdict v);
const char *sk_hunk_state_name(enum sk_hunk_state s);
/* Landed in some form: LANDED, LINES or REVISION. */
int sk_content_landed(enum sk_content_verdict v);

/* "mm/vmscan.c#2 (shrink_lruvec) at 2043: post-image", one a line. */
void sk_content_table(struct sk_strbuf *out, const struct sk_content_patch *p);
/* The patch's evidence in one line, branch naming the tree. */
void sk_content_describe(struct sk_strbuf *out,
			 const struct sk_content_patch *p, const char *branch);

/*
 * 1 if commit has no parent: the tree is all there is to look at (the
 * branch's tip), or all there is from before it (the branch's base).
 */
int sk_content_no_history(git_repository *repo, const char *commit);


/* ---- the hooks of track.c: one cache per run ---- */

struct sk_branch;
struct sk_series;
struct sk_revision;
struct sk_content_cache;

/* A tracked branch as track.c resolved it. */
struct sk_content_branch {
	const struct sk_branch *br;
	git_repository *repo;		/* NULL: it could not be tracked */
	const char *tip, *base;		/* hex; base "" when unresolved */
	char *const *queue;		/* stable/<branch>/series, checked */
	size_t nr_queue;
};

/* top: the project (its stable/<branch>/ queues); b is copied. */
struct sk_content_cache *sk_content_cache_new(const char *top,
					      const struct sk_content_branch *b,
					      size_t nr);
void sk_content_cache_free(struct sk_content_cache *cc);

/*
 * On branch bi, when it has no history: is patch nr of s (revision rev)
 * in its tree?  1 with the evidence appended to ev (copies), else 0.
 */
int sk_content_present(struct sk_content_cache *cc, size_t bi,
		       const struct sk_series *s, const struct sk_revision *rev,
		       int nr, struct sk_strvec *ev);

/* What tracking knows of a patch not present, and what the code adds. */
struct sk_content_facts {
	int queued, has_fixes, fixes_in_branch;	/* in */
	int fixes_resolved;	/* in: the repository has a Fixes: target */
	int fixes_by_code;	/* out: the code decided fixes_in_branch */
	int differs;		/* out: queued, not the code that landed */
	const char *proxy;	/* out: the newer stable branch that has it */
	struct sk_strvec evidence;	/* out: lines, copies */
};

/*
 * On a branch without history, a Fixes: not proven in the branch is
 * decided by the code (its pre-image applies: the fixed code is there;
 * on a branch whose history starts at its base, only a target the
 * repository does not have);
 * a patch that a newer stable tree has is upstream by proxy; a queued one
 * is compared with that tree's copy.  Sets fixes_in_branch when the code
 * says so.
 */
void sk_content_facts(struct sk_content_cache *cc, size_t bi,
		      const struct sk_series *s, const struct sk_revision *rev,
		      int nr, struct sk_content_facts *f);

#endif
