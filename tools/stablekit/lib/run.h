#ifndef SK_RUN_H
#define SK_RUN_H

#include "strbuf.h"

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
	unsigned int timeout_ms;	/* 0: no limit */
	unsigned int flags;
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
 * could not be started, SK_ETIMEOUT when it was killed at the limit.
 */
int sk_run(struct sk_run_result *out, const struct sk_run_opts *opts);
void sk_run_result_release(struct sk_run_result *res);

/* Is an executable called name on PATH? */
int sk_run_have(const char *name);

#endif
