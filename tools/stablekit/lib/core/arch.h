#ifndef SK_ARCH_H
#define SK_ARCH_H

#include <stddef.h>

/*
 * The one table of the arches stablekit knows: how kbuild names and
 * cross-compiles each, which Debian architecture its guest userland comes
 * from, how QEMU and LAVA boot it.  A new arch is one row in arch.c;
 * a NULL qemu_binary means it is built but never booted.
 */
struct sk_arch {
	const char *name;	/* x86_64, arm64, i386, riscv64 */
	const char *karch;	/* ARCH= */
	const char *srcarch;	/* arch/<srcarch>/ */
	const char *cross;	/* CROSS_COMPILE on an x86_64 host */
	const char *image;	/* the kernel make target */
	const char *image_path;	/* relative to O= */
	const char *debian;	/* dpkg architecture of the guest userland */
	unsigned int elf_machine;	/* e_machine of its binaries */
	int elf64;
	const char *qemu_binary;	/* NULL: not booted */
	const char *qemu_machine;
	const char *qemu_tcg_cpu;	/* NULL: QEMU's default */
	const char *console;	/* the serial console's device */
	int by_default;		/* built when no arch is named */
};

/* NULL for an arch stablekit does not know. */
const struct sk_arch *sk_arch_find(const char *name);
/* The n-th arch of the table, NULL past its end. */
const struct sk_arch *sk_arch_at(size_t n);
/* "x86_64, arm64, i386, riscv64" for messages: a static string. */
const char *sk_arch_list(void);

#endif
