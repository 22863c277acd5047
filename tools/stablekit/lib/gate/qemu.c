#include "gate/qemu.h"
#include "gate/lava.h"
#include "core/arch.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const status_names[] = {
	[SK_BOOT_OK] = "ok",
	[SK_BOOT_SPLAT] = "splat",
	[SK_BOOT_TIMEOUT] = "timeout",
	[SK_BOOT_NO_MARKER] = "no-marker",
	[SK_BOOT_ERROR] = "error",
	[SK_BOOT_GUEST_FAIL] = "guest-fail",
};

const char *sk_qemu_status_name(enum sk_qemu_status s)
{
	return (size_t)s < sizeof(status_names) / sizeof(status_names[0]) &&
	       status_names[s] ? status_names[s] : "?";
}

const char *sk_qemu_accel_name(enum sk_qemu_accel a)
{
	return a == SK_QEMU_KVM ? "kvm" : a == SK_QEMU_TCG ? "tcg" : "auto";
}

/* An arch QEMU boots: x86_64 when none is named; aarch64 is arm64. */
static const struct sk_arch *find_arch(const char *arch)
{
	const struct sk_arch *a;

	if (!arch)
		arch = "x86_64";
	if (!strcmp(arch, "aarch64"))
		arch = "arm64";
	a = sk_arch_find(arch);
	return a && a->qemu_binary ? a : NULL;
}

const char *sk_qemu_binary(const char *arch)
{
	const struct sk_arch *a = find_arch(arch);

	return a ? a->qemu_binary : NULL;
}

/* Patterns at the start of a kernel line, after the "[ time] " stamp. */
static const struct {
	const char *prefix, *kind;
} splats[] = {
	{ "WARNING: possible circular locking", "lockdep" },
	{ "WARNING: possible recursive locking", "lockdep" },
	{ "WARNING: inconsistent lock state", "lockdep" },
	{ "WARNING: bad unlock balance", "lockdep" },
	{ "WARNING: suspicious RCU usage", "lockdep" },
	{ "WARNING: lock held when returning", "lockdep" },
	{ "WARNING: held lock freed", "lockdep" },
	{ "WARNING: possible irq lock inversion", "lockdep" },
	{ "WARNING:", "WARNING" },
	{ "BUG:", "BUG" },
	{ "kernel BUG at", "BUG" },
	{ "watchdog: BUG:", "BUG" },
	{ "Oops:", "oops" },
	{ "Internal error: Oops", "oops" },
	{ "general protection fault", "oops" },
	{ "Unable to handle kernel", "oops" },
	{ "UBSAN:", "UBSAN" },
	{ "Kernel panic - not syncing", "panic" },
	{ "INFO: task ", "hung task" },
	{ "INFO: rcu_", "rcu stall" },
	{ "rcu: INFO: rcu_", "rcu stall" },
};

/* "[   12.345678] ": the printk time stamp; *after is past it. */
static int is_stamp(const char *p, const char **after)
{
	if (*p++ != '[')
		return 0;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (*p++ != ']')
		return 0;
	if (*p == ' ')
		p++;
	*after = p;
	return 1;
}

static const char *match_at(const char *msg, const char **kind)
{
	size_t i;

	if (msg[0] == '<' && msg[1] && msg[2] == '>')
		msg += 3;
	for (i = 0; i < sizeof(splats) / sizeof(splats[0]); i++) {
		if (!strncmp(msg, splats[i].prefix, strlen(splats[i].prefix))) {
			*kind = splats[i].kind;
			return msg;
		}
	}
	return NULL;
}

/*
 * Where the kernel message in a line starts, or NULL if none matches: at
 * the start of the line, or after a time stamp in the middle of someone
 * else's output.
 */
static const char *match_splat(const char *s, const char **kind)
{
	const char *after, *msg, *p;

	msg = match_at(is_stamp(s, &after) ? after : s, kind);
	if (msg || !*s)
		return msg;
	for (p = strchr(s + 1, '['); p; p = strchr(p + 1, '['))
		if (is_stamp(p, &after) && (msg = match_at(after, kind)))
			return msg;
	return NULL;
}

int sk_qemu_scan_log(struct sk_qemu_splat *out, const char *log, size_t len)
{
	struct sk_strbuf line = SK_STRBUF_INIT;
	unsigned int lineno = 0;
	size_t i = 0, j;
	int found = 0;

	memset(out, 0, sizeof(*out));
	while (i < len && !found) {
		const char *kind, *msg;
		size_t e = i;

		while (e < len && log[e] != '\n')
			e++;
		sk_strbuf_reset(&line);
		for (j = i; j < e; j++)
			if (log[j] != '\r' && log[j] != '\0')
				sk_strbuf_addch(&line, log[j]);
		sk_strbuf_rtrim(&line);
		lineno++;
		msg = match_splat(line.buf, &kind);
		if (msg) {
			out->kind = kind;
			out->line = sk_xstrdup(msg);
			out->lineno = lineno;
			found = 1;
		}
		i = e + 1;
	}
	sk_strbuf_release(&line);
	return found;
}

