#ifndef SK_FSUTIL_H
#define SK_FSUTIL_H

#include <stddef.h>
#include "strbuf.h"

/* Nothing half-written: write beside the target, fsync, rename into place. */
int sk_write_file_atomic(const char *path, const void *data, size_t len);
int sk_read_file(struct sk_strbuf *out, const char *path);
int sk_mkdir_p(const char *path, int mode);
/* Make a fresh private directory "<parent>/.<prefix>-XXXXXX". */
int sk_mkdtemp_in(char **out, const char *parent, const char *prefix);
/* Remove a tree; a missing path is not an error. */
int sk_rmrf(const char *path);
int sk_path_exists(const char *path);
int sk_is_dir(const char *path);
/* Join two path parts with exactly one slash; caller frees. */
char *sk_path_join(const char *a, const char *b);

#endif
