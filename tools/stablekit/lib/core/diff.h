#ifndef SK_DIFF_H
#define SK_DIFF_H

#include <stddef.h>

/*
 * One parsed, validated diff: the only reader of diff text in stablekit.
 * It takes what `git format-patch` writes ("diff --git" headers, modes,
 * renames, copies, binary markers) and what quilt and the stable review
 * mails carry (only "--- a/file" and "+++ b/file" before the hunks).
 *
 * Every path is checked once, here: relative, no "." "..", ".git" or empty
 * component, no control character or backslash, no quoted name; the
 * ---/+++ paths of a git diff must be those of its "diff --git" line.
 * "rename from/to" and "copy from/to" are checked the same way.  A diff of
 * a symbolic link (mode 120000) is refused unless the caller asks for it,
 * and so is a submodule (mode 160000).  Hunk headers are read with
 * overflow checks and every hunk must hold the lines its header counts.
 * Errors name the source and the line: "series.mbox:330: ...".
 */

enum sk_diff_file_flags {
	SK_DIFF_GIT = 1 << 0,		/* had a "diff --git" header */
	SK_DIFF_NEW = 1 << 1,
	SK_DIFF_DELETED = 1 << 2,
	SK_DIFF_RENAME = 1 << 3,
	SK_DIFF_COPY = 1 << 4,
	SK_DIFF_BINARY = 1 << 5,
	SK_DIFF_SYMLINK = 1 << 6,	/* either side has mode 120000 */
	SK_DIFF_MODE = 1 << 7,		/* the mode changes */
};

enum sk_diff_parse_flags {
	SK_DIFF_ALLOW_SYMLINK = 1 << 0,
};

/* Hunk header numbers above this are refused. */
#define SK_DIFF_MAX_LINE 2147483647L

struct sk_diff_line {
	char origin;		/* ' ', '-' or '+' */
	unsigned int no_newline : 1;	/* "\ No newline at end of file" */
	char *text;		/* without origin and LF */
	size_t len;
};

struct sk_diff_hunk {
	long old_start, old_count, new_start, new_count;
	char *funcname;		/* what follows the closing "@@", or NULL */
	size_t line;		/* of the "@@" line in the source */
	size_t begin, end;	/* byte offsets of the hunk in the text */
	struct sk_diff_line *lines;
	size_t nr_lines, alloc_lines;
};

struct sk_diff_file {
	char *old_path, *new_path;	/* NULL for /dev/null */
	unsigned int old_mode, new_mode;	/* 0 when the diff gives none */
	unsigned int flags;
	/* the "index <old>..<new>" blob ids as written (abbreviated); "": none */
	char old_blob[41], new_blob[41];
	size_t line;		/* first line of its header in the source */
	size_t begin, end;	/* byte offsets of the file's part of the text */
	struct sk_diff_hunk *hunks;
	size_t nr_hunks, alloc_hunks;
};

struct sk_diff {
	struct sk_diff_file *files;
	size_t nr, alloc;
};

/*
 * Parse len bytes of text whose first line is line first_line of source.
 * Text before the first file and between files is ignored, as git apply
 * and patch ignore it.  Returns 0 or SK_EINVALID (the diff is released).
 */
int sk_diff_parse(struct sk_diff *out, const char *text, size_t len,
		  const char *source, size_t first_line, unsigned int flags);
void sk_diff_release(struct sk_diff *d);

/* Is len bytes of path a safe relative path inside a tree? */
int sk_diff_path_ok(const char *path, size_t len);

/*
 * The first line of text where a diff starts: "diff --git ", or a
 * "--- " line followed by "+++ " and "@@ -" lines.  NULL when none.
 */
const char *sk_diff_find(const char *text);

enum sk_diff_paths_flags {
	SK_DIFF_PATHS_OLD = 1 << 0,	/* the old side's paths too */
};
/*
 * The paths the diff writes (new side; with SK_DIFF_PATHS_OLD the old
 * side too), appended to *paths unless already there.
 */
void sk_diff_paths(char ***paths, size_t *nr, size_t *alloc,
		   const struct sk_diff *d, unsigned int flags);

/*
 * The diff as git writes it, for libgit2 (patch-ids, git apply): a file
 * read from a "diff --git" header is copied as it is; a quilt-style one
 * gets a "diff --git" header (and new/deleted file mode lines) and loses
 * its timestamps.  text is what d was parsed from.
 */
struct sk_strbuf;
void sk_diff_to_git(struct sk_strbuf *out, const char *text,
		    const struct sk_diff *d);
/* Does d need sk_diff_to_git for libgit2 (a file without "diff --git")? */
int sk_diff_has_quilt(const struct sk_diff *d);

/*
 * Does path, relative to dir, stay inside dir on disk: no component that
 * exists is a symbolic link?  0 or SK_EINVALID naming the link.
 */
int sk_diff_check_inside(const char *dir, const char *path);

#endif
