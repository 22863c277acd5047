#ifndef SK_LORE_H
#define SK_LORE_H

#include "mail/mbox.h"

/*
 * The public-inbox server stablekit reads mail from: "[stablekit] lore" in
 * stable/branches.conf, default lore.kernel.org's /all/ inbox.  Every online
 * fetch (b4, through its b4.midmask, b4.linkmask and b4.searchmask) and
 * every search goes there, so lore and any other public-inbox server take
 * the same path.
 */
#define SK_LORE_DEFAULT "https://lore.kernel.org/all/"

/* The configured URL, ending in '/'; SK_EINVALID when it is no http(s) URL. */
int sk_lore_url(char **out, const char *top);

/*
 * Environment entries for a b4 run ("GIT_CONFIG_COUNT=..", GIT_CONFIG_KEY_n,
 * GIT_CONFIG_VALUE_n after any the caller's environment has), pointing b4's
 * masks at url (NULL: the default).  v is NULL-terminated, for sk_run_opts.
 */
struct sk_lore_env {
	char *v[8];
};

void sk_lore_b4_env(struct sk_lore_env *env, const char *url);
void sk_lore_env_release(struct sk_lore_env *env);

/*
 * A public-inbox search (the Xapian query language lore documents), whole
 * threads of the matches (t=1), as mail.  No match is success with no mail.
 * A server that cannot be reached is SK_ETOOL with a message saying so;
 * tmpdir holds the download.  The answer, gzipped and unpacked, is at most
 * SK_LORE_MAX_BYTES each: a larger or endless one is SK_ETOOL, never a
 * full disk or memory.  A mail of the answer that cannot be read (NUL,
 * unknown charset, 8-bit Message-Id) is kept with its error set
 * (sk_mbox_read_file): one such mail is not the end of a search.
 */
#define SK_LORE_MAX_BYTES (512ULL << 20)
int sk_lore_search(struct sk_mbox *out, const char *url, const char *query,
		   const char *tmpdir, unsigned int timeout_ms);

/* "a b" -> "a%20b": every byte but RFC 3986's unreserved ones escaped. */
void sk_lore_urlencode(struct sk_strbuf *out, const char *s);

#endif