void sk_qemu_splat_release(struct sk_qemu_splat *s)
{
	if (!s)
		return;
	free(s->line);
	memset(s, 0, sizeof(*s));
}

void sk_qemu_result_release(struct sk_qemu_result *r)
{
	if (!r)
		return;
	sk_qemu_splat_release(&r->splat);
	free(r->reason);
	r->reason = NULL;
	sk_lava_job_release(r->lava);
	free(r->lava);
	r->lava = NULL;
}

static void make_argv(struct sk_argv *a, const struct sk_arch *ai,
		      const struct sk_qemu_opts *o, enum sk_qemu_accel accel,
		      const char *extra_append)
{
	sk_argv_pushv(a, (const char *const[]){ ai->qemu_binary, "-M", ai->qemu_machine,
						"-m", NULL });
	sk_argv_pushf(a, "%u", o->memory_mb ? o->memory_mb : 1024);
	sk_argv_push(a, "-smp");
	sk_argv_pushf(a, "%u", o->cpus ? o->cpus : 2);
	sk_argv_push(a, "-accel");
	sk_argv_push(a, accel == SK_QEMU_KVM ? "kvm" : "tcg");
	if (accel == SK_QEMU_KVM) {
		sk_argv_push(a, "-cpu");
		sk_argv_push(a, "host");
	} else if (ai->qemu_tcg_cpu) {
		sk_argv_push(a, "-cpu");
		sk_argv_push(a, ai->qemu_tcg_cpu);
	}
	sk_argv_pushv(a, (const char *const[]){ "-display", "none", "-monitor",
		      "none", "-serial", "stdio", "-no-reboot", "-nodefaults",
		      NULL });
	if (o->kernel) {
		sk_argv_push(a, "-kernel");
		sk_argv_push(a, o->kernel);
		if (o->initrd) {
			sk_argv_push(a, "-initrd");
			sk_argv_push(a, o->initrd);
		}
		sk_argv_push(a, "-append");
		sk_argv_pushf(a, "console=%s panic=-1 printk.time=1%s%s%s%s",
			      ai->console, o->append ? " " : "",
			      o->append ? o->append : "",
			      extra_append ? " " : "",
			      extra_append ? extra_append : "");
	}
}

static int run_qemu(struct sk_run_result *res, const struct sk_arch *ai,
		    const struct sk_qemu_opts *o, enum sk_qemu_accel accel,
		    const char *log_path, unsigned int timeout_s,
		    const char *extra_append)
{
	struct sk_run_opts ro = { 0 };
	struct sk_argv a = SK_ARGV_INIT;
	int err;

	make_argv(&a, ai, o, accel, extra_append);
	ro.argv = a.v;
	ro.stdout_path = log_path;
	ro.timeout_ms = timeout_s * 1000;
	ro.flags = SK_RUN_CAPTURE_ERR;
	err = sk_run(res, &ro);
	sk_argv_release(&a);
	return err;
}

/* Once per process; the gate boots guests from several threads. */
static int kvm_cache = -1;
static pthread_mutex_t kvm_lock = PTHREAD_MUTEX_INITIALIZER;

static int kvm_probe(const struct sk_qemu_opts *o)
{
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	const struct sk_arch *ai = find_arch(o->arch);
	struct sk_strbuf log = SK_STRBUF_INIT;
	char *probe_log;
	int fd;

	if (kvm_cache >= 0)
		return kvm_cache;
	kvm_cache = 0;
	if (getenv("SK_QEMU_NO_KVM") || !ai || !o->kernel)
		return 0;
	if (strcmp(ai->name, "x86_64") && strcmp(ai->name, "i386"))
		return 0;	/* only the host's own arch */
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;
	close(fd);
	probe_log = sk_xstrfmt("%s.kvm-probe", o->log_path);
	run_qemu(&res, ai, o, SK_QEMU_KVM, probe_log, 30, "stablekit.probe=1");
	if (!sk_read_file(&log, probe_log) &&
	    strstr(log.buf, SK_QEMU_MARK_DONE))
		kvm_cache = 1;
	sk_error_clear();
	sk_run_result_release(&res);
	sk_strbuf_release(&log);
	free(probe_log);
	return kvm_cache;
}

