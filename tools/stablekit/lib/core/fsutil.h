#ifndef SK_FSUTIL_H
#define SK_FSUTIL_H

#include <stddef.h>
#include "core/strbuf.h"

/* Nothing half-written: write beside the target, fsync, rename into place. */
int sk_write_file_atomic(const char *path, const void *data, size_t len);
int sk_read_file(struct sk_strbuf *out, const char *path);
/* from's content to to, as sk_write_file_atomic writes it. */
int sk_copy_file(const char *from, const char *to);
int sk_mkdir_p(const char *path, int mode);
/*
 * Make a fresh private directory "<parent>/.<prefix>-<pid>-XXXXXX".  It is
 * registered until sk_rmrf removes it (or it is renamed away), and a signal
 * removes every registered one (run.h, sk_run_signals_init).  A process
 * killed with SIGKILL cannot clean up: the next sk_mkdtemp_in of the same
 * prefix in the same parent removes the directories "<prefix>-<pid>-*"
 * whose pid is no longer a process (of this pid namespace: a parent shared
 * with processes of another pid namespace is not supported).
 */
int sk_mkdtemp_in(char **out, const char *parent, const char *prefix);
/* Remove every registered temporary directory; returns how many existed. */
size_t sk_tempdirs_remove(void);
/* $TMPDIR when it is an absolute path, else /tmp. */
const char *sk_tmp_dir(void);
/* Remove a tree; a missing path is not an error. */
int sk_rmrf(const char *path);
int sk_path_exists(const char *path);
int sk_is_dir(const char *path);
/*
 * The project's lock, <top>/.stablekit.lock (flock, held until the process
 * exits), for commands that write series/ or stable/.  When another process
 * holds it: SK_EEXISTS, "another stablekit (pid N) holds <path>"; nothing
 * waits.  Taking it twice in one process is a no-op.
 */
#define SK_PROJECT_LOCK ".stablekit.lock"
int sk_project_lock(const char *top);
/*
 * Exchange two directories in one step (renameat2 RENAME_EXCHANGE): a
 * reader of either path never finds it missing.  A file system that cannot
 * (EINVAL) is an error that says so; nothing is moved then.
 */
int sk_dir_swap(const char *a, const char *b);
/* Join two path parts with exactly one slash; caller frees. */
/* The last component of path (after the last '/'), within path. */
const char *sk_path_basename(const char *path);
char *sk_path_join(const char *a, const char *b);

/*
 * When process pid started, in seconds since the epoch (its start time in
 * clock ticks since boot, /proc/<pid>/stat, plus the boot time); -1 when
 * there is no such process.  A temporary directory named for a pid whose
 * process started after the directory's last change belongs to an earlier
 * process of that pid: pids wrap within seconds on a busy machine.
 */
double sk_process_start(long pid);

#endif
