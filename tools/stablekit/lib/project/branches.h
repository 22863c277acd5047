#ifndef SK_BRANCHES_H
#define SK_BRANCHES_H

#include <stddef.h>

/*
 * The branches stablekit tracks, from stable/branches.conf (git-config
 * syntax):
 *
 *   [stablekit]
 *           repo = ../linux          the kernel repository (optional)
 *           signoff = Name <addr>    the backporter (see identity.h)
 *   [branch "linux-7.1.y"]
 *           repo = ../linux-stable   this branch's repository (optional,
 *                                    relative to the project)
 *           ref = linux-7.1.y        ref in that repository (default: name)
 *           base = v7.1              release tag the branch starts from
 *                                    (required)
 *           kind = stable            mainline | stable | downstream
 *           version = 7.1            default: from base, else from the name
 *           arch = x86_64            one line per arch
 *           select = <series slug>   downstream only: series it takes
 *           allow-pending = true     stable only: queue patches mainline
 *                                    has not taken yet (default false:
 *                                    mainline first, see track.h)
 *
 * Branches keep the order of the file.  An unknown section or key, a bad
 * value (kind, version, arch), a branch without base or whose name is not
 * a valid name (sk_name_check), a section given twice, a key other than
 * arch and select given twice is an error naming file:line.  (That base
 * is an ancestor of ref is checked by the tracker, which walks them.)
 */

enum sk_branch_kind {
	SK_BRANCH_MAINLINE,
	SK_BRANCH_STABLE,
	SK_BRANCH_DOWNSTREAM,
};

struct sk_branch {
	char *name;
	char *ref;
	char *base;		/* NULL: none */
	enum sk_branch_kind kind;
	int major, minor;	/* 0.0 when unknown (mainline) */
	char **arches;
	size_t nr_arches;
	char **selects;
	size_t nr_selects;
	char *repo;		/* NULL: the project's repository */
	int allow_pending;	/* stable: pending patches may be queued */
	int line, base_line;	/* of its section header, of base = */
};

struct sk_branches {
	struct sk_branch *items;
	size_t nr, alloc;
	char *repo;		/* [stablekit] repo, as written, or NULL */
	char *distcc_hosts;	/* [build] distcc-hosts, checked, or NULL */
	char *path;		/* the file they were read from */
};

#define SK_BRANCHES_CONF "stable/branches.conf"

/* Load <path>; SK_ENOTFOUND if the file does not exist. */
int sk_branches_load(struct sk_branches *out, const char *path);
void sk_branches_release(struct sk_branches *b);
struct sk_branch *sk_branches_find(struct sk_branches *b, const char *name);
/*
 * 0 when name is a configured branch; else SK_ENOTFOUND, the message naming
 * the branches there are (commands exit 129: a bad argument).
 */
int sk_branches_require(struct sk_branches *b, const char *name);
int sk_branch_selects(const struct sk_branch *br, const char *slug);

const char *sk_branch_kind_name(enum sk_branch_kind kind);
int sk_branch_kind_parse(enum sk_branch_kind *out, const char *s);

/*
 * "v7.1", "7.1", "v6.12.117", "linux-7.1.y", "7.2.x", "queue-6.1":
 * the first "X.Y" in s.  SK_EINVALID when there is none.
 */
int sk_version_parse(int *major, int *minor, const char *s);
/* <0, 0, >0 as strcmp. */
int sk_version_cmp(int amaj, int amin, int bmaj, int bmin);

#endif
