#ifndef SK_TREES_H
#define SK_TREES_H

#include <stddef.h>

/*
 * The pinned kernel trees of the embedded default, ci/trees.conf
 * (git-config syntax; the file documents its keys).
 */
enum sk_tree_kind {
	SK_TREE_INSTALLED,	/* a file a Debian package installed */
	SK_TREE_DEB,		/* binary package: usr/src/<package>.tar.xz */
	SK_TREE_ORIG,		/* upstream tarball of a source package */
	SK_TREE_UNSET,
};

struct sk_tree_pin {
	char *version;		/* "7.2.13": the tag is v<version> */
	char *branch;
	enum sk_tree_kind kind;
	char *package, *debversion, *suite, *file, *sha256;
	unsigned long long size;
};

struct sk_trees {
	char *path;
	char *uri, *keyring;	/* [archive] */
	struct sk_tree_pin *v;
	size_t nr;
};

/* Every tree complete and valid, or SK_EINVALID naming file and tree. */
int sk_trees_load(struct sk_trees *out, const char *path);
void sk_trees_release(struct sk_trees *t);
/* By version ("7.2.13") or branch ("linux-7.2.y"); NULL if none. */
const struct sk_tree_pin *sk_trees_find(const struct sk_trees *t,
					const char *name);
/*
 * Is path the pinned file (size, then sha256)?  SK_ENOTFOUND when it is
 * missing, SK_EINVALID with both values when it differs.
 */
int sk_trees_verify_file(const struct sk_tree_pin *p, const char *path);
const char *sk_trees_kind_name(enum sk_tree_kind kind);

#endif
