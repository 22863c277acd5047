#ifndef SK_WORKSPACE_H
#define SK_WORKSPACE_H

#include <stddef.h>

/*
 * The embedded default kernel repository: the pinned trees of
 * ci/trees.conf (project/trees.h) in ONE repository, each tree one commit
 * of its Debian source on its branch, tagged v<version>; blobs that trees
 * share are stored once.  HEAD is the first tree's branch, and the work
 * tree its checkout (kselftest sources, for one).
 *
 * A new workspace is built in a temporary directory beside the target and
 * renamed into place, so it is complete or absent.  A tree added to an
 * existing one writes its objects first and its tag and branch last: a
 * tree is there with both, or not at all.  Every download is fetched and
 * verified before anything is imported.
 */

struct sk_workspace_tree {
	char *version;		/* "7.2.13" */
	char *branch;		/* "linux-7.2.y" */
	char *tag;		/* "v7.2.13" */
	char *source;		/* the file it came from */
	char commit[41];
	int imported;		/* by this call (0: it was there) */
	int cached;		/* its download was there and verified */
	double fetch_s, extract_s, import_s;
	unsigned long nr_files;
};

struct sk_workspace_info {
	char *dir;
	char *head;		/* HEAD's branch */
	struct sk_workspace_tree *trees;	/* the selected ones */
	size_t nr;
	int created;		/* the repository is new */
	size_t imported;	/* trees imported by this call */
};

/* One line of progress ("fetching 7.2.13 ..."), or NULL. */
typedef void (*sk_workspace_progress_cb)(const char *line, void *data);

struct sk_workspace_opts {
	const char *pins;		/* NULL: the shipped ci/trees.conf */
	const char *const *select;	/* versions or branches; NULL: all */
	const char *cache;		/* downloads and apt state; NULL:
					 * beside dir */
	sk_workspace_progress_cb progress;
	void *progress_data;
};

/*
 * Create the workspace at dir with the selected trees, or add those it
 * lacks, or verify those it has (each tree's imported says which).  A
 * directory that exists but is not a git repository is SK_EEXISTS; one
 * whose branch of a tree is not that tree (no tag v<version> at it) is
 * SK_EINVALID.
 */
int sk_workspace_init(struct sk_workspace_info *out, const char *dir,
		      const struct sk_workspace_opts *opts);
void sk_workspace_info_release(struct sk_workspace_info *info);

/* "VERSION = 6" ... from a top-level kernel Makefile: "6.12.118". */
int sk_workspace_kernel_version(char **out, const char *makefile_text);

/* The default location: $SK_WORK/linux, else <top>/work/linux. */
char *sk_workspace_default_dir(const char *top);

/*
 * The pin file: <top>/ci/trees.conf when the project has one, else the
 * shipped one (core/datadir.h).
 */
char *sk_workspace_pins(const char *top);

#endif
