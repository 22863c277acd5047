#ifndef SK_PORT_STALE_H
#define SK_PORT_STALE_H

#include "track/stale.h"

/*
 * Which queues are stale: results/<branch>/port/<series>.json (read
 * through port/port-results.h) names the revision `stablekit port` took;
 * `pull` and `pull --update` store newer ones beside it (track/stale.h
 * holds the list and its JSON).  Branches in the order of
 * stable/branches.conf, series by name.
 */
/* A project whose queues cannot be listed has none stale. */
void sk_port_stale_find(struct sk_stale_list *out, const char *top);

/* For `stablekit status`: one line per stale queue of <top>, maybe "". */
char *sk_port_stale_text(const char *top);

#endif
