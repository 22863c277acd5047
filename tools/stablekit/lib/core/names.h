#ifndef SK_NAMES_H
#define SK_NAMES_H

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

#endif
