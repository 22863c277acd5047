#ifndef SK_QEMU_H
#define SK_QEMU_H

#include <stddef.h>
#include "gate/boot.h"

/*
 * Boot a kernel in QEMU with the serial console captured to a log and a
 * hard limit: a guest that does not finish in time is killed (with its
 * process group) and recorded as TIMEOUT; with -no-reboot QEMU exits when
 * the guest's /init reboots.  The verdict is sk_boot_verdict's.
 */
struct sk_qemu_opts {
	const char *arch;	/* x86_64, i386, arm64 */
	const char *kernel;	/* NULL: firmware only (never finishes) */
	const char *initrd;
	const char *append;	/* added to the command line */
	const char *log_path;	/* the serial console, required */
	unsigned int memory_mb;	/* 0: 1024 */
	unsigned int cpus;	/* 0: 2 */
	unsigned int timeout_s;	/* 0: 600 */
	enum sk_boot_accel accel;
	int expect_rc;		/* the guest rc of an ok boot (0) */
};

/* The QEMU binary for an arch, or NULL when the arch is unknown. */
const char *sk_qemu_binary(const char *arch);

/*
 * Boot.  Returns 0 when QEMU ran (see out->status for the verdict),
 * SK_EINVALID for bad options, SK_ETOOL when QEMU is missing.  With
 * SK_BOOT_AUTO, KVM is used when a short probe boot with it reaches the
 * start marker (once per process), otherwise TCG.
 */
int sk_qemu_boot(struct sk_boot_result *out, const struct sk_qemu_opts *o);

/* Does KVM work for this kernel and initrd?  1 yes, 0 no (cached). */
int sk_qemu_kvm_works(const struct sk_qemu_opts *o);

#endif
