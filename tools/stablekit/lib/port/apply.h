#ifndef SK_APPLY_H
#define SK_APPLY_H

#include <stddef.h>
#include "core/strbuf.h"

/*
 * Apply a diff to files on disk, tolerating what stable backports meet:
 * libgit2 applies a hunk only at its recorded line, so this layer searches
 * for the hunk's preimage nearby (an offset) and, when allowed, with one
 * line of context dropped at each end (fuzz 1).  A placement that moves a
 * hunk out of the function, enum or array named in its @@ line is never
 * accepted: that is how `patch -F3` puts hunks into the wrong place.
 */
enum sk_apply_flags {
	SK_APPLY_FUZZ = 1 << 0,		/* allow fuzz 1 */
	SK_APPLY_CHECK = 1 << 1,	/* compute, write nothing */
};

struct sk_hunk_report {
	char *path;
	int nr;			/* 1-based within its file */
	long want_line;		/* where the diff says (1-based), moved as the
				   hunks before it were */
	long header_line;	/* what its @@ line says (1-based) */
	long got_line;		/* where it went, 0 if nowhere */
	int fuzz;
	int applied;
	char *funcname;		/* from the @@ line, or NULL */
	char *met;		/* the code found at want_line when it failed */
	int absent;		/* the file does not exist in the target */
};

struct sk_apply_report {
	struct sk_hunk_report *hunks;
	size_t nr, alloc;
};

/*
 * Returns 0 when every hunk applied (files written unless SK_APPLY_CHECK),
 * SK_ECONFLICT when some did not (nothing written; the report says which),
 * another negative code on errors.
 */
int sk_apply_dir(struct sk_apply_report *rep, const char *dir,
		 const char *diff, unsigned int flags);
/*
 * The same for a diff parsed already (lib/core/diff.h).  Every path is also
 * checked on disk: none may lead through a symbolic link under dir.  A
 * hunk whose header starts beyond the end of its file fails at once.
 */
struct sk_diff;
int sk_apply_diff(struct sk_apply_report *rep, const char *dir,
		  const struct sk_diff *d, unsigned int flags);
/* The same on one file's text; out gets the new content. */
int sk_apply_text(struct sk_strbuf *out, struct sk_apply_report *rep,
		  const char *path, const char *old, const char *file_diff,
		  unsigned int flags);
void sk_apply_report_release(struct sk_apply_report *rep);

/* Largest |offset| and fuzz used, to record how a patch was ported. */
long sk_apply_max_offset(const struct sk_apply_report *rep);
int sk_apply_max_fuzz(const struct sk_apply_report *rep);
/* "offset +12 in mm/vmscan.c, fuzz 1 in mm/swap.c" (empty when clean). */
void sk_apply_describe(struct sk_strbuf *out, const struct sk_apply_report *rep);

#endif
