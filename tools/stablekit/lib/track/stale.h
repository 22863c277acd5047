#ifndef SK_STALE_H
#define SK_STALE_H

#include <jansson.h>
#include <stddef.h>
#include "core/strbuf.h"

/*
 * Queues ported from another revision than the latest the series store now
 * holds (revisions are ordered by label and date, not by number: an RFC is
 * stored under a number from 1001 and is older than v1): the list, its
 * JSON, its lines.  Which queues they are is port's to say, from its
 * results (port/port-stale.h).
 */
struct sk_stale {
	char *branch;
	char *slug;
	int ported;		/* the revision the queue came from */
	int latest;		/* the latest revision stored */
	char *ported_label;	/* "v2", "RFC": as pull names them */
	char *latest_label;
};

struct sk_stale_list {
	struct sk_stale *items;
	size_t nr, alloc;
};

void sk_stale_release(struct sk_stale_list *l);

/*
 * One line per stale queue:
 * "linux-7.2.y: <series>: stale (v3 on the list, queue from v2): stablekit port <series> --branch linux-7.2.y"
 */
void sk_stale_describe(struct sk_strbuf *out, const struct sk_stale_list *l);
/* [{"branch", "series", "ported", "latest", "ported_label", "latest_label"}] */
json_t *sk_stale_json(const struct sk_stale_list *l);
/*
 * That array (at, under file, named in errors) into *out, which the caller
 * releases also on error; SK_EINVALID naming the key of another type.
 */
int sk_stale_from_json(struct sk_stale_list *out, json_t *arr,
		       const char *file, const char *at);

/* The latest revision stored of a series, 0 when none; as JSON, or null. */
int sk_stale_latest_revision(const char *top, const char *slug);
json_t *sk_stale_latest_json(const char *top, const char *slug);

#endif
