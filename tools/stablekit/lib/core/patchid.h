#ifndef SK_PATCHID_H
#define SK_PATCHID_H

#include <stddef.h>
#include <git2.h>

/*
 * git patch-id --stable: a hash of the diff with whitespace and line numbers
 * ignored, so the same change has the same id wherever it applies.
 * out receives 40 hex digits and a NUL.
 */
int sk_patchid_diff(char out[41], git_diff *diff);
/* The same for diff text ("diff --git" onward, as in a mail). */
int sk_patchid_buffer(char out[41], const char *diff, size_t len);
/* The same for a commit against its first parent (root: empty tree). */
int sk_patchid_commit(char out[41], git_repository *repo, const git_commit *c);

#endif
