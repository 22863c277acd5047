#ifndef SK_GUESTLAND_H
#define SK_GUESTLAND_H

#include "core/strbuf.h"

/*
 * The static userland a guest of another architecture boots into: Debian's
 * busybox-static for that arch, fetched with apt under a private
 * configuration (its own sources, lists and cache under the work dir,
 * APT::Architectures set to that arch alone), so the system's dpkg
 * architectures are never changed.  Cached as <work>/guest/busybox-<arch>.
 */

/* Debian's name for a kernel arch ("arm64" -> "arm64", "i386" -> "i386"). */
const char *sk_guestland_debian_arch(const char *arch);

/*
 * Is the file at path an ELF executable for arch (x86_64, arm64, i386)?
 * 0 yes; SK_EINVALID naming the machine it is built for.
 */
int sk_guestland_check_elf(const char *path, const char *arch);

/*
 * The private deb822 sources for the fetch, from the system's debian.sources
 * text (NULL: none): the first stanza's URI, first suite and keyring, main
 * only.  Caller frees.
 */
char *sk_guestland_sources(const char *system);

/*
 * The cached busybox for arch under work, fetching it first when missing.
 * *out: the path (caller frees).  A transient index error is retried once;
 * no network or no such package: SK_ETOOL with apt's own words.
 */
int sk_guestland_busybox(char **out, const char *work, const char *arch);

#endif
