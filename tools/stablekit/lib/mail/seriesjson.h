#ifndef SK_SERIESJSON_H
#define SK_SERIESJSON_H

#include <jansson.h>
#include "core/json.h"
#include "mail/revcompare.h"
#include "mail/series.h"

/*
 * JSON shapes of the series store (schema "stablekit.series/1"):
 *   series   { name, subject, author, change_id, revisions: [revision] }
 *   revision { version, message_id, date, mbox, base_commit, patches: [patch] }
 *   patch    { nr, subject, author, date, message_id, patch_id, files: [..],
 *              trailers: [{key, value}], fixlets: [fixlet] }
 *   change   { nr, old_nr, subject, changes: ["code", "message", ...],
 *              trailers_added: [..], trailers_removed: [..] }
 */
json_t *sk_seriesjson_series(const struct sk_series *s);
json_t *sk_seriesjson_revision(const struct sk_revision *r);
json_t *sk_seriesjson_patch(const struct sk_series_patch *p);
json_t *sk_seriesjson_changes(const struct sk_rev_changes *c);
/* A string with one item per line to an array. */
json_t *sk_seriesjson_lines(const char *text);

#endif
