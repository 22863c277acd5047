#ifndef SK_NAMES_H
#define SK_NAMES_H

#include <stddef.h>

/*
 * Names that become one path component: series names (series/<name>/),
 * branch names (stable/<branch>/, work/results/<branch>/) and quilt queue
 * entries (stable/<branch>/<entry>).  One check for all of them, so that no
 * name can leave its directory or hide in it.
 *
 * A name is 1..200 bytes of [A-Za-z0-9._+-], does not start with '.' or '-',
 * and does not end with ".lock" (git's rule, and our own lock files).
 * Returns 0, or SK_EINVALID with a message naming kind and name.
 */
int sk_name_check(const char *kind, const char *name);

/*
 * One line of a quilt series file (stable/<branch>/series), len bytes
 * without its newline: the one reader of a queue's series for build, port
 * and the quilt proof.  *entry gets the patch the line lists (allocated),
 * or NULL for a blank line or a comment ('#' in the first column).  Blanks
 * before the entry are skipped, as quilt skips them; the entry must pass
 * sk_name_check (it names a file beside the series file, nothing else).
 * After it, only a comment or quilt's default "-p1" may follow: quilt
 * honours per-patch options such as -p2 or -R, stablekit applies and
 * checks every patch with -p1 forward, so a line with any other option is
 * refused rather than pushed differently from what was checked.
 * Errors are SK_EINVALID, naming file (as the caller shows it) and line.
 */
int sk_name_series_line(char **entry, const char *line, size_t len,
			const char *file, unsigned long lineno);

/*
 * Every entry of series file text (NUL-terminated), checked line by line
 * with sk_name_series_line.  *names (sk_strvec_free_array) and *nr are
 * set; on an error nothing is returned.
 */
int sk_name_series(char ***names, size_t *nr, const char *text,
		   const char *file);

#endif
