#ifndef SK_PATCHID_H
#define SK_PATCHID_H

#include <stddef.h>
#include <git2.h>

/*
 * git patch-id --stable: a hash of the diff with whitespace and line numbers
 * ignored, so the same change has the same id wherever it applies.  It is
 * computed from the diff's text as git's builtin/patch-id.c reads it (the
 * "diff --git" line and the header lines after it, "index" lines left
 * out, each file's hash summed), so that a patch and a commit get the id
 * git gives them.  out receives 40 hex digits and a NUL, or an empty
 * string when the text holds no diff (git prints no id then).
 */
int sk_patchid_text(char out[41], const char *text, size_t len);
/* The same for diff text ("diff --git" onward, as in a mail). */
int sk_patchid_buffer(char out[41], const char *diff, size_t len);
/* The same for a diff libgit2 made (its patch text). */
int sk_patchid_diff(char out[41], git_diff *diff);
/*
 * A commit against its first parent (root: empty tree) as `git show`
 * diffs it by default: the indent heuristic, renames found with git's
 * similarity score (50% and over, git's rename limit), so that the
 * "similarity index" line and the hunks are git's.
 */
int sk_patchid_commit_diff(git_diff **out, git_repository *repo,
			   const git_commit *c);
/* The patch-id of that diff. */
int sk_patchid_commit(char out[41], git_repository *repo, const git_commit *c);

/*
 * git's similarity of two blobs (diffcore-rename.c: spans of up to 64
 * bytes ending at a newline, hashed and counted; CR of a CRLF ignored in
 * text), in percent as "similarity index" prints it.
 */
int sk_patchid_similarity(const char *a, size_t alen, const char *b,
			  size_t blen);

#endif
