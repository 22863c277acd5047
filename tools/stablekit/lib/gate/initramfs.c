#include "gate/initramfs.h"
#include "core/error.h"
#include "core/fsutil.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

void sk_initramfs_init(struct sk_initramfs *ir)
{
	sk_strbuf_init(&ir->data);
	ir->next_ino = 1;
}

void sk_initramfs_release(struct sk_initramfs *ir)
{
	if (!ir)
		return;
	sk_strbuf_release(&ir->data);
}

static void pad4(struct sk_strbuf *sb)
{
	while (sb->len % 4)
		sk_strbuf_addch(sb, '\0');
}

static void add_entry(struct sk_initramfs *ir, const char *path,
		      unsigned int mode, unsigned int rmaj, unsigned int rmin,
		      const void *data, size_t len)
{
	size_t namesize;

	while (*path == '/')
		path++;
	namesize = strlen(path) + 1;
	sk_strbuf_addf(&ir->data,
		       "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		       ir->next_ino++, mode, 0u, 0u,
		       S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned int)len, 0u, 0u,
		       rmaj, rmin, (unsigned int)namesize, 0u);
	sk_strbuf_add(&ir->data, path, namesize);
	pad4(&ir->data);
	if (len)
		sk_strbuf_add(&ir->data, data, len);
	pad4(&ir->data);
}

void sk_initramfs_add_dir(struct sk_initramfs *ir, const char *path,
			  unsigned int perm)
{
	add_entry(ir, path, S_IFDIR | (perm & 07777), 0, 0, NULL, 0);
}

void sk_initramfs_add_file(struct sk_initramfs *ir, const char *path,
			   unsigned int perm, const void *data, size_t len)
{
	add_entry(ir, path, S_IFREG | (perm & 07777), 0, 0, data, len);
}

void sk_initramfs_add_symlink(struct sk_initramfs *ir, const char *path,
			      const char *target)
{
	add_entry(ir, path, S_IFLNK | 0777, 0, 0, target, strlen(target));
}

void sk_initramfs_add_chardev(struct sk_initramfs *ir, const char *path,
			      unsigned int perm, unsigned int major,
			      unsigned int minor)
{
	add_entry(ir, path, S_IFCHR | (perm & 07777), major, minor, NULL, 0);
}

int sk_initramfs_add_host_file(struct sk_initramfs *ir, const char *path,
			       unsigned int perm, const char *host_path)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	if (!sk_path_exists(host_path))
		return sk_error_set(SK_ENOTFOUND, "'%s' does not exist",
				    host_path);
	if (sk_read_file(&sb, host_path) < 0) {
		sk_strbuf_release(&sb);
		return SK_ERROR;
	}
	sk_initramfs_add_file(ir, path, perm, sb.buf, sb.len);
	sk_strbuf_release(&sb);
	return 0;
}

int sk_initramfs_add_base(struct sk_initramfs *ir, const char *busybox,
			  const char *init_path)
{
	static const char *const dirs[] = {
		"/bin", "/sbin", "/usr", "/usr/bin", "/usr/sbin", "/dev",
		"/proc", "/sys", "/tmp", "/root", "/etc", "/mnt", "/run",
		"/stablekit", NULL
	};
	const char *const *d;
	int err;

	for (d = dirs; *d; d++)
		sk_initramfs_add_dir(ir, *d, !strcmp(*d, "/tmp") ? 01777 : 0755);
	sk_initramfs_add_chardev(ir, "/dev/console", 0600, 5, 1);
	sk_initramfs_add_chardev(ir, "/dev/null", 0666, 1, 3);
	err = sk_initramfs_add_host_file(ir, "/bin/busybox", 0755, busybox);
	if (err < 0)
		return sk_error_prefix(err, "busybox");
	sk_initramfs_add_symlink(ir, "/bin/sh", "busybox");
	err = sk_initramfs_add_host_file(ir, "/init", 0755, init_path);
	if (err < 0)
		return sk_error_prefix(err, "init");
	return 0;
}

int sk_initramfs_write(struct sk_initramfs *ir, const char *out_path)
{
	add_entry(ir, "TRAILER!!!", 0, 0, 0, NULL, 0);
	/* the kernel reads the archive in 512-byte blocks */
	while (ir->data.len % 512)
		sk_strbuf_addch(&ir->data, '\0');
	if (sk_write_file_atomic(out_path, ir->data.buf, ir->data.len) < 0)
		return sk_error_prefix(SK_ERROR, "initramfs '%s'", out_path);
	return 0;
}
