#ifndef SK_PULL_H
#define SK_PULL_H

#include "mail/revcompare.h"
#include "mail/series.h"
#include "core/strbuf.h"
#include "core/strvec.h"

/*
 * Ingest one revision of a series into <top>/series/<slug>/.
 *
 * The thread comes first: of the mails given, only the thread of msgid
 * (without one: the only thread that carries patches) is validated and
 * handed to b4; the others are named in notes.  b4's patch count must be
 * the count validated.  A revision is labelled "vN", "RFC" or "RFC vN";
 * one with the label and the code of a stored one is merged into it (the
 * union of trailers and fixlets, by message-id), any other is stored
 * beside the rest and becomes the latest only if it orders last
 * (sk_revision_cmp).
 */
struct sk_pull_opts {
	const char *top;
	const char *input;	/* mbox file or maildir; NULL: b4 fetches from lore */
	const char *msgid;	/* a message of the thread */
	const char *name;	/* series name to use instead of the derived slug */
	const char *lore;	/* public-inbox URL b4 reads (lore.h); NULL: lore's */
	/*
	 * b4's -P: only these patches of the revision ("2", "1-3,5", "4-";
	 * "_": the patch msgid names), stored as a series of their own,
	 * numbered 1..n; the revision is still validated whole.
	 */
	const char *pick;
	unsigned int timeout_ms;
};

enum sk_pull_outcome {
	SK_PULL_NEW_SERIES,
	SK_PULL_NEW_REVISION,
	SK_PULL_UPDATED,	/* same revision, new trailers or fixlets */
	SK_PULL_UP_TO_DATE,
};

struct sk_pull_result {
	enum sk_pull_outcome outcome;
	struct sk_series *series;	/* as stored after the pull */
	struct sk_series *before;	/* as it was, or NULL for a new one */
	int version;
	int previous;			/* compared against; 0 if none */
	struct sk_rev_changes changes;	/* against previous */
	int older;			/* stored, but an older revision than the latest */
	char *missing;			/* failed, incomplete: "5/9 6/9" */
	struct sk_strbuf warnings;	/* one per line */
	struct sk_strbuf notes;		/* for --verbose: mails skipped, items kept */
	/*
	 * No message-id and more than one thread carrying patches: the pull
	 * fails (a usage error), threads lists them, one per line:
	 * "<message-id>  <subject>  (<n> mails)".
	 */
	int ambiguous;
	struct sk_strbuf threads;
};

int sk_pull(struct sk_pull_result *out, const struct sk_pull_opts *o);

/*
 * A -rc review round or an AUTOSEL batch in one import: the message-ids
 * of the stable mails (review patches, AUTOSEL, FAILED; an author's own
 * backport series under a cover is not one) of the thread of o->msgid,
 * or of the only thread with patches, in input order.  Each is then
 * pulled as a series of its own with input as -m.  input is o->input, or
 * the thread b4 fetched into tmpdir (release removes it).  A thread
 * without such a mail is SK_EINVALID.
 */
struct sk_pull_round {
	struct sk_strvec ids;
	char *input;
	char *tmpdir;
};

int sk_pull_round(struct sk_pull_round *out, const struct sk_pull_opts *o);
void sk_pull_round_release(struct sk_pull_round *r);
void sk_pull_result_release(struct sk_pull_result *r);
/* A -P selection's syntax, before any mail is read; SK_EINVALID if bad. */
int sk_pull_pick_check(const char *sel);

/* "mm/vmscan: reduce ..." -> "mm-vmscan-reduce-...", at most 52 bytes. */
char *sk_slugify(const char *title);

#endif
