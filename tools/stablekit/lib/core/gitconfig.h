#ifndef SK_GITCONFIG_H
#define SK_GITCONFIG_H

/*
 * Before libgit2 opens a git-config file: it and every file it includes
 * ([include] and [includeIf "..."] path =, recursively, as libgit2 would
 * follow them) must be regular files.  libgit2 opens and reads a FIFO, a
 * device or a socket as it finds them, and a FIFO nobody writes to hangs
 * the command for ever.
 *
 * 0 when path does not exist (the caller says what that means) or when
 * every file is regular or missing; SK_EINVALID naming the file (and the
 * config and line that includes it) otherwise.
 */
int sk_gitconfig_check(const char *path);

#endif
