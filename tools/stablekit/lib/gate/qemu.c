#include "gate/qemu.h"
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


static void make_argv(struct sk_argv *a, const struct sk_arch *ai,
		      const struct sk_qemu_opts *o, enum sk_boot_accel accel,
		      const char *extra_append)
{
	sk_argv_pushv(a, (const char *const[]){ ai->qemu_binary, "-M", ai->qemu_machine,
						"-m", NULL });
	sk_argv_pushf(a, "%u", o->memory_mb ? o->memory_mb : 1024);
	sk_argv_push(a, "-smp");
	sk_argv_pushf(a, "%u", o->cpus ? o->cpus : 2);
	sk_argv_push(a, "-accel");
	sk_argv_push(a, accel == SK_BOOT_KVM ? "kvm" : "tcg");
	if (accel == SK_BOOT_KVM) {
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
		    const struct sk_qemu_opts *o, enum sk_boot_accel accel,
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
	run_qemu(&res, ai, o, SK_BOOT_KVM, probe_log, 30, "stablekit.probe=1");
	if (!sk_read_file(&log, probe_log) &&
	    strstr(log.buf, SK_BOOT_MARK_DONE))
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


int sk_qemu_boot(struct sk_boot_result *out, const struct sk_qemu_opts *o)
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
		return sk_error_set(SK_ETOOL, "'%s' is not installed (make deps-test)",
				    ai->qemu_binary);
	}
	out->accel = o->accel;
	if (out->accel == SK_BOOT_AUTO)
		out->accel = sk_qemu_kvm_works(o) ? SK_BOOT_KVM : SK_BOOT_TCG;
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
	sk_boot_verdict(out, log.buf, log.len, res.timed_out, timeout,
			res.exit_code, res.err.buf, o->expect_rc);
	sk_strbuf_release(&log);
	sk_run_result_release(&res);
	return 0;
}

