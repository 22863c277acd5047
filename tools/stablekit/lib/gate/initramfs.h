#ifndef SK_INITRAMFS_H
#define SK_INITRAMFS_H

#include <stddef.h>
#include "core/strbuf.h"

/*
 * An initramfs written by our own code: a newc ("070701") cpio archive,
 * uncompressed, which every kernel with BLK_DEV_INITRD unpacks.  Entries
 * are added in order; parents first.  Owner root, mtime 0: the same input
 * gives the same bytes.
 */
struct sk_initramfs {
	struct sk_strbuf data;
	unsigned int next_ino;
};

#define SK_INITRAMFS_INIT { SK_STRBUF_INIT, 1 }

void sk_initramfs_init(struct sk_initramfs *ir);
void sk_initramfs_release(struct sk_initramfs *ir);

void sk_initramfs_add_dir(struct sk_initramfs *ir, const char *path,
			  unsigned int perm);
void sk_initramfs_add_file(struct sk_initramfs *ir, const char *path,
			   unsigned int perm, const void *data, size_t len);
void sk_initramfs_add_symlink(struct sk_initramfs *ir, const char *path,
			      const char *target);
/* A character device node, such as /dev/console (5, 1). */
void sk_initramfs_add_chardev(struct sk_initramfs *ir, const char *path,
			      unsigned int perm, unsigned int major,
			      unsigned int minor);
/* Copy a file of the host; SK_ENOTFOUND when it is missing. */
int sk_initramfs_add_host_file(struct sk_initramfs *ir, const char *path,
			       unsigned int perm, const char *host_path);

/*
 * The base system: /bin/busybox (static, for the guest's architecture),
 * /bin/sh, the usual directories, /dev/console and /init from the host
 * file init_path.
 */
int sk_initramfs_add_base(struct sk_initramfs *ir, const char *busybox,
			  const char *init_path);

/* Append the trailer and write the archive atomically. */
int sk_initramfs_write(struct sk_initramfs *ir, const char *out_path);

#endif