int sk_qemu_kvm_works(const struct sk_qemu_opts *o)
{
	int works;

	pthread_mutex_lock(&kvm_lock);
	works = kvm_probe(o);
	pthread_mutex_unlock(&kvm_lock);
	return works;
}

static int guest_rc(const char *log)
{
	const char *p = strstr(log, SK_QEMU_MARK_DONE " rc="), *next;
	char *end;
	long rc;

	if (!p)
		return -1;
	while ((next = strstr(p + 1, SK_QEMU_MARK_DONE " rc=")))
		p = next;
	p += strlen(SK_QEMU_MARK_DONE " rc=");
	/* a garbled number is no marker, never rc=0 */
	if (*p < '0' || *p > '9')
		return -1;
	rc = strtol(p, &end, 10);
	return rc > 255 || (*end && !isspace((unsigned char)*end)) ? -1 : (int)rc;
}

int sk_qemu_boot(struct sk_qemu_result *out, const struct sk_qemu_opts *o)
{
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	const struct sk_arch *ai = find_arch(o->arch);
	struct sk_strbuf log = SK_STRBUF_INIT;
	unsigned int timeout = o->timeout_s ? o->timeout_s : 600;
	int err;

	memset(out, 0, sizeof(*out));
	out->guest_rc = -1;
	out->status = SK_BOOT_ERROR;
	if (!ai)
		return sk_error_set(SK_EINVALID, "unknown arch '%s'", o->arch);
	if (!o->log_path)
		return sk_error_set(SK_EINVALID, "qemu: no console log path");
	if (!sk_run_have(ai->qemu_binary)) {
		out->reason = sk_xstrfmt("'%s' is not installed", ai->qemu_binary);
		return sk_error_set(SK_ETOOL, "'%s' is not installed (make deps)",
				    ai->qemu_binary);
	}
	out->accel = o->accel;
	if (out->accel == SK_QEMU_AUTO)
		out->accel = sk_qemu_kvm_works(o) ? SK_QEMU_KVM : SK_QEMU_TCG;
	err = run_qemu(&res, ai, o, out->accel, o->log_path, timeout, NULL);
	out->seconds = res.seconds;
	out->exit_code = res.exit_code;
	if (err < 0 && err != SK_ETIMEOUT) {
		out->reason = sk_xstrfmt("qemu: %s", sk_error_last());
		sk_run_result_release(&res);
		return err;
	}
	sk_error_clear();
	sk_read_file(&log, o->log_path);
	sk_strbuf_rtrim(&res.err);
	sk_qemu_verdict(out, log.buf, log.len, res.timed_out, timeout,
			res.exit_code, res.err.buf, o->expect_rc);
	sk_strbuf_release(&log);
	sk_run_result_release(&res);
	return 0;
}

void sk_qemu_verdict(struct sk_qemu_result *out, const char *log, size_t len,
		     int timed_out, unsigned int timeout_s, int qemu_exit,
		     const char *qemu_err, int expect_rc)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	int splat;

	/* guest_rc's strstr wants a string; a console may hold NULs */
	sk_strbuf_add(&text, log, len);
	out->guest_rc = guest_rc(text.buf);
	sk_strbuf_release(&text);
	splat = sk_qemu_scan_log(&out->splat, log, len);
	free(out->reason);
	if (timed_out) {
		out->status = SK_BOOT_TIMEOUT;
		out->reason = splat ?
			sk_xstrfmt("TIMEOUT: killed after %u s; %s at line %u: %s",
				   timeout_s, out->splat.kind, out->splat.lineno,
				   out->splat.line) :
			sk_xstrfmt("TIMEOUT: killed after %u s", timeout_s);
	} else if (splat) {
		out->status = SK_BOOT_SPLAT;
		out->reason = sk_xstrfmt("%s at line %u: %s", out->splat.kind,
					 out->splat.lineno, out->splat.line);
	} else if (out->guest_rc < 0) {
		out->status = SK_BOOT_NO_MARKER;
		out->reason = sk_xstrfmt("qemu exited with %d before '%s'%s%.200s",
					 qemu_exit, SK_QEMU_MARK_DONE,
					 qemu_err && *qemu_err ? ": " : "",
					 qemu_err ? qemu_err : "");
	} else if (out->guest_rc != expect_rc) {
		out->status = SK_BOOT_GUEST_FAIL;
		out->reason = sk_xstrfmt("the guest's job ended with rc=%d, not %d%s",
					 out->guest_rc, expect_rc,
					 out->guest_rc == 127 ? " (no /stablekit/job)" :
					 out->guest_rc == 126 ? " (/stablekit/job cannot run)" :
					 "");
	} else {
		out->status = SK_BOOT_OK;
		out->reason = sk_xstrfmt("booted, guest rc=%d", out->guest_rc);
	}
}
