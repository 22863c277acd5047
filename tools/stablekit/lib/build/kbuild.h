#ifndef SK_KBUILD_H
#define SK_KBUILD_H

#include <stddef.h>
#include <jansson.h>
#include "core/arch.h"
#include "core/strbuf.h"

/*
 * The pure parts of `stablekit build`: the arches it knows, the files and
 * objects a quilt queue touches, compiler diagnostics read from a kbuild
 * log, their comparison between a baseline and a patched build, the
 * allow-list of ci/build-allowlist and the TuxMake-like metadata.json.
 * Running make lives in build.[ch].
 */

/* One compiler diagnostic. */
struct sk_kbuild_diag {
	char *file;		/* relative to the source tree */
	unsigned int line, column;
	char *function;		/* from "In function 'f':", or NULL */
	char *severity;		/* "warning" or "error" */
	char *message;		/* text, with the [-Wflag] */
};

struct sk_kbuild_diags {
	struct sk_kbuild_diag *items;
	size_t nr, alloc;
};

void sk_kbuild_diags_release(struct sk_kbuild_diags *d);

/*
 * Diagnostics of a kbuild log, in order, duplicates (the same file:line:
 * column and text) dropped.  strip: path prefixes to remove ("/src/",
 * "/out/"), NULL-terminated, or NULL.
 */
int sk_kbuild_parse_log(struct sk_kbuild_diags *out, const char *log,
			const char *const *strip);
size_t sk_kbuild_count(const struct sk_kbuild_diags *d, const char *severity);

/*
 * The warnings of patched not in base.  Two warnings are the same when file,
 * function and text agree: a patch that moves lines does not make old
 * warnings new.  A key present n times in base and m > n times in patched
 * gives its last m - n occurrences.  out holds copies.
 */
int sk_kbuild_new_warnings(struct sk_kbuild_diags *out,
			   const struct sk_kbuild_diags *base,
			   const struct sk_kbuild_diags *patched);

/*
 * ci/build-allowlist: one entry a line, "<arch> <file> <text>", each a glob
 * in which only '*' is special (any run of characters, '/' included), so
 * that "[-Wflag]" is literal; <arch> "*" for every arch; <text> is the rest
 * of the line, matched against the whole message.  '#' starts a comment.
 */
int sk_kbuild_glob(const char *pattern, const char *s);
struct sk_kbuild_allow_entry {
	char *arch, *file, *text;
	unsigned int lineno;
};

struct sk_kbuild_allowlist {
	struct sk_kbuild_allow_entry *items;
	size_t nr, alloc;
};

/* SK_EINVALID with file:line for a malformed line. */
int sk_kbuild_allowlist_parse(struct sk_kbuild_allowlist *out,
			      const char *text, const char *name);
/* A missing file is an empty list. */
int sk_kbuild_allowlist_load(struct sk_kbuild_allowlist *out, const char *path);
void sk_kbuild_allowlist_release(struct sk_kbuild_allowlist *a);
int sk_kbuild_allowed(const struct sk_kbuild_allowlist *a, const char *arch,
		      const struct sk_kbuild_diag *d);

/*
 * The files a queued patch touches, both sides of every file of its diff
 * (lib/core/diff.h: git or quilt style), appended to *files unless already
 * there.  A diff that does not parse or names an unsafe path fails with
 * "source:line: ...": the queue's undo rewrites and removes these paths.
 */
int sk_kbuild_patch_files(char ***files, size_t *nr, size_t *alloc,
			  const char *patch, const char *source);
/*
 * The objects to build for arch from the touched files: every .c or .S
 * outside arch/ or under arch/<srcarch>/, as .o; a file under scripts/,
 * tools/, Documentation/ or usr/ is no kernel object.
 */
void sk_kbuild_objects(char ***objs, size_t *nr, size_t *alloc,
		       const struct sk_arch *arch, char *const *files,
		       size_t nr_files);
json_t *sk_kbuild_diag_json(const struct sk_kbuild_diag *d);
json_t *sk_kbuild_diags_json(const struct sk_kbuild_diags *d,
			     const char *severity);


/*
 * 0 when kbuild can take path as its source or object tree; SK_EINVALID
 * naming it when it has white space: kbuild splits $(srctree) and
 * $(objtree) there, and builds in the first word's directory.
 */
int sk_kbuild_check_path(const char *path);

#endif
