#ifndef SK_PULL_H
#define SK_PULL_H

#include "revcompare.h"
#include "series.h"
#include "strbuf.h"

/* Ingest one revision of a series into <top>/series/<slug>/. */
struct sk_pull_opts {
	const char *top;
	const char *input;	/* mbox file or maildir; NULL: b4 fetches from lore */
	const char *msgid;	/* a message of the thread */
	const char *name;	/* series name to use instead of the derived slug */
	const char *lore;	/* public-inbox URL b4 reads (lore.h); NULL: lore's */
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
	struct sk_strbuf warnings;	/* one per line */
};

int sk_pull(struct sk_pull_result *out, const struct sk_pull_opts *o);
void sk_pull_result_release(struct sk_pull_result *r);

/* "mm/vmscan: reduce ..." -> "mm-vmscan-reduce-...", at most 52 bytes. */
char *sk_slugify(const char *title);

#endif
