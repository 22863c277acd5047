#ifndef SK_QEMU_H
#define SK_QEMU_H

#include <stddef.h>

/*
 * Boot a kernel in QEMU with the serial console captured to a log and a
 * hard limit: a guest that does not finish in time is killed (with its
 * process group) and recorded as TIMEOUT.  The guest's /init prints
 * SK_QEMU_MARK_START and SK_QEMU_MARK_DONE "rc=N" and reboots; with
 * -no-reboot QEMU then exits.  An oops, BUG, WARNING, lockdep report or
 * panic in the log is a failure, and so is a guest rc other than the one
 * expected: /init reports rc=127 when it has no /stablekit/job and 126
 * when the job cannot be run, so a guest that ran nothing never passes.
 */
#define SK_QEMU_MARK_START "stablekit-guest: start"
#define SK_QEMU_MARK_DONE "stablekit-guest: done"

enum sk_qemu_accel { SK_QEMU_AUTO = 0, SK_QEMU_TCG, SK_QEMU_KVM };

enum sk_qemu_status {
	SK_BOOT_OK = 0,		/* reached the done marker, no splat */
	SK_BOOT_SPLAT,		/* an oops, BUG, WARNING, lockdep, panic */
	SK_BOOT_TIMEOUT,	/* killed at the limit */
	SK_BOOT_NO_MARKER,	/* QEMU exited before the done marker */
	SK_BOOT_ERROR,		/* QEMU could not run */
	SK_BOOT_GUEST_FAIL,	/* the done marker with an unexpected rc */
};

struct sk_qemu_opts {
	const char *arch;	/* x86_64, i386, arm64 */
	const char *kernel;	/* NULL: firmware only (never finishes) */
	const char *initrd;
	const char *append;	/* added to the command line */
	const char *log_path;	/* the serial console, required */
	unsigned int memory_mb;	/* 0: 1024 */
	unsigned int cpus;	/* 0: 2 */
	unsigned int timeout_s;	/* 0: 600 */
	enum sk_qemu_accel accel;
	int expect_rc;		/* the guest rc of an ok boot (0) */
};

struct sk_qemu_splat {
	const char *kind;	/* "oops", "BUG", "WARNING", "lockdep", ... */
	char *line;		/* the line, trimmed */
	unsigned int lineno;	/* 1-based */
};

struct sk_lava_job;

struct sk_qemu_result {
	enum sk_qemu_status status;
	enum sk_qemu_accel accel;	/* what was used */
	int exit_code;		/* QEMU's */
	int guest_rc;		/* from the done marker, -1 if none */
	double seconds;
	struct sk_qemu_splat splat;	/* the first, when status is SPLAT */
	char *reason;		/* one line for reports, never NULL after boot */
	struct sk_lava_job *lava;	/* the job, when LAVA ran the boot */
};

const char *sk_qemu_status_name(enum sk_qemu_status s);
const char *sk_qemu_accel_name(enum sk_qemu_accel a);

/* The QEMU binary for an arch, or NULL when the arch is unknown. */
const char *sk_qemu_binary(const char *arch);

/*
 * Scan a console log for the first kernel splat.  Returns 1 and fills out
 * (free with sk_qemu_splat_release) when found, 0 when the log is clean.
 */
int sk_qemu_scan_log(struct sk_qemu_splat *out, const char *log, size_t len);
void sk_qemu_splat_release(struct sk_qemu_splat *s);

/*
 * The verdict of a boot that ran, from its console log: TIMEOUT when it
 * was killed at timeout_s, else the first splat, else no done marker
 * (qemu_exit and qemu_err say why), else a guest rc other than expect_rc,
 * else OK.  Sets out's status, guest_rc, splat and reason.
 */
void sk_qemu_verdict(struct sk_qemu_result *out, const char *log, size_t len,
		     int timed_out, unsigned int timeout_s, int qemu_exit,
		     const char *qemu_err, int expect_rc);

/*
 * Boot.  Returns 0 when QEMU ran (see out->status for the verdict),
 * SK_EINVALID for bad options, SK_ETOOL when QEMU is missing.  With
 * SK_QEMU_AUTO, KVM is used when a short probe boot with it reaches the
 * start marker (once per process), otherwise TCG.
 */
int sk_qemu_boot(struct sk_qemu_result *out, const struct sk_qemu_opts *o);
void sk_qemu_result_release(struct sk_qemu_result *r);

/* Does KVM work for this kernel and initrd?  1 yes, 0 no (cached). */
int sk_qemu_kvm_works(const struct sk_qemu_opts *o);

#endif
