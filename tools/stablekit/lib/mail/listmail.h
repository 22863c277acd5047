#ifndef SK_LISTMAIL_H
#define SK_LISTMAIL_H

#include <stddef.h>
#include "mail/mbox.h"

/*
 * List traffic as an archive holds it: many threads, and mails of the
 * stable lists that are patches of their own kind.
 *
 * Threads: mails joined by In-Reply-To and by every References entry, also
 * through a message the archive lacks (two replies to a missing cover are
 * one thread).
 */
struct sk_threads {
	size_t *of;		/* per mail: its thread, 0..nr-1 */
	size_t nr;
};

void sk_threads_build(struct sk_threads *out, const struct sk_mbox *mb);
void sk_threads_release(struct sk_threads *t);
/* The index of the (first) mail with this message-id ("<x>" or "x"), or -1. */
long sk_listmail_find(const struct sk_mbox *mb, const char *msgid);

/*
 * What a patch mail is.  A stable review patch: "[PATCH 6.12 041/120]"
 * (a tag naming a stable tree) whose body names the upstream commit
 * ("commit X upstream." or "[ Upstream commit X ]"); an AUTOSEL mail:
 * "[PATCH AUTOSEL 6.x ...]"; a FAILED mail: 'FAILED: patch "[PATCH] ..."
 * failed to apply to 6.x-stable tree', the original commit pasted in it.
 */
enum sk_mail_kind {
	SK_MAIL_NONE,		/* not a patch mail: a reply, a cover, a note */
	SK_MAIL_PATCH,		/* [PATCH], [RFC], [PATCH RFC v2 1/3] ... */
	SK_MAIL_STABLE_REVIEW,
	SK_MAIL_AUTOSEL,
	SK_MAIL_FAILED,
};

enum sk_mail_kind sk_mail_kind(const struct sk_mail *m);
/* "series", "stable-review", "autosel", "failed" (SK_MAIL_NONE: NULL). */
const char *sk_mail_kind_name(enum sk_mail_kind k);
/*
 * The upstream commit a stable mail names: "commit X upstream.",
 * "[ Upstream commit X ]", "git cherry-pick -x X", "From X Mon Sep 17
 * 00:00:00 2001" (the first of them); a new string or NULL.
 */
char *sk_mail_upstream(const char *body);
/*
 * A stable review patch's body after its preamble ("6.12-stable review
 * patch.  If anyone has any objections, please let me know." and a line
 * of dashes), where the in-body From: of the real author stands; the body
 * itself when it has none.
 */
const char *sk_stable_review_body(const char *body);
/*
 * A FAILED mail's inner subject ('FAILED: patch "[PATCH] mm: foo" failed to
 * apply to ...', Sasha's 'FAILED: Patch "mm: foo" ...'), a new string or NULL.
 */
char *sk_failed_subject(const char *subject);
/* The tree of a FAILED subject: "... failed to apply to 6.1-stable tree" -> "6.1-stable"; else NULL. */
char *sk_failed_tree(const char *subject);

#endif
