#ifndef SK_SCAFFOLD_H
#define SK_SCAFFOLD_H

/*
 * A new stablekit project (stablekit init): in dir,
 *
 *   series/               where pull stores the series
 *   stable/branches.conf  the branches, every line a commented example for
 *                         the user's own linux.git (git-config syntax)
 *   MAINTAINERS           the kernel's format; one section with who
 *                         (stable/ and series/) when who is not NULL,
 *                         else the format's description only
 *
 * dir is made when missing.  A dir that has any of series, stable or
 * MAINTAINERS is refused (SK_EEXISTS, naming it) and nothing is written.
 * Everything is written in a temporary directory inside dir and renamed
 * into place (never over anything), series/ last: a project is either
 * there or not.
 */
int sk_scaffold_create(const char *dir, const char *who);

#endif
