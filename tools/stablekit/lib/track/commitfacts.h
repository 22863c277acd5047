#ifndef SK_COMMITFACTS_H
#define SK_COMMITFACTS_H

#include <stddef.h>
#include "core/strbuf.h"

/*
 * What the tracker needs from a commit message, read without a diff:
 * the references a backport carries to its upstream commit, the commit a
 * revert reverts, the mail it came from (Link:, Message-Id:) and its
 * Fixes: targets.
 */

enum sk_upref_kind {
	SK_UPREF_COMMIT_UPSTREAM,	/* "commit <sha> upstream." */
	SK_UPREF_UPSTREAM_COMMIT,	/* "[ Upstream commit <sha> ]" */
	SK_UPREF_CHERRY_PICK,		/* "(cherry picked from commit <sha>)" */
	SK_UPREF_REVERT,		/* "This reverts commit <sha>." */
};

/* A reference that says the commit carries <sha>'s change (not a revert). */
#define SK_UPREF_IS_COPY(kind) ((kind) >= 0 && (kind) != SK_UPREF_REVERT)

struct sk_upref {
	char sha[41];
	enum sk_upref_kind kind;
};

struct sk_commit_fix {
	char sha[41];
	char *subject;		/* quoted subject, or NULL */
};

struct sk_commit_facts {
	struct sk_upref *uprefs;
	size_t nr_uprefs, alloc_uprefs;
	char **msgids;		/* without the angle brackets */
	size_t nr_msgids, alloc_msgids;
	struct sk_commit_fix *fixes;
	size_t nr_fixes, alloc_fixes;
};

int sk_commit_facts_parse(struct sk_commit_facts *out, const char *msg);
void sk_commit_facts_release(struct sk_commit_facts *f);

/*
 * The fields of a raw commit object (as git_odb_read returns it) that the
 * index needs, pointing into the buffer: the parents (nr_parents runs of
 * 40 hex digits, SK_COMMIT_RAW_PARENT_STRIDE bytes apart), the author's
 * name (up to its last '<') and address (between its last '<' and '>'),
 * blanks trimmed, as libgit2 reads a signature, the committer time and
 * the message (everything after the header).
 */
#define SK_COMMIT_RAW_PARENT_STRIDE 48	/* "parent " 40 hex "\n" */

struct sk_commit_raw {
	const char *parents;
	size_t nr_parents;
	const char *name;
	size_t name_len;
	const char *email;
	size_t email_len;
	long long time;
	const char *message;
	size_t message_len;
};

/*
 * 0, or -1 if the buffer is not a well-formed commit (a tree, an author and
 * a committer are required, as libgit2 requires them).
 */
int sk_commit_raw_parse(struct sk_commit_raw *out, const char *data,
			size_t len);

/*
 * The summary of a message, as git_commit_summary() gives it: the first
 * paragraph, leading newlines dropped, lines joined by one blank,
 * trailing blanks trimmed.
 */
void sk_commit_summary(struct sk_strbuf *out, const char *msg);

/* How an upstream reference reads in a message, for evidence text. */
const char *sk_upref_kind_name(enum sk_upref_kind kind);

/*
 * A subject reduced for matching: "[PATCH v2 1/3]", "UPSTREAM:",
 * "BACKPORT:", "FROMGIT:", "FROMLIST:" and "Revert" quoting kept apart,
 * case folded, runs of blanks collapsed, a trailing full stop dropped.
 */
void sk_subject_norm(struct sk_strbuf *out, const char *subject);

/* "Name <Addr@Host>" -> "addr@host" (lowercase), or the whole string. */
char *sk_author_email(const char *author);

#endif
