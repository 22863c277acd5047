#ifndef SK_APTFETCH_H
#define SK_APTFETCH_H

#include "core/strbuf.h"
#include "project/trees.h"

/*
 * Downloads of pinned trees from a Debian archive through a private apt
 * configuration in dir ($SK_WORK/apt): its own sources (the pins' URI,
 * keyring and suites, deb and deb-src), lists and cache.  The machine's
 * apt sources, lists, cache and dpkg architectures are never touched.
 */
struct sk_aptfetch {
	char *dir;
	const struct sk_trees *trees;
	int updated;		/* apt-get update ran in this process */
};

void sk_aptfetch_init(struct sk_aptfetch *a, const char *dir,
		      const struct sk_trees *trees);
void sk_aptfetch_release(struct sk_aptfetch *a);

/*
 * The pinned download of p in dldir, fetched unless a verified copy is
 * there (*cached says which).  A version the archive no longer lists is
 * SK_ENOTFOUND naming the versions it lists now; a download that is not
 * the pinned file is SK_EINVALID, and is not kept.
 */
int sk_aptfetch_get(struct sk_aptfetch *a, const struct sk_tree_pin *p,
		    const char *dldir, char **path, int *cached);

/* The versions of package the archive lists ("7.2.13-1 7.2.14-1"). */
int sk_aptfetch_versions(struct sk_aptfetch *a, struct sk_strbuf *out,
			 const char *package, int source);

#endif
