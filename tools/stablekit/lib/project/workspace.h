#ifndef SK_WORKSPACE_H
#define SK_WORKSPACE_H

/*
 * The embedded default kernel repository: Debian's linux-source-6.12
 * tarball committed as one commit on branch linux-6.12.y, tagged
 * v6.12.<sublevel>.  Built in a temporary directory beside the target and
 * renamed into place, so a workspace is either complete or absent.
 */

#define SK_WORKSPACE_SOURCE "/usr/src/linux-source-6.12.tar.xz"
#define SK_WORKSPACE_BRANCH "linux-6.12.y"

struct sk_workspace_info {
	char *dir;
	char *branch;		/* "linux-6.12.y" */
	char *tag;		/* "v6.12.117" */
	char commit[41];
	int created;		/* 0: it was already there */
	double extract_s, index_s, commit_s;
	unsigned long nr_files;
};

/* Progress reports, or NULL: phase ("extract", "index", ...) and counts. */
typedef void (*sk_workspace_progress_cb)(const char *phase, unsigned long done,
					  unsigned long total, void *data);

struct sk_workspace_opts {
	const char *source;		/* NULL: SK_WORKSPACE_SOURCE */
	const char *branch;		/* NULL: SK_WORKSPACE_BRANCH */
	sk_workspace_progress_cb progress;
	void *progress_data;
};

/*
 * Create the workspace at dir, or verify the one there (branch and tag
 * exist, HEAD is the branch): out->created says which.  A directory that
 * exists but is not such a workspace is SK_EEXISTS.
 */
int sk_workspace_init(struct sk_workspace_info *out, const char *dir,
		      const struct sk_workspace_opts *opts);
/* Verify only; SK_ENOTFOUND when dir holds no workspace. */
int sk_workspace_verify(struct sk_workspace_info *out, const char *dir,
			const char *branch);
void sk_workspace_info_release(struct sk_workspace_info *info);

/* "VERSION = 6" ... from a top-level kernel Makefile: "6.12.117". */
int sk_workspace_kernel_version(char **out, const char *makefile_text);

/* The default location: $SK_WORK/linux, else <top>/work/linux. */
char *sk_workspace_default_dir(const char *top);

#endif
