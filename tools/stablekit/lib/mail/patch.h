#ifndef SK_PATCH_H
#define SK_PATCH_H

#include <stddef.h>
#include "mail/mbox.h"
#include "mail/trailers.h"

/* "[PATCH RFC v2 3/7] mm: foo" as b4 reads it. */
enum sk_subject_flags {
	SK_SUBJ_PATCH = 1 << 0,		/* a PATCH tag was there */
	SK_SUBJ_RFC = 1 << 1,
	SK_SUBJ_RESEND = 1 << 2,
	SK_SUBJ_REPLY = 1 << 3,		/* "Re:" */
	SK_SUBJ_FIXLET = 1 << 4,	/* "[fixlet]" or "[fixup]" */
	SK_SUBJ_PATCHSET = 1 << 5,	/* "[PATCHSET v2]": a cover letter */
};

struct sk_subject {
	int version;		/* 1 when none is given */
	int nr, total;		/* 0/0 when there is no counter */
	unsigned int flags;
	char *title;		/* without any [..] prefix or Re: */
};

/*
 * "[PATCHSET v2 0/N]" reads like "[PATCH v2 0/N]"; a "[PATCHSET v2]"
 * without a counter is a cover letter too (Tejun Heo's form): nr 0,
 * total 0, SK_SUBJ_PATCHSET.
 */
int sk_subject_parse(struct sk_subject *out, const char *subject);
/* A cover letter: "0/N", or a PATCHSET without a counter; not a reply. */
int sk_subject_is_cover(const struct sk_subject *s);
void sk_subject_release(struct sk_subject *s);

/* A patch mail split the way git am splits it. */
struct sk_patch {
	struct sk_subject subj;
	char *author;		/* in-body From: first, then the header */
	char *date;
	char *message_id;
	char *message;		/* commit message before the trailers */
	struct sk_trailer *trailers;
	size_t nr_trailers, alloc_trailers;
	char *notes;		/* after "---": diffstat, changelog */
	char *diff;		/* from where the diff starts to the signature */
	char *signature;	/* the line after "-- " (the sender's git), or NULL */
	size_t diff_line;	/* where the diff starts in the source */
	char **files;
	size_t nr_files;
	char patch_id[41];
};

/* Does the body carry a diff (git or quilt-style, lib/core/diff.h)? */
int sk_mail_has_diff(const struct sk_mail *m);
/*
 * Parse a patch mail.  Errors (no diff, a truncated hunk, a path that is
 * absolute or climbs out with "..") name the source file and line.
 */
int sk_patch_parse(struct sk_patch *out, const struct sk_mail *m);
void sk_patch_release(struct sk_patch *p);
/*
 * A patch sent inline in a reply ("From <sha> Mon Sep 17 ..." then its own
 * From:/Date:/Subject:, or a "-- >8 --" scissors line).  SK_ENOTFOUND when
 * the reply carries none.
 */
int sk_patch_parse_followup(struct sk_patch *out, const struct sk_mail *m);

/*
 * Check a diff with lib/core/diff.h (every path relative and inside the tree,
 * no symbolic link, every hunk complete).  Appends the touched paths, both
 * sides, to *files unless already there.
 */
int sk_patch_diff_check(const char *diff, const char *source, size_t first_line,
		  char ***files, size_t *nr);

/* The patch as an am-ready mail: headers, message, trailers, notes, diff. */
void sk_patch_format(struct sk_strbuf *out, const struct sk_patch *p,
		     const char *subject_prefix);

#endif
