#ifndef SK_QUILT_H
#define SK_QUILT_H

#include "core/strbuf.h"

/*
 * Prove a quilt queue with real quilt: in workdir (the branch's files),
 * `quilt push -a` of patches_dir/series must succeed; then every patch is
 * pushed again one by one and refreshed (-p ab, no timestamps, no index
 * lines, with a diffstat), so the queue holds exactly what quilt applied.
 * log receives quilt's output.  SK_ECONFLICT when a patch does not push.
 * The quilt state of an earlier proof in workdir (.pc) is removed first:
 * the caller resets the files themselves.
 */
int sk_quilt_prove(struct sk_strbuf *log, const char *workdir,
		   const char *patches_dir, unsigned int timeout_ms);

/*
 * The patch names listed in a series file (comments and blanks skipped),
 * each checked by sk_name_series_line; no file is no patch.
 */
int sk_quilt_series(char ***out, size_t *nr, const char *series_file);

#endif
