#ifndef SK_BOOT_H
#define SK_BOOT_H

#include <stddef.h>
#include <jansson.h>

/*
 * What a boot said, whoever ran it (QEMU here or a LAVA worker): the
 * guest's /init prints SK_BOOT_MARK_START and SK_BOOT_MARK_DONE "rc=N"
 * and reboots.  An oops, BUG, WARNING, lockdep report or panic in the log
 * is a failure, and so is a guest rc other than the one expected: /init
 * reports rc=127 when it has no /stablekit/job and 126 when the job
 * cannot be run, so a guest that ran nothing never passes.  Both runners
 * read the console through sk_boot_verdict, so they cannot disagree.
 */
#define SK_BOOT_MARK_START "stablekit-guest: start"
#define SK_BOOT_MARK_DONE "stablekit-guest: done"

enum sk_boot_accel { SK_BOOT_AUTO = 0, SK_BOOT_TCG, SK_BOOT_KVM };

enum sk_boot_status {
	SK_BOOT_OK = 0,		/* reached the done marker, no splat */
	SK_BOOT_SPLAT,		/* an oops, BUG, WARNING, lockdep, panic */
	SK_BOOT_TIMEOUT,	/* killed at the limit */
	SK_BOOT_NO_MARKER,	/* the guest stopped before the done marker */
	SK_BOOT_ERROR,		/* the runner could not run */
	SK_BOOT_GUEST_FAIL,	/* the done marker with an unexpected rc */
};

struct sk_boot_splat {
	const char *kind;	/* "oops", "BUG", "WARNING", "lockdep", ... */
	char *line;		/* the line, trimmed */
	unsigned int lineno;	/* 1-based */
};

struct sk_boot_result {
	enum sk_boot_status status;
	enum sk_boot_accel accel;	/* what was used */
	int exit_code;		/* QEMU's */
	int guest_rc;		/* from the done marker, -1 if none */
	double seconds;
	struct sk_boot_splat splat;	/* the first, when status is SPLAT */
	char *reason;		/* one line for reports, never NULL after boot */
	json_t *lava;		/* LAVA's job (sk_lava_job_json), when LAVA ran it */
};

const char *sk_boot_status_name(enum sk_boot_status s);
const char *sk_boot_accel_name(enum sk_boot_accel a);

/*
 * Scan a console log for the first kernel splat.  Returns 1 and fills out
 * (free with sk_boot_splat_release) when found, 0 when the log is clean.
 */
int sk_boot_scan_log(struct sk_boot_splat *out, const char *log, size_t len);
void sk_boot_splat_release(struct sk_boot_splat *s);

/*
 * The verdict of a boot that ran, from its console log: TIMEOUT when it
 * was killed at timeout_s, else the first splat, else no done marker
 * (exit and err say why the runner stopped), else a guest rc other than
 * expect_rc, else OK.  Sets out's status, guest_rc, splat and reason.
 */
void sk_boot_verdict(struct sk_boot_result *out, const char *log, size_t len,
		     int timed_out, unsigned int timeout_s, int exit,
		     const char *err, int expect_rc);

void sk_boot_result_release(struct sk_boot_result *r);
/* The JSON of a boot. */
json_t *sk_boot_result_json(const struct sk_boot_result *r);

#endif
