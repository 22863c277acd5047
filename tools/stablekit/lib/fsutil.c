#include "fsutil.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sk_write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = sk_xstrfmt("%s.tmp-XXXXXX", path);
	const char *p = data;
	int fd = mkstemp(tmp), ret = SK_ERROR;

	if (fd < 0) {
		ret = sk_error_errno(path);
		goto out;
	}
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = sk_error_errno(path);
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fchmod(fd, 0644) || fsync(fd)) {
		ret = sk_error_errno(path);
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		ret = sk_error_errno(path);
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path)) {
		ret = sk_error_errno(path);
		goto fail;
	}
	ret = 0;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(tmp);
	return ret;
}

int sk_read_file(struct sk_strbuf *out, const char *path)
{
	char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ?
			sk_error_set(SK_ENOTFOUND, "'%s': no such file", path) :
			sk_error_errno(path);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return sk_error_errno(path);
		}
		sk_strbuf_add(out, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

int sk_mkdir_p(const char *path, int mode)
{
	char *p = sk_xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, (mode_t)mode) && errno != EEXIST) {
			ret = sk_error_errno(p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

int sk_mkdtemp_in(char **out, const char *parent, const char *prefix)
{
	char *tmpl = sk_xstrfmt("%s/.%s-XXXXXX", parent, prefix);

	if (sk_mkdir_p(parent, 0755) || !mkdtemp(tmpl)) {
		int ret = sk_error_errno(tmpl);

		free(tmpl);
		return ret;
	}
	*out = tmpl;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

int sk_rmrf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : sk_error_errno(path);
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS))
		return sk_error_errno(path);
	return 0;
}

int sk_path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int sk_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *sk_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	return sk_xstrfmt("%.*s/%s", (int)la, a, b);
}
