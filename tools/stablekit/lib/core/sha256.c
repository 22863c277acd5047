#include "core/sha256.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void to_hex(char out[SK_SHA256_HEX], const unsigned char *md)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
}

void sk_sha256_buf(char out[SK_SHA256_HEX], const void *data, size_t len)
{
	unsigned char md[32];
	unsigned int n = 0;

	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	to_hex(out, md);
}

int sk_sha256_file(char out[SK_SHA256_HEX], const char *path)
{
	unsigned char *buf = NULL;
	unsigned char md[32];
	unsigned int n = 0;
	EVP_MD_CTX *ctx;
	ssize_t got;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sk_error_errno(path);
	buf = malloc(1 << 16);
	ctx = EVP_MD_CTX_new();
	if (!buf || !ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		ret = sk_error_set(SK_ERROR, "%s: cannot start sha256", path);
		goto out;
	}
	while ((got = read(fd, buf, 1 << 16)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = sk_error_errno(path);
			goto out;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)got);
	}
	EVP_DigestFinal_ex(ctx, md, &n);
	to_hex(out, md);
out:
	EVP_MD_CTX_free(ctx);
	free(buf);
	close(fd);
	return ret;
}
