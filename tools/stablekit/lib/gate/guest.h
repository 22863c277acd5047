#ifndef SK_GUEST_H
#define SK_GUEST_H

#include <stddef.h>
#include "gate/boot.h"

struct sk_lava;

/*
 * The guest of `stablekit test` and `stablekit gate`: an initramfs of
 * busybox-static, ci/guest/init and a job, booted in QEMU here or as a
 * LAVA job.
 */
struct sk_guest_opts {
	const char *top;	/* the project: ci/guest/init */
	const char *arch;	/* x86_64 (default), i386, arm64 */
	const char *kernel;	/* image; NULL: firmware only */
	const char *busybox;	/* static, for arch; NULL: /bin/busybox */
	const char *workdir;	/* initramfs.cpio and console.log go here */
	const char *append;	/* kernel command line, added */
	const char *job;	/* text of /stablekit/job: required with a kernel */
	const char *const *files;	/* host files put in /stablekit/ */
	size_t nr_files;
	unsigned int timeout_s, memory_mb, cpus;
	enum sk_boot_accel accel;
	const struct sk_lava *lava;	/* NULL: QEMU here; else a LAVA job */
	const char *name;	/* the LAVA job's name */
};

/* Assemble the initramfs and boot; out as sk_qemu_boot's. */
int sk_guest_run(struct sk_boot_result *out, const struct sk_guest_opts *o);

/* The static busybox for an arch, or NULL when there is none here yet. */
const char *sk_guest_busybox(const char *arch);

/*
 * The static busybox a guest of arch boots into (*out, caller frees): the
 * host's for x86_64, else $SK_BUSYBOX_<ARCH> or Debian's busybox-static for
 * that arch, fetched once into <work>/guest (lib/gate/guestland.h).
 */
int sk_guest_userland(char **out, const char *work, const char *arch);

#endif
