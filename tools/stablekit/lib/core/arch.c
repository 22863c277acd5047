#include "core/arch.h"

#include <string.h>

static const struct sk_arch arches[] = {
	{ "x86_64", "x86_64", "x86", "", "bzImage", "arch/x86/boot/bzImage",
	  "amd64", 62, 1, "qemu-system-x86_64", "pc", NULL, "ttyS0", 1 },
	{ "arm64", "arm64", "arm64", "aarch64-linux-gnu-", "Image",
	  "arch/arm64/boot/Image",
	  "arm64", 183, 1, "qemu-system-aarch64", "virt", "cortex-a57",
	  "ttyAMA0", 1 },
	{ "i386", "i386", "x86", "i686-linux-gnu-", "bzImage",
	  "arch/x86/boot/bzImage",
	  "i386", 3, 0, "qemu-system-i386", "pc", NULL, "ttyS0", 1 },
	{ "riscv64", "riscv", "riscv", "riscv64-linux-gnu-", "Image",
	  "arch/riscv/boot/Image",
	  "riscv64", 243, 1, NULL, NULL, NULL, "ttyS0", 0 },
};

#define NR_ARCHES (sizeof(arches) / sizeof(arches[0]))

const struct sk_arch *sk_arch_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < NR_ARCHES; i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

const struct sk_arch *sk_arch_at(size_t n)
{
	return n < NR_ARCHES ? &arches[n] : NULL;
}

const char *sk_arch_list(void)
{
	return "x86_64, arm64, i386, riscv64";
}
