#ifndef SK_SERIES_H
#define SK_SERIES_H

#include <stddef.h>
#include "core/strbuf.h"
#include "mail/trailers.h"

/*
 * The series store: series/<slug>/series.conf (git-config syntax) beside the
 * am-ready mbox of each revision, v<N>.mbx, and the follow-up patches sent
 * as replies, v<N>.fixlets.mbx.
 *
 *   [series]              slug, subject, author, change-id, kind
 *   [revision "2"]        label, message-id, sender, date, mbox, base-commit,
 *                         patches
 *   [patch "2.1"]         subject, author, date, message-id, patch-id,
 *                         message-hash, upstream, file (one per touched
 *                         path), and one key per trailer, lowercased:
 *                         fixes, cc, acked-by, link...
 *
 * A revision's number (the "2" above) only names it in the store: a posted
 * vN is stored as N when N is free, an RFC or a second vN with other code
 * under the first free number from SK_REVISION_EXTRA on.  Its label ("v2",
 * "RFC", "RFC v2"; absent: "v<number>") says what it is, and the revisions
 * are ordered by label and date (sk_revision_cmp), never by number.
 *   [fixlet "2.2.1"]      amends patch 2 of v2: subject, author, date,
 *                         message-id, in-reply-to, patch-id, file
 */

struct sk_fixlet {
	int nr;			/* 1.. within its patch */
	char *subject;
	char *author;
	char *date;
	char *message_id;
	char *in_reply_to;
	char patch_id[41];
	char **files;
	size_t nr_files;
};

struct sk_series_patch {
	int nr;			/* 1..N as in [PATCH vR n/N] */
	char *subject;		/* without the [PATCH ...] prefix */
	char *author;		/* "Name <address>", in-body From: first */
	char *date;
	char *message_id;
	char patch_id[41];	/* git patch-id --stable of the diff */
	char message_hash[41];	/* of the commit message without trailers */
	char *upstream;		/* the mainline commit a stable mail names */
	struct sk_trailer *trailers;
	size_t nr_trailers;
	char **files;		/* paths the diff touches */
	size_t nr_files;
	struct sk_fixlet *fixlets;
	size_t nr_fixlets;
};

#define SK_REVISION_EXTRA 1001

struct sk_revision {
	int version;		/* its number in the store */
	char *label;		/* "v2", "RFC", "RFC v2" */
	int rfc;		/* from the label */
	int posted;		/* the version the subject gave (1 if none) */
	char *message_id;	/* of the cover letter, else of patch 1 */
	char *sender;		/* its From: as sent, when not the author's */
	char *date;
	char *mbox;		/* file name in the series directory */
	char *base_commit;
	struct sk_series_patch *patches;
	size_t nr_patches;
};

struct sk_series {
	char *slug;
	char *dir;		/* series/<slug> */
	char *subject;		/* cover subject without the prefix */
	char *author;
	char *change_id;
	char *kind;		/* series, stable-review, autosel, failed */
	char *failed_on;	/* failed: the tree it failed on, "6.1-stable" */
	/* pull -P: the patches taken, "3/5 of <message-id>"; NULL: whole */
	char *picked;
	struct sk_revision *revs;	/* oldest first: sk_revision_cmp */
	size_t nr_revs;
};

/* Names of the series under <top>/series, sorted; free with sk_series_names_free. */
int sk_series_names(char ***out, size_t *nr, const char *top);
void sk_series_names_free(char **names, size_t nr);
/*
 * The series a name from the command line means: the series of that
 * name, else the only one whose name starts with it.  SK_ENOTFOUND when
 * none or several do, the message naming the name and the candidates
 * (those with the prefix, else every series there is).
 */
int sk_series_resolve(char **out, const char *top, const char *name);

int sk_series_load(struct sk_series **out, const char *top, const char *slug);
int sk_series_load_dir(struct sk_series **out, const char *dir);
void sk_series_free(struct sk_series *s);
void sk_revision_release(struct sk_revision *r);
/* Write series.conf of s into s->dir, atomically. */
int sk_series_save(const struct sk_series *s);

/* "RFC v2" -> rfc 1, posted 2; NULL -> "v<version>". Sets label too. */
void sk_revision_set_label(struct sk_revision *r, const char *label);
/* The version a revision was posted as: its label's, else its number. */
int sk_revision_posted(const struct sk_revision *r);
/* Order: RFCs before posted revisions, then the posted version, the date. */
int sk_revision_cmp(const struct sk_revision *a, const struct sk_revision *b);
void sk_series_sort(struct sk_series *s);
/* The file holding the fixlets of r: its mbox with ".fixlets.mbx". */
char *sk_revision_fixlets_file(const struct sk_revision *r);

const struct sk_revision *sk_series_latest(const struct sk_series *s);
const struct sk_revision *sk_series_revision(const struct sk_series *s,
					     int version);

/*
 * The stored mail of a patch (headers, message, diff) and its diff alone,
 * read back from the revision's mbox.  The fixlet variants read
 * v<N>.fixlets.mbx.
 */
int sk_series_patch_mail(struct sk_strbuf *out, const struct sk_series *s,
			 const struct sk_revision *r, int nr);
int sk_series_patch_diff(struct sk_strbuf *out, const struct sk_series *s,
			 const struct sk_revision *r, int nr);
int sk_series_fixlet_mail(struct sk_strbuf *out, const struct sk_series *s,
			  const struct sk_revision *r, int nr, int fixlet);
int sk_series_fixlet_diff(struct sk_strbuf *out, const struct sk_series *s,
			  const struct sk_revision *r, int nr, int fixlet);

/* The nth (0-based) trailer with this key (case-insensitive), or NULL. */
const char *sk_series_patch_trailer(const struct sk_series_patch *p, const char *key,
			     size_t nth);

#endif
