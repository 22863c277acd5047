#ifndef SK_PULL_UPDATE_H
#define SK_PULL_UPDATE_H

#include <stddef.h>
#include "mail/mbox.h"
#include "mail/pull.h"

/*
 * stablekit pull --update: for each tracked series, search the inbox
 * (lore.h) for newer revisions -- the same change-id, else the cover subject
 * by the same author -- and pull each one through sk_pull(), oldest first;
 * a RESEND, or a reroll that changed the patch count, of the latest stored
 * version counts too.  Then the thread of the latest stored revision is
 * fetched again, so that replies sent since the last pull (trailers,
 * fixlets) update it in place.
 *
 * Every search runs before anything is pulled: a server that cannot be
 * reached fails the whole update with nothing written.
 */
struct sk_update_opts {
	const char *top;
	const char *lore;		/* URL; NULL: lore's */
	const char *const *slugs;	/* NULL: every series */
	size_t nr_slugs;
	unsigned int timeout_ms;	/* per search and per b4 run */
	/*
	 * The whole update, searches and pulls (0: none): a search that
	 * would run past it fails the update with nothing written; a pull
	 * it leaves no time for is not run, a failure that says so.  Each
	 * search and b4 run gets at most the time left.
	 */
	unsigned int deadline_ms;
	/*
	 * Newer revisions pulled per series at most (0: no cap); the newest
	 * are kept, the older ones named in a warning.
	 */
	size_t max_revisions;
};

struct sk_update_pull {
	char *message_id;		/* the thread pulled */
	int ret;			/* 0, or the error of this pull */
	char *error;
	/*
	 * Failed, but no failure: an incomplete posting of a version the
	 * store holds complete (a RESEND followed it).  error says why.
	 */
	int skipped;
	struct sk_pull_result res;	/* when ret is 0 */
};

struct sk_update_series {
	char *slug;
	int latest_before;		/* latest stored version before */
	int latest_after;
	char *latest_label;		/* latest_after's: "v3", "RFC" */
	size_t nr_found;		/* revisions found on the list */
	struct sk_update_pull *pulls;
	size_t nr_pulls;
	int failed;
	/*
	 * Search hits left out, one line each: a Message-Id that is not
	 * Message-Id shaped (sk_msgid_check: never handed to b4), a mail
	 * that could not be read.
	 */
	struct sk_strbuf warnings;
};

struct sk_update_result {
	struct sk_update_series *items;
	size_t nr;
	int failed;			/* series with a failed pull */
};

/*
 * 0 when every search ran (per-series pull failures are in the result);
 * otherwise the error, with nothing written.
 */
int sk_pull_update(struct sk_update_result *out, const struct sk_update_opts *o);
void sk_pull_update_result_release(struct sk_update_result *r);

/* The search for newer revisions of s (exposed for the tests). */
char *sk_pull_update_query(const struct sk_series *s);
/*
 * Is hits->mails[i] the head of a revision of s the store lacks (a cover
 * letter, else patch 1 or a single patch; no reply; version at least the
 * latest stored; not stored)?  Its version, else 0.
 */
int sk_pull_update_is_revision(const struct sk_series *s, const struct sk_mbox *hits,
			  size_t i);

#endif
