#ifndef SK_LAVA_H
#define SK_LAVA_H

#include "gate/boot.h"
#include "gate/qemu.h"
#include "core/strbuf.h"

#include <jansson.h>

/*
 * Guests as LAVA jobs.  A boot that the local runner gives to QEMU is
 * submitted to a LAVA server instead (REST API v0.2, token auth): the
 * kernel and initramfs are published under an artifact URL the workers
 * reach, the job boots them with LAVA's qemu device type, and the
 * serial console is read back from the job's log into the same
 * console.log the local runner writes.  The verdict then comes from the
 * same parser (sk_boot_verdict), so the results and the report do not
 * depend on the runner.
 *
 * The config is git-config syntax (ci/lava/up writes one):
 *
 *	[lava]
 *		url = http://127.0.0.1:8000/
 *		token = <the user's API token>
 *		device-type = qemu
 *		artifacts-dir = /srv/lava-artifacts
 *		artifacts-url = http://files.example.org/lava-artifacts
 *
 * artifacts-url is where the workers fetch what stablekit copies into
 * artifacts-dir (file:// when the workers run on this host).
 */
struct sk_lava {
	char *path;		/* the config file, for messages */
	/*
	 * The server, with a trailing '/' and without the user:pass@ of
	 * lava.url: it is what results, job pages and messages show.  The
	 * credentials, kept apart, go into the requests only.
	 */
	char *url;
	char *userinfo;		/* "user:pass" of lava.url, or NULL */
	char *user;		/* informational */
	char *token;
	char *device_type;
	char *artifacts_dir, *artifacts_url;
	unsigned int queue_timeout_s;	/* lava.queue-timeout: to start */
	unsigned int poll_ms;		/* lava.poll-interval-ms */
};

/* 0, or SK_EINVALID naming the file and key; SK_ENOTFOUND without it. */
int sk_lava_config(struct sk_lava *out, const char *path);
void sk_lava_release(struct sk_lava *l);

/*
 * --runner and --lava-config of a command: "local" (or NULL) is *use 0;
 * "lava" reads config, else $SK_LAVA_CONFIG, else <work>/lava/lava.conf
 * (where ci/lava/up writes it).  SK_EINVALID for an unknown runner.
 */
int sk_lava_runner(struct sk_lava *out, int *use, const char *runner,
		   const char *config, const char *work);

/*
 * The arguments alone, before anything runs: 0, or SK_EINVALID saying
 * what is wrong (an unknown runner, --lava-config without --runner lava):
 * a usage error for the commands.
 */
int sk_lava_check_runner(const char *runner, const char *config);

/* What LAVA said about one boot, kept with the result. */
struct sk_lava_job {
	long id;		/* the last try's */
	char *url;		/* its page */
	char *device;
	char *health;		/* Complete, Incomplete, Canceled */
	char *error_type;	/* Infrastructure, Job, Test, LAVATimeout... */
	char *error_msg;
	unsigned int tries;	/* 2 after an infrastructure retry */
	double queued_s;	/* submit to start, summed over tries */
};

void sk_lava_job_release(struct sk_lava_job *j);
json_t *sk_lava_job_json(const struct sk_lava_job *j);

/*
 * The job definition for a boot (JSON, which is YAML too): deploy to
 * tmpfs, boot method qemu, and a test action whose monitor records the
 * guest's KTAP results in LAVA.  kernel_url and initrd_url are where the
 * worker fetches them.  SK_EINVALID for an arch LAVA's qemu type lacks
 * or a command line that cannot be passed through its shell.
 */
int sk_lava_job_definition(json_t **out, const struct sk_qemu_opts *o,
			   const char *device_type, const char *kernel_url,
			   const char *initrd_url, const char *name);

/*
 * The serial console from a LAVA job log (its YAML, one mapping a line):
 * the "target" and "feedback" messages, one line each, up to the first
 * line of the second boot that follows a done marker (the guest reboots
 * and LAVA boots it again).  Every done marker before that is kept, so
 * the verdict reads the last one, as it does of QEMU's console.
 * SK_EINVALID when the log is not LAVA's format.
 */
int sk_lava_log_console(struct sk_strbuf *out, const char *log, size_t len);

/*
 * Boot as sk_qemu_boot does, on LAVA: out's verdict comes from the
 * console read back into o->log_path.  An infrastructure error is
 * retried once; then the boot is SK_BOOT_ERROR ("not run"), never a
 * pass.  job (may be NULL) gets what LAVA said.
 */
int sk_lava_boot(struct sk_boot_result *out, struct sk_lava_job *job,
		 const struct sk_lava *l, const struct sk_qemu_opts *o,
		 const char *name);

#endif
