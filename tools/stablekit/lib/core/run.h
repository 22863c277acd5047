#ifndef SK_RUN_H
#define SK_RUN_H

#include "core/strbuf.h"

/*
 * Run an external tool (b4, quilt, spatch, make, qemu, git) by argv with a
 * hard timeout.  Never through a shell.  The child gets its own process
 * group, so a timeout kills everything it started.
 */
enum sk_run_flags {
	SK_RUN_CAPTURE_OUT = 1 << 0,	/* collect stdout in result.out */
	SK_RUN_CAPTURE_ERR = 1 << 1,	/* collect stderr in result.err */
	SK_RUN_MERGE_ERR = 1 << 2,	/* stderr goes where stdout goes */
	SK_RUN_QUIET = 1 << 3,		/* uncaptured output goes to /dev/null */
};

struct sk_run_opts {
	const char *const *argv;
	const char *cwd;		/* NULL: inherit */
	const char *const *env;		/* extra "NAME=value" entries, or NULL */
	const char *stdin_path;		/* NULL: /dev/null */
	const char *stdout_path;	/* write stdout to this file (created) */
	const char *stderr_path;	/* stderr to this file, as it comes */
	unsigned int timeout_ms;	/* 0: no limit */
	unsigned int flags;
	/*
	 * 0: no limit; else no file the tool writes may grow past this many
	 * bytes (its RLIMIT_FSIZE, set by prlimit(1) before the tool runs):
	 * a server's endless answer stops the tool instead of filling the
	 * disk.
	 */
	unsigned long long max_file_bytes;
};

struct sk_run_result {
	int exit_code;		/* exit status, or 128 + signal */
	int timed_out;
	double seconds;
	struct sk_strbuf out;
	struct sk_strbuf err;
};

#define SK_RUN_RESULT_INIT { 0, 0, 0.0, SK_STRBUF_INIT, SK_STRBUF_INIT }

/*
 * Returns 0 when the tool ran (whatever its exit code), SK_ETOOL when it
 * could not be started or was stopped at max_file_bytes, SK_ETIMEOUT when
 * it was killed at the limit.
 */
int sk_run(struct sk_run_result *out, const struct sk_run_opts *opts);
void sk_run_result_release(struct sk_run_result *res);

/* Is an executable called name on PATH? */
int sk_run_have(const char *name);

/* Seconds on the monotonic clock: for durations, never for dates. */
double sk_now(void);

/*
 * A growable argv, NULL-terminated at every step (v is NULL before the
 * first push): no fixed-size array that truncates silently.  Strings pushed
 * with sk_argv_pushf are owned by the argv and freed with it.
 */
struct sk_argv {
	const char **v;
	size_t nr, alloc;
	char **owned;
	size_t nr_owned, alloc_owned;
};

#define SK_ARGV_INIT { NULL, 0, 0, NULL, 0, 0 }

void sk_argv_push(struct sk_argv *a, const char *arg);
/* Push every string of a NULL-terminated list. */
void sk_argv_pushv(struct sk_argv *a, const char *const *args);
const char *sk_argv_pushf(struct sk_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sk_argv_release(struct sk_argv *a);

/*
 * Signals.  sk_run_signals_init(), called by main() before any thread
 * starts, blocks SIGINT, SIGTERM and SIGHUP (those not ignored) in every
 * thread and starts one thread that waits for them.  On one it:
 *   - lets no new child start,
 *   - sends SIGTERM to the process group of every running child (make,
 *     qemu, spatch, quilt, b4, a stablekit of the gate), and SIGKILL to
 *     the groups still there after SK_RUN_GRACE_MS; a stablekit run by a
 *     stablekit (SK_RUN_DEPTH in its environment, which sk_run sets) waits
 *     half as long as its parent, so that it is done with its own children
 *     before the parent would SIGKILL it,
 *   - removes the temporary directories of sk_mkdtemp_in (fsutil.h),
 *   - exits 128 + the signal: 130 for SIGINT, 143 for SIGTERM, 129 for
 *     SIGHUP.
 * A thread that is in sk_run then (or calls it later) never returns from
 * it, so nothing acts on the result of a killed child.  Children start with
 * no signal blocked.  Without this call (unit tests, other programs) sk_run
 * only tracks its children.
 */
#define SK_RUN_GRACE_MS 2000
int sk_run_signals_init(void);

/* The pids (= process groups) of the running children, for tests. */
size_t sk_run_children(int *pids, size_t max);

#endif
