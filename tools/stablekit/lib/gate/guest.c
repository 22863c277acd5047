#include "gate/guest.h"
#include "gate/guestland.h"
#include "gate/initramfs.h"
#include "gate/lava.h"
#include "gate/qemu.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/results.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sk_guest_busybox(const char *arch)
{
	static char path[4096];
	const char *env, *work;

	if (!arch || !strcmp(arch, "x86_64"))
		return sk_path_exists("/bin/busybox") ? "/bin/busybox" : NULL;
	env = !strcmp(arch, "arm64") ? getenv("SK_BUSYBOX_ARM64") :
	      !strcmp(arch, "i386") ? getenv("SK_BUSYBOX_I386") : NULL;
	if (env && sk_path_exists(env))
		return env;
	work = getenv("SK_WORK");
	if (work) {
		snprintf(path, sizeof(path), "%s/guest/busybox-%s", work, arch);
		if (sk_path_exists(path))
			return path;
	}
	return NULL;
}

int sk_guest_userland(char **out, const char *work, const char *arch)
{
	const char *have = sk_guest_busybox(arch);

	*out = NULL;
	if (have) {
		*out = sk_xstrdup(have);
		return 0;
	}
	if (!arch || !strcmp(arch, "x86_64"))
		return sk_error_set(SK_ENOTFOUND, "no static busybox at /bin/busybox "
				    "(Debian's busybox-static)");
	/* another arch's userland comes from Debian, fetched once and cached */
	return sk_guestland_busybox(out, work, arch);
}

/* An arch the gate can boot: it has a QEMU machine. */
static int make_initramfs(const struct sk_guest_opts *o, const char *out)
{
	struct sk_initramfs ir = SK_INITRAMFS_INIT;
	char *init = sk_datadir_find(o->top, "ci/guest/init", NULL);
	char *work = NULL, *fetched = NULL;
	const char *busybox = o->busybox;
	size_t i;
	int err = 0;

	if (!busybox) {
		work = sk_work_dir(o->top);
		err = sk_guest_userland(&fetched, work, o->arch);
		if (err)
			goto cleanup;
		busybox = fetched;
	}
	err = sk_initramfs_add_base(&ir, busybox, init);
	if (err < 0)
		goto cleanup;
	sk_initramfs_add_file(&ir, "/stablekit/job", 0755, o->job,
			      strlen(o->job));
	for (i = 0; i < o->nr_files && !err; i++) {
		char *dst = sk_xstrfmt("/stablekit/%s", sk_path_basename(o->files[i]));

		err = sk_initramfs_add_host_file(&ir, dst, 0755, o->files[i]);
		free(dst);
	}
	if (!err)
		err = sk_initramfs_write(&ir, out);
cleanup:
	sk_initramfs_release(&ir);
	free(fetched);
	free(work);
	free(init);
	return err;
}

int sk_guest_run(struct sk_boot_result *out, const struct sk_guest_opts *o)
{
	struct sk_qemu_opts qo = { 0 };
	char *initrd = sk_path_join(o->workdir, "initramfs.cpio");
	char *log = sk_path_join(o->workdir, "console.log");
	int err;

	memset(out, 0, sizeof(*out));
	out->guest_rc = -1;
	out->status = SK_BOOT_ERROR;
	/* a guest with nothing to run proves nothing (ci/guest/init: rc=127) */
	if (o->kernel && !o->job) {
		err = sk_error_set(SK_EINVALID, "guest: no job to run");
		out->reason = sk_xstrdup(sk_error_last());
		goto cleanup;
	}
	err = sk_mkdir_p(o->workdir, 0755);
	if (!err && o->kernel)
		err = make_initramfs(o, initrd);
	if (err < 0) {
		out->reason = sk_xstrdup(sk_error_last());
		goto cleanup;
	}
	qo.arch = o->arch ? o->arch : "x86_64";
	qo.kernel = o->kernel;
	qo.initrd = o->kernel ? initrd : NULL;
	qo.append = o->append;
	qo.log_path = log;
	qo.memory_mb = o->memory_mb;
	qo.cpus = o->cpus;
	qo.timeout_s = o->timeout_s;
	qo.accel = o->accel;
	if (o->lava) {
		struct sk_lava_job *job = sk_xcalloc(1, sizeof(*job));

		err = sk_lava_boot(out, job, o->lava, &qo, o->name ?
				   o->name : "stablekit guest");
		out->lava = sk_lava_job_json(job);
		sk_lava_job_release(job);
		free(job);
	} else {
		err = sk_qemu_boot(out, &qo);
	}
cleanup:
	free(initrd);
	free(log);
	return err;
}

